// Strands Agents (@strands-agents/sdk): an Agent with a get_order tool, run on the SDK's
// OpenAIModel over the openai client, which parses recorded chat completion streams; its
// Message objects and AgentResult written by their toJSON(). A Message's trackingId is a
// random UUID: the corpus replaces it with one fixed per message, so that it is reproducible
// (the key passes through the record as sent either way).
import OpenAI from 'openai';
import { Agent, tool } from '@strands-agents/sdk';
import { OpenAIModel } from '@strands-agents/sdk/models/openai';
import { z } from 'zod';
import { replay, question, answer, orderArgs, orderResult } from './replay.mjs';

const src = { sdk: 'strands', package: '@strands-agents/sdk', api: 'Agent.invoke', language: 'javascript' };

const chunk = (delta, finish) => ({ id: 'chatcmpl-S1', object: 'chat.completion.chunk', created: 1747000000, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish ?? null }] });
const usage = (p, c) => ({ id: 'chatcmpl-S1', object: 'chat.completion.chunk', created: 1747000000, model: 'gpt-4.1', choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } });
const recorded = [
  { sse: [
    { data: chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_S1', type: 'function', function: { name: 'get_order', arguments: '' } }] }) },
    { data: chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(orderArgs) } }] }) },
    { data: chunk({}, 'tool_calls') }, { data: usage(90, 22) }, { data: '[DONE]' }] },
  { sse: [{ data: chunk({ role: 'assistant', content: answer }) }, { data: chunk({}, 'stop') }, { data: usage(140, 12) }, { data: '[DONE]' }] },
];

// fixed is the JSON of a Message with its trackingId replaced by msg-N.
function fixed(messages) {
  return JSON.parse(JSON.stringify(messages)).map((m, i) => ('trackingId' in m ? { ...m, trackingId: `msg-${i + 1}` } : m));
}

export async function build(add) {
  const model = new OpenAIModel({ api: 'chat', modelId: 'gpt-4.1', client: new OpenAI({ apiKey: 'test-key', fetch: replay(recorded) }) });
  const getOrder = tool({ name: 'get_order', description: 'Look an order up', inputSchema: z.object({ order_id: z.string() }), callback: async () => orderResult });
  const agent = new Agent({ model, tools: [getOrder], printer: false });
  const result = await agent.invoke(question);
  const messages = fixed(agent.messages);

  add('strands-agent-messages', {
    source: src, built: 'Agent.invoke with a get_order tool; agent.messages are Message objects (Bedrock Converse content blocks: text, toolUse, and the toolResult in a user message)',
    serialized: 'JSON.stringify({final_response: String(result), messages: agent.messages})',
    body: { final_response: String(result), messages }, expect: { verdict: 'accepted', messages: 4, answer },
  });
  add('strands-agent-result-as-result', {
    source: src, built: 'the AgentResult of Agent.invoke', serialized: 'JSON.stringify(result) as the handler\'s result: its toJSON(), {type: "agentResult", stopReason, lastMessage}',
    body: { ...JSON.parse(JSON.stringify(result)), lastMessage: messages.at(-1) }, expect: { verdict: 'rejected', messages: 0, answer },
  });
  const total = result.metrics.accumulatedUsage;
  add('strands-accumulated-usage-as-metadata', {
    source: src, built: 'the AgentResult\'s metrics.accumulatedUsage, the run\'s two model calls summed',
    serialized: 'JSON.stringify({final_response: String(result), metadata: {accumulatedUsage: result.metrics.accumulatedUsage}})',
    body: { final_response: String(result), metadata: { accumulatedUsage: total } },
    expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: total.inputTokens, total_output_tokens: total.outputTokens },
  });
}
