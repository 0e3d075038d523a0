"""POST bodies with a real Python HTTP client and print what came back, one JSON line per case.

Usage: post.py CLIENT < cases.json, where CLIENT is requests, httpx, urllib or aiohttp and
cases.json is a list of {"url": URL, "size": BYTES, "chunked": BOOL}. The body is `size` bytes
of "x", sent with a Content-Length, or chunked (a generator of 64 KiB pieces, which every client
sends with Transfer-Encoding: chunked). Each output line is {"status": CODE, "body": TEXT,
"connection": HEADER} or {"error": TEXT}: a client that loses the answer to a reset or a broken
pipe reports an error. Run by internal/httpapi's TestRefusedUploadsGetTheirAnswer with
Debian's /usr/bin/python3 and its python3-requests, python3-httpx and python3-aiohttp.
"""

import json
import sys

PIECE = 64 << 10
TIMEOUT = 60  # a backstop: a passing run answers in well under a second


def pieces(size):
    chunk = b"x" * PIECE
    left = size
    while left > 0:
        n = min(left, PIECE)
        yield chunk[:n]
        left -= n


def body(case):
    if case["chunked"]:
        return pieces(case["size"])
    return b"x" * case["size"]


def with_requests(case):
    import requests

    r = requests.post(case["url"], data=body(case), timeout=TIMEOUT)
    return r.status_code, r.text, r.headers.get("Connection", "")


def with_httpx(case):
    import httpx

    r = httpx.post(case["url"], content=body(case), timeout=TIMEOUT)
    return r.status_code, r.text, r.headers.get("Connection", "")


def with_urllib(case):
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if case["chunked"]:
        headers["Transfer-Encoding"] = "chunked"
    req = urllib.request.Request(case["url"], data=body(case), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return r.status, r.read().decode(), r.headers.get("Connection", "")
    except urllib.error.HTTPError as e:  # raised for every 4xx and 5xx, the answer in it
        return e.code, e.read().decode(), e.headers.get("Connection", "")


def with_aiohttp(case):
    import asyncio

    import aiohttp

    async def agen():
        for p in pieces(case["size"]):
            yield p

    async def run():
        data = agen() if case["chunked"] else body(case)
        timeout = aiohttp.ClientTimeout(total=TIMEOUT)
        async with aiohttp.ClientSession(timeout=timeout) as s:
            async with s.post(case["url"], data=data) as r:
                return r.status, await r.text(), r.headers.get("Connection", "")

    return asyncio.run(run())


CLIENTS = {"requests": with_requests, "httpx": with_httpx, "urllib": with_urllib, "aiohttp": with_aiohttp}


def main():
    post = CLIENTS[sys.argv[1]]
    for case in json.load(sys.stdin):
        try:
            status, text, connection = post(case)
            out = {"status": status, "body": text, "connection": connection}
        except Exception as e:  # the client lost the answer: say how
            out = {"error": type(e).__name__ + ": " + str(e)}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
