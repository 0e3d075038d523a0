// OpenAI Chat Completions: the openai package's client parsing recorded chat completions.
import OpenAI from 'openai';
import { replay, question, answer, preamble, orderArgs, orderResult, systemPrompt, python } from './replay.mjs';

const src = { sdk: 'openai-chat', package: 'openai', api: 'chat.completions', language: 'javascript' };
// Wire-shaped values (a completion, a message as the API sends it) are what the Python SDK's
// model_dump gives as well: a handler in either language may have sent them.
const wire = { ...src, language: 'any' };

const usage = (p, c, r = 0) => ({
  prompt_tokens: p, completion_tokens: c, total_tokens: p + c,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: r, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
});

function completion(id, message, finish, u, model = 'gpt-4o-2024-08-06') {
  return {
    id, object: 'chat.completion', created: 1747000000, model,
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finish }],
    usage: u, service_tier: 'default', system_fingerprint: 'fp_07871e2ad8',
  };
}

const toolCall = { id: 'call_Qx1', type: 'function', function: { name: 'get_order', arguments: JSON.stringify(orderArgs) } };
const recorded = {
  call: completion('chatcmpl-1', { content: null, tool_calls: [toolCall] }, 'tool_calls', usage(82, 17)),
  preambleCall: completion('chatcmpl-2', { content: preamble, tool_calls: [toolCall] }, 'tool_calls', usage(82, 29)),
  final: completion('chatcmpl-3', { content: answer }, 'stop', usage(131, 12)),
  custom: completion('chatcmpl-4', { content: null, tool_calls: [{ id: 'call_Cu1', type: 'custom', custom: { name: 'sql', input: "SELECT status, shipped_at FROM orders WHERE id = '4521'" } }] }, 'tool_calls', usage(90, 24), 'gpt-5-2025-08-07'),
  reasoning: completion('chatcmpl-5', { content: answer }, 'stop', usage(131, 204, 192), 'o4-mini-2025-04-16'),
};

function client(bodies) {
  const fetch = replay(bodies);
  return { openai: new OpenAI({ apiKey: 'sk-test', fetch, maxRetries: 0 }), fetch };
}

const toolMessage = (id) => ({ role: 'tool', tool_call_id: id, content: JSON.stringify(orderResult) });

// loop runs the tool round by hand, as the SDK's README shows: create, run the tool, create.
async function loop(first) {
  const { openai } = client([first, recorded.final]);
  const messages = [{ role: 'system', content: systemPrompt }, { role: 'user', content: question }];
  const c1 = await openai.chat.completions.create({ model: 'gpt-4o', messages });
  messages.push(c1.choices[0].message);
  for (const call of c1.choices[0].message.tool_calls) messages.push(toolMessage(call.id));
  const c2 = await openai.chat.completions.create({ model: 'gpt-4o', messages });
  messages.push(c2.choices[0].message);
  return { c1, c2, messages };
}

