// The OpenAI Agents SDK (@openai/agents): run() of an agent whose model is the SDK's own
// OpenAIResponsesModel over an openai client that replays recorded Responses API responses.
import OpenAI from 'openai';
import { Agent, run, tool, setTracingDisabled, OpenAIResponsesModel } from '@openai/agents';
import { z } from 'zod';
import { replay, question, answer, orderResult } from './replay.mjs';
import { recorded, response, messageItem, usage } from './openai-responses.mjs';

const src = { sdk: 'openai-agents', package: '@openai/agents', api: 'run', language: 'javascript' };

setTracingDisabled(true);

const getOrder = tool({
  name: 'get_order', description: 'Look an order up by its id', parameters: z.object({ order_id: z.string() }),
  execute: async () => JSON.stringify(orderResult),
});

async function runAgent(bodies, opts = {}) {
  const client = new OpenAI({ apiKey: 'sk-test', fetch: replay(bodies), maxRetries: 0 });
  const agent = new Agent({ name: 'Support', instructions: 'Help with orders.', model: new OpenAIResponsesModel(client, 'gpt-4.1'), tools: [getOrder], ...opts });
  return run(agent, question);
}

export async function build(add) {
  const r = await runAgent([recorded.call, recorded.final]);
  add('agents-history-as-messages', {
    source: src, built: 'run() through a get_order call; result.history is the run as the SDK\'s input items (camelCase callId, providerData)',
    serialized: 'JSON.stringify({final_response: result.finalOutput, messages: result.history})',
    body: { final_response: r.finalOutput, messages: r.history }, expect: { verdict: 'accepted', messages: 2, answer },
  });
  add('agents-new-items-as-messages', {
    source: src, built: 'run() through a get_order call; result.newItems are RunItem objects (RunToolCallItem, RunToolCallOutputItem, RunMessageOutputItem)',
    serialized: 'JSON.stringify({final_response: result.finalOutput, messages: result.newItems}): each item\'s toJSON()',
    body: { final_response: r.finalOutput, messages: r.newItems }, expect: { verdict: 'accepted', messages: 0, answer },
  });
  add('agents-new-items-under-their-name', {
    source: src, built: 'run() through a get_order call', serialized: 'JSON.stringify({final_response: result.finalOutput, newItems: result.newItems})',
    body: { final_response: r.finalOutput, newItems: r.newItems }, expect: { verdict: 'accepted', messages: 0, answer },
  });
  add('agents-run-result-as-result', {
    source: src, built: 'run() through a get_order call; the RunResult itself', serialized: 'JSON.stringify(result): its state, as RunResult serializes',
    body: JSON.stringify(r, (k, v) => (k === 'trace' || k === 'currentAgentSpan' ? undefined : v)),
    expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('agents-run-usage-as-metadata', {
    source: src, built: 'run() through a get_order call; result.state.usage, the run\'s Usage summed over its model calls (camelCase)',
    serialized: 'JSON.stringify({final_response: result.finalOutput, metadata: {model: "gpt-4.1", usage: result.state.usage}})',
    body: { final_response: r.finalOutput, metadata: { model: 'gpt-4.1', usage: r.state.usage } },
    expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 200, total_output_tokens: 29 },
  });
  // Structured output: finalOutput is the parsed object.
  const structured = response('resp_s', [messageItem('msg_s', JSON.stringify(orderResult))], usage(90, 20));
  const rs = await runAgent([structured], { tools: [], outputType: z.object({ order_id: z.string(), status: z.string(), shipped_at: z.string() }) });
  add('agents-structured-final-output', {
    source: src, built: 'run() of an agent with an outputType: result.finalOutput is an object', serialized: 'JSON.stringify({final_response: result.finalOutput})',
    body: { final_response: rs.finalOutput }, expect: { verdict: 'rejected', messages: 0, answer: null },
  });
  // Stopped at a tool call: the tool's output is the final output.
  const rt = await runAgent([recorded.call], { toolUseBehavior: 'stop_on_first_tool' });
}
