// Mistral: the @mistralai/mistralai client parsing recorded chat completions into its own
// (camelCase) objects, and the SDK's ToJSON helpers writing the wire form back.
import { Mistral } from '@mistralai/mistralai';
import { HTTPClient } from '@mistralai/mistralai/lib/http.js';
import { assistantMessageToJSON } from '@mistralai/mistralai/models/components';
import { replay, question, answer, orderArgs, orderResult } from './replay.mjs';

const src = { sdk: 'mistral', package: '@mistralai/mistralai', api: 'chat.complete', language: 'javascript' };

const completion = (id, message, finish, p, c) => ({ id, object: 'chat.completion', model: 'mistral-large-latest', created: 1747000000, usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c }, choices: [{ index: 0, message: { role: 'assistant', prefix: false, ...message }, finish_reason: finish }] });
const recorded = {
  call: completion('cmpl-1', { content: '', tool_calls: [{ id: 'Tq8Lx3Vb1', type: 'function', function: { name: 'get_order', arguments: JSON.stringify(orderArgs) }, index: 0 }] }, 'tool_calls', 90, 22),
  final: completion('cmpl-2', { content: answer, tool_calls: null }, 'stop', 140, 12),
};

export async function build(add) {
  const mistral = new Mistral({ apiKey: 'test-key', httpClient: new HTTPClient({ fetcher: replay([recorded.call, recorded.final]) }) });
  const messages = [{ role: 'user', content: question }];
  const c1 = await mistral.chat.complete({ model: 'mistral-large-latest', messages });
  const m1 = c1.choices[0].message;
  const toolMsg = { role: 'tool', toolCallId: m1.toolCalls[0].id, name: 'get_order', content: JSON.stringify(orderResult) };
  messages.push({ ...m1, role: 'assistant' }, toolMsg);
  const c2 = await mistral.chat.complete({ model: 'mistral-large-latest', messages });
  messages.push({ ...c2.choices[0].message, role: 'assistant' });

  add('mistral-response-as-result', {
    source: src, built: 'chat.complete on a completion that answered: the SDK\'s ChatCompletionResponse (camelCase: finishReason, toolCalls, promptTokens)',
    serialized: 'JSON.stringify(response) as the handler\'s result', body: c2, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('mistral-sdk-messages', {
    source: src, built: 'chat.complete twice around a get_order call; messages are the SDK\'s objects (toolCalls, toolCallId)',
    serialized: 'JSON.stringify({final_response: response.choices[0].message.content, messages})',
    body: { final_response: c2.choices[0].message.content, messages }, expect: { verdict: 'accepted', messages: 4, answer },
  });
  add('mistral-wire-messages', {
    source: { ...src, language: 'any' }, built: 'the assistant messages written back by the SDK\'s assistantMessageToJSON (the wire form, snake_case tool_calls)',
    serialized: 'JSON.stringify({final_response, messages: [user, JSON.parse(assistantMessageToJSON(m1)), tool, JSON.parse(assistantMessageToJSON(m2))]})',
    body: { final_response: answer, messages: [messages[0], JSON.parse(assistantMessageToJSON(m1)), { role: 'tool', tool_call_id: m1.toolCalls[0].id, name: 'get_order', content: JSON.stringify(orderResult) }, JSON.parse(assistantMessageToJSON(c2.choices[0].message))] },
    expect: { verdict: 'accepted', messages: 4, answer },
  });
}
