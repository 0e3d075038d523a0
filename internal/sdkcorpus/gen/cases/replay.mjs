// What every case module shares: the scenario the recorded responses play out, and a fetch
// that answers an SDK's client with recorded responses in turn, so that the SDK's own client
// parses them (as it parses a live API's answer) with no network.

import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const gen = join(dirname(fileURLToPath(import.meta.url)), '..');

// python runs gen/pyserialize.py: Python's own serialization (str(), json.dumps) of a value
// Python's json.loads reads from the JSON text given. It returns what Python printed.
export function python(op, value) {
  return execFileSync('python3', [join(gen, 'pyserialize.py'), op], {
    input: JSON.stringify(value),
    encoding: 'utf8',
  });
}

export const question = 'Where is order 4521?';
export const answer = 'Order 4521 shipped on May 2.';
export const preamble = 'Let me look up order 4521.';
export const orderArgs = { order_id: '4521' };
export const orderResult = { order_id: '4521', status: 'shipped', shipped_at: '2025-05-02' };
export const systemPrompt = 'You are a support agent. Look orders up with get_order.';

// replay returns a fetch that answers the n-th request with bodies[n]: a value is sent as
// JSON, an array of {event?, data} as a server-sent event stream. Every request is kept in
// requests, to build the transcript that was sent.
export function replay(bodies) {
  let n = 0;
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url: String(url), body: init && init.body ? JSON.parse(init.body) : null });
    const b = bodies[n++];
    if (b === undefined) throw new Error(`replay: request ${n} to ${url} has no recorded response`);
    const headers = { 'x-request-id': `req_${n}` };
    if (b && b.sse) {
      headers['content-type'] = 'text/event-stream';
      const text = b.sse.map((e) => (e.event ? `event: ${e.event}\n` : '') + `data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');
      return new Response(text, { status: 200, headers });
    }
    headers['content-type'] = 'application/json';
    return new Response(JSON.stringify(b), { status: 200, headers });
  };
  fetch.requests = requests;
  return fetch;
}

// strip returns value through JSON: what JSON.stringify writes of it, parsed again.
export function plain(value) {
  return JSON.parse(JSON.stringify(value));
}