export async function build(add) {
  const { c1, c2, messages } = await loop(recorded.call);
  const meta = { model: c2.model, total_input_tokens: c1.usage.prompt_tokens + c2.usage.prompt_tokens, total_output_tokens: c1.usage.completion_tokens + c2.usage.completion_tokens };
  add('openai-chat-tool-loop', {
    source: src, built: 'chat.completions.create twice around a get_order call; messages are the list sent, with each choices[0].message appended as the SDK returned it',
    serialized: 'JSON.stringify({final_response: c2.choices[0].message.content, messages, metadata})',
    body: { final_response: c2.choices[0].message.content, messages, metadata: meta },
    expect: { verdict: 'accepted', messages: 5, answer, total_input_tokens: meta.total_input_tokens, total_output_tokens: meta.total_output_tokens },
  });
  add('openai-chat-completion-as-result', {
    source: wire, built: 'chat.completions.create on a completion that answered', serialized: 'JSON.stringify(completion): the completion returned as the handler\'s result',
    body: c2, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('openai-chat-tool-call-completion-as-result', {
    source: wire, built: 'chat.completions.create on a completion that stopped at a tool call (finish_reason "tool_calls", content null)',
    serialized: 'JSON.stringify(completion): the completion returned as the handler\'s result', body: c1,
    expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  const pre = await loop(recorded.preambleCall);
  add('openai-chat-preamble-completion-as-result', {
    source: wire, built: 'chat.completions.create on a completion that wrote a preamble and stopped at a tool call',
    serialized: 'JSON.stringify(completion)', body: pre.c1,
    expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('openai-chat-message-as-final-response', {
    source: wire, built: 'chat.completions.create; the handler returned choices[0].message', serialized: 'JSON.stringify({final_response: completion.choices[0].message})',
    body: { final_response: c2.choices[0].message }, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('openai-chat-tool-call-message-as-final-response', {
    source: wire, built: 'chat.completions.create stopped at a tool call; the handler returned choices[0].message',
    serialized: 'JSON.stringify({final_response: completion.choices[0].message})',
    body: { final_response: c1.choices[0].message }, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('openai-chat-stringified-completion', {
    source: src, built: 'chat.completions.create on a completion that answered', serialized: 'JSON.stringify({final_response: JSON.stringify(completion)})',
    body: { final_response: JSON.stringify(c2) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
  add('openai-chat-pretty-printed-completion', {
    source: src, built: 'chat.completions.create on a completion that answered', serialized: 'JSON.stringify({final_response: JSON.stringify(completion, null, 2)})',
    body: { final_response: JSON.stringify(c2, null, 2) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
  add('openai-chat-usage-as-metadata', {
    source: src, built: 'chat.completions.create on o4-mini, whose completion_tokens include 192 reasoning tokens',
    serialized: 'JSON.stringify({final_response: content, metadata: {model: completion.model, ...completion.usage}})',
    body: await (async () => { const { openai } = client([recorded.reasoning]); const c = await openai.chat.completions.create({ model: 'o4-mini', messages: [{ role: 'user', content: question }] }); return { final_response: c.choices[0].message.content, metadata: { model: c.model, ...c.usage } }; })(),
    expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 131, total_output_tokens: 204 },
  });

  // The SDK's tool runner: runTools() runs the round itself and keeps every message.
  {
    const { openai } = client([recorded.call, recorded.final]);
    const runner = openai.chat.completions.runTools({
      model: 'gpt-4o', messages: [{ role: 'user', content: question }],
      tools: [{ type: 'function', function: { name: 'get_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } }, parse: JSON.parse, function: async () => orderResult } }],
    });
    const content = await runner.finalContent();
    add('openai-chat-run-tools-messages', {
      source: src, built: 'chat.completions.runTools with a get_order function; runner.messages after finalContent()',
      serialized: 'JSON.stringify({final_response: await runner.finalContent(), messages: runner.messages})',
      body: { final_response: content, messages: runner.messages }, expect: { verdict: 'accepted', messages: 4, answer },
    });
  }

  // Streamed: the chunks themselves, and the stream helper's final completion.
  {
    const chunk = (delta, finish = null, extra = {}) => ({ id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1747000000, model: 'gpt-4o-2024-08-06', system_fingerprint: 'fp_07871e2ad8', service_tier: 'default', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra });
    const words = ['Order 4521', ' shipped', ' on May 2.'];
    const sse = [chunk({ role: 'assistant', content: '', refusal: null }), ...words.map((w) => chunk({ content: w })), chunk({}, 'stop'), { data: '[DONE]' }];
    const { openai } = client([{ sse: sse.map((d) => (d.data ? d : { data: d })) }, { sse: sse.map((d) => (d.data ? d : { data: d })) }]);
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }], stream: true });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    add('openai-chat-stream-chunks-as-messages', {
      source: src, built: 'chat.completions.create with stream: true; every ChatCompletionChunk the stream yielded',
      serialized: 'JSON.stringify({final_response: text, messages: chunks})',
      body: { final_response: answer, messages: chunks }, expect: { verdict: 'accepted', messages: 0, answer },
    });
    const s2 = openai.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] });
    const fin = await s2.finalChatCompletion();
    add('openai-chat-stream-deltas-as-messages', {
      source: src, built: 'chat.completions.stream; the delta of every chunk (chunk.choices[0].delta) collected as a message',
      serialized: 'JSON.stringify({final_response: fin.choices[0].message.content, messages: deltas})',
      body: { final_response: fin.choices[0].message.content, messages: chunks.map((c) => c.choices[0].delta) },
      expect: { verdict: 'accepted', messages: 1, answer },
    });
  }

  // A custom (free-form) tool call: GPT-5's custom tools put their call under "custom".
  {
    const { openai } = client([recorded.custom]);
    const messages = [{ role: 'user', content: question }];
    const c = await openai.chat.completions.create({ model: 'gpt-5', messages, tools: [{ type: 'custom', custom: { name: 'sql' } }] });
    messages.push(c.choices[0].message, { role: 'tool', tool_call_id: c.choices[0].message.tool_calls[0].id, content: JSON.stringify([{ status: 'shipped', shipped_at: '2025-05-02' }]) }, { role: 'assistant', content: answer });
    add('openai-chat-custom-tool-call', {
      source: wire, built: 'chat.completions.create with a custom tool: the message\'s tool call is {"type": "custom", "custom": {"name", "input"}}',
      serialized: 'JSON.stringify({final_response, messages})', body: { final_response: answer, messages },
      expect: { verdict: 'accepted', messages: 3, answer },
    });
  }

  // Python: what a handler that called the API over HTTP (requests, httpx: .json() is
  // json.loads) sends when it turns the response's dict into text.
  const py = { ...src, language: 'python' };
  const wireFinal = JSON.parse(JSON.stringify(recorded.final));
  add('openai-chat-python-str-of-message-dict', {
    source: py, built: 'json.loads of the recorded completion (as resp.json() returns it)', serialized: 'str(data["choices"][0]["message"]) as final_response (Python\'s str of a dict)',
    body: { final_response: python('str', wireFinal.choices[0].message) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
  add('openai-chat-python-json-dumps-completion', {
    source: py, built: 'json.loads of the recorded completion', serialized: 'json.dumps(data) as final_response',
    body: { final_response: python('dumps', wireFinal) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
}
