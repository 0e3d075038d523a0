"""Python's own serialization of a value, for the SDK corpus (gen/generate.mjs).

Reads JSON text on standard input and parses it with json.loads, as a handler that called an
API over HTTP holds a response (requests' and httpx's .json() are json.loads), then prints the
value the way OP says: nothing here imitates an SDK's repr, only the standard library runs.

  str          str(value): a dict's or list's repr, with None, True and single quotes
  dumps        json.dumps(value)
  dumps-indent json.dumps(value, indent=2)
  dumps-compact json.dumps(value, separators=(",", ":"), ensure_ascii=False): the bytes
               pydantic's model_dump_json() writes for a model of these values (no spaces,
               UTF-8 kept)
"""

import json
import sys


def main() -> None:
    op = sys.argv[1]
    value = json.loads(sys.stdin.read())
    if op == "str":
        text = str(value)
    elif op == "dumps":
        text = json.dumps(value)
    elif op == "dumps-indent":
        text = json.dumps(value, indent=2)
    elif op == "dumps-compact":
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    else:
        raise SystemExit(f"pyserialize: unknown op {op!r}")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
