// Anthropic Messages: the @anthropic-ai/sdk client parsing recorded Messages API responses.
import Anthropic from '@anthropic-ai/sdk';
import { replay, question, answer, preamble, orderArgs, orderResult, systemPrompt, python } from './replay.mjs';

const src = { sdk: 'anthropic', package: '@anthropic-ai/sdk', api: 'messages', language: 'javascript' };
const wire = { ...src, language: 'any' };

const usage = (i, o, cacheRead = 0) => ({ input_tokens: i, cache_creation_input_tokens: 0, cache_read_input_tokens: cacheRead, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: o, service_tier: 'standard' });
const message = (id, content, stop, u) => ({ id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: stop, stop_sequence: null, usage: u });
const toolUse = { type: 'tool_use', id: 'toolu_01A', name: 'get_order', input: orderArgs };
const recorded = {
  call: message('msg_01', [toolUse], 'tool_use', usage(420, 55)),
  preambleCall: message('msg_02', [{ type: 'text', text: preamble }, toolUse], 'tool_use', usage(420, 71)),
  final: message('msg_03', [{ type: 'text', text: answer }], 'end_turn', usage(512, 14)),
  thinking: message('msg_04', [{ type: 'thinking', thinking: 'The order tool says shipped on 2025-05-02.', signature: 'EqQBCkYIBxgCKkA' }, { type: 'text', text: answer }], 'end_turn', usage(12, 240, 500)),
};

function client(bodies) {
  return new Anthropic({ apiKey: 'sk-ant-test', fetch: replay(bodies), maxRetries: 0 });
}

export async function build(add) {
  const a = client([recorded.call, recorded.final, recorded.preambleCall, recorded.thinking]);
  const params = { model: 'claude-sonnet-4-5', max_tokens: 1024, system: systemPrompt, tools: [{ name: 'get_order', input_schema: { type: 'object', properties: { order_id: { type: 'string' } } } }] };
  const messages = [{ role: 'user', content: question }];
  const m1 = await a.messages.create({ ...params, messages });
  messages.push({ role: 'assistant', content: m1.content });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: JSON.stringify(orderResult) }] });
  const m2 = await a.messages.create({ ...params, messages });
  messages.push({ role: 'assistant', content: m2.content });
  const mp = await a.messages.create({ ...params, messages: [{ role: 'user', content: question }] });
  const mt = await a.messages.create({ ...params, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: question }] });

  add('anthropic-message-as-result', {
    source: wire, built: 'messages.create on a message that answered', serialized: 'JSON.stringify(message) as the handler\'s result',
    body: m2, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('anthropic-tool-use-message-as-result', {
    source: wire, built: 'messages.create on a message that stopped at tool_use', serialized: 'JSON.stringify(message)',
    body: m1, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('anthropic-preamble-tool-use-message-as-result', {
    source: wire, built: 'messages.create on a message with a text preamble, then tool_use (stop_reason "tool_use")', serialized: 'JSON.stringify(message)',
    body: mp, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('anthropic-conversation-as-messages', {
    source: wire, built: 'the messages list sent to the second messages.create, with the answer appended: content blocks (tool_use, tool_result)',
    serialized: 'JSON.stringify({final_response: message.content[0].text, messages})',
    body: { final_response: m2.content[0].text, messages }, expect: { verdict: 'accepted', messages: 4, answer },
  });
  add('anthropic-content-as-final-response', {
    source: wire, built: 'messages.create with extended thinking: content is a thinking block, then text', serialized: 'JSON.stringify({final_response: message.content})',
    body: { final_response: mt.content }, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('anthropic-usage-as-metadata', {
    source: src, built: 'messages.create with extended thinking and a cache hit: input_tokens 12 excludes the 500 cache_read_input_tokens; output_tokens include thinking',
    serialized: 'JSON.stringify({final_response: text, metadata: {model: message.model, ...message.usage}})',
    body: { final_response: answer, metadata: { model: mt.model, ...mt.usage } }, expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 512, total_output_tokens: 240 },
  });
  {
    const ev = (type, extra) => ({ event: type, data: { type, ...extra } });
    const sse = [
      ev('message_start', { message: { ...recorded.final, content: [], stop_reason: null, usage: usage(512, 1) } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Order 4521 shipped' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' on May 2.' } }),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 14 } }),
      ev('message_stop', {}),
    ];
    const s = client([{ sse }]);
    const stream = await s.messages.create({ ...params, messages: [{ role: 'user', content: question }], stream: true });
    const events = [];
    for await (const e of stream) events.push(e);
    add('anthropic-stream-events-as-messages', {
      source: src, built: 'messages.create with stream: true; every event the stream yielded', serialized: 'JSON.stringify({final_response: text, messages: events})',
      body: { final_response: answer, messages: events }, expect: { verdict: 'accepted', messages: 0, answer },
    });
  }
  const py = { ...src, language: 'python' };
  add('anthropic-python-str-of-content', {
    source: py, built: 'json.loads of the recorded message (as resp.json() returns it)', serialized: 'str(data["content"]) as final_response',
    body: { final_response: python('str', JSON.parse(JSON.stringify(recorded.final)).content) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
}
