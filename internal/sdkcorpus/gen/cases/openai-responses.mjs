// OpenAI Responses: the openai package's client parsing recorded Responses API responses.
import OpenAI from 'openai';
import { replay, question, answer, preamble, orderArgs, orderResult, python } from './replay.mjs';

const src = { sdk: 'openai-responses', package: 'openai', api: 'responses', language: 'javascript' };
const wire = { ...src, language: 'any' };

export function response(id, output, u, model = 'gpt-4.1-2025-04-14') {
  return {
    id, object: 'response', created_at: 1747000000, status: 'completed', background: false, error: null, incomplete_details: null,
    instructions: null, max_output_tokens: null, model, output, parallel_tool_calls: true, previous_response_id: null,
    reasoning: { effort: null, summary: null }, service_tier: 'default', store: true, temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' }, tool_choice: 'auto', tools: [], top_p: 1, truncation: 'disabled', usage: u, user: null, metadata: {},
  };
}
export const usage = (i, o, r = 0) => ({ input_tokens: i, input_tokens_details: { cached_tokens: 0 }, output_tokens: o, output_tokens_details: { reasoning_tokens: r }, total_tokens: i + o });
export const functionCall = { id: 'fc_68a1', type: 'function_call', status: 'completed', arguments: JSON.stringify(orderArgs), call_id: 'call_Rz1', name: 'get_order' };
export const messageItem = (id, text) => ({ id, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text }], role: 'assistant' });
const reasoningItem = { id: 'rs_68a0', type: 'reasoning', summary: [] };

export const recorded = {
  call: response('resp_1', [functionCall], usage(80, 18)),
  preambleCall: response('resp_2', [messageItem('msg_p', preamble), functionCall], usage(80, 31)),
  final: response('resp_3', [messageItem('msg_3', answer)], usage(120, 11)),
  reasoning: response('resp_4', [reasoningItem, messageItem('msg_4', answer)], usage(120, 330, 320), 'o4-mini-2025-04-16'),
  custom: response('resp_5', [{ id: 'ctc_1', type: 'custom_tool_call', status: 'completed', call_id: 'call_Ct1', input: "SELECT status FROM orders WHERE id = '4521'", name: 'sql' }], usage(80, 20), 'gpt-5-2025-08-07'),
};

function client(bodies) {
  return new OpenAI({ apiKey: 'sk-test', fetch: replay(bodies), maxRetries: 0 });
}

export async function build(add) {
  const openai = client([recorded.call, recorded.final, recorded.preambleCall, recorded.reasoning, recorded.custom]);
  const r1 = await openai.responses.create({ model: 'gpt-4.1', input: question });
  const input = [{ role: 'user', content: question }, ...r1.output, { type: 'function_call_output', call_id: functionCall.call_id, output: JSON.stringify(orderResult) }];
  const r2 = await openai.responses.create({ model: 'gpt-4.1', input });
  const rp = await openai.responses.create({ model: 'gpt-4.1', input: question });
  const rr = await openai.responses.create({ model: 'o4-mini', input: question });
  const rc = await openai.responses.create({ model: 'gpt-5', input: question, tools: [{ type: 'custom', name: 'sql' }] });

  add('openai-responses-response-as-result', {
    source: wire, built: 'responses.create on a response that answered (the SDK adds output_text)', serialized: 'JSON.stringify(response) as the handler\'s result',
    body: r2, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('openai-responses-function-call-response-as-result', {
    source: wire, built: 'responses.create on a response that stopped at a function_call (output_text is "")', serialized: 'JSON.stringify(response)',
    body: r1, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('openai-responses-preamble-response-as-result', {
    source: wire, built: 'responses.create on a response that wrote a preamble message, then a function_call', serialized: 'JSON.stringify(response)',
    body: rp, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('openai-responses-output-text-of-function-call', {
    source: src, built: 'responses.create stopped at a function_call; response.output_text is ""', serialized: 'JSON.stringify({final_response: response.output_text, messages: [user, ...response.output]})',
    body: { final_response: r1.output_text, messages: [{ role: 'user', content: question }, ...r1.output] }, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('openai-responses-input-items-as-messages', {
    source: wire, built: 'the input list of the second responses.create: the user message, response.output\'s function_call, a function_call_output, then the answer\'s output items',
    serialized: 'JSON.stringify({final_response: response.output_text, messages: [...input, ...response.output]})',
    body: { final_response: r2.output_text, messages: [...input, ...r2.output] }, expect: { verdict: 'accepted', messages: 2, answer },
  });
  add('openai-responses-reasoning-usage-as-metadata', {
    source: src, built: 'responses.create on o4-mini: a reasoning item, then the message; output_tokens include 320 reasoning tokens',
    serialized: 'JSON.stringify({final_response: response.output_text, metadata: {model: response.model, ...response.usage}})',
    body: { final_response: rr.output_text, metadata: { model: rr.model, ...rr.usage } }, expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 120, total_output_tokens: 330 },
  });
  add('openai-responses-custom-tool-call-items', {
    source: wire, built: 'responses.create with a custom tool: output is a custom_tool_call item', serialized: 'JSON.stringify({final_response, messages: [user, ...response.output, custom_tool_call_output]})',
    body: { final_response: answer, messages: [{ role: 'user', content: question }, ...rc.output, { type: 'custom_tool_call_output', call_id: 'call_Ct1', output: 'shipped' }, { role: 'assistant', content: answer }] },
    expect: { verdict: 'accepted', messages: 2, answer },
  });
  {
    const ev = (type, extra) => ({ event: type, data: { type, ...extra } });
    const sse = [
      ev('response.created', { sequence_number: 0, response: { ...recorded.final, status: 'in_progress', output: [], usage: null } }),
      ev('response.output_item.added', { sequence_number: 1, output_index: 0, item: { id: 'msg_3', type: 'message', status: 'in_progress', content: [], role: 'assistant' } }),
      ev('response.content_part.added', { sequence_number: 2, item_id: 'msg_3', output_index: 0, content_index: 0, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } }),
      ev('response.output_text.delta', { sequence_number: 3, item_id: 'msg_3', output_index: 0, content_index: 0, delta: 'Order 4521', logprobs: [] }),
      ev('response.output_text.delta', { sequence_number: 4, item_id: 'msg_3', output_index: 0, content_index: 0, delta: ' shipped on May 2.', logprobs: [] }),
      ev('response.output_text.done', { sequence_number: 5, item_id: 'msg_3', output_index: 0, content_index: 0, text: answer, logprobs: [] }),
      ev('response.completed', { sequence_number: 6, response: recorded.final }),
    ];
    const o = client([{ sse }]);
    const stream = await o.responses.create({ model: 'gpt-4.1', input: question, stream: true });
    const events = [];
    for await (const e of stream) events.push(e);
    add('openai-responses-stream-events-as-messages', {
      source: src, built: 'responses.create with stream: true; every event the stream yielded', serialized: 'JSON.stringify({final_response: text, messages: events})',
      body: { final_response: answer, messages: events }, expect: { verdict: 'accepted', messages: 0, answer },
    });
  }
  const py = { ...src, language: 'python' };
  const wireFinal = JSON.parse(JSON.stringify(recorded.final));
  add('openai-responses-python-str-of-response-dict', {
    source: py, built: 'json.loads of the recorded response (as resp.json() returns it)', serialized: 'str(data) as final_response',
    body: { final_response: python('str', wireFinal) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
  add('openai-responses-python-pretty-json', {
    source: py, built: 'json.loads of the recorded response', serialized: 'json.dumps(data, indent=2) as final_response',
    body: { final_response: python('dumps-indent', wireFinal) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
}
