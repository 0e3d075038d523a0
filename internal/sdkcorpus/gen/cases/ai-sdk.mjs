// The AI SDK (ai): generateText over the SDK's own MockLanguageModelV3 (ai/test), with a
// tool the SDK runs, so that the result, its steps and response.messages are the SDK's own.
import { generateText, tool, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { question, answer, preamble, orderResult } from './replay.mjs';

const src = { sdk: 'ai-sdk', package: 'ai', api: 'generateText', language: 'javascript' };

const usage = (i, o, r = 0) => ({ inputTokens: { total: i, noCache: i, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: o, text: o - r, reasoning: r } });
function model(turns) {
  let n = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const t = turns[n++];
      return { warnings: [], response: { id: `resp_${n}`, timestamp: new Date(Date.UTC(2025, 4, 2)), modelId: 'mock-model-id' }, ...t };
    },
  });
}
const callTurn = (content) => ({ content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(50, 20) });
const toolCall = { type: 'tool-call', toolCallId: 'call_A1', toolName: 'getOrder', input: JSON.stringify({ orderId: '4521' }) };
const finalTurn = { content: [{ type: 'reasoning', text: 'The tool says it shipped on 2025-05-02.' }, { type: 'text', text: answer }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(90, 140, 128) };
const tools = { getOrder: tool({ description: 'Look an order up', inputSchema: z.object({ orderId: z.string() }), execute: async () => orderResult }) };

async function generate(turns, steps) {
  return generateText({ model: model(turns), prompt: question, tools, stopWhen: stepCountIs(steps), _internal: { generateId: () => 'gen-1' } });
}

export async function build(add) {
  const r = await generate([callTurn([toolCall]), finalTurn], 3);
  add('ai-sdk-response-messages', {
    source: src, built: 'generateText through a getOrder call; result.response.messages (ModelMessage: tool-call and tool-result parts)',
    serialized: 'JSON.stringify({final_response: result.text, messages: [{role: "user", content: prompt}, ...result.response.messages]})',
    body: { final_response: r.text, messages: [{ role: 'user', content: question }, ...r.response.messages] }, expect: { verdict: 'accepted', messages: 4, answer },
  });
  add('ai-sdk-steps-as-messages', {
    source: src, built: 'generateText through a getOrder call; result.steps (StepResult objects)', serialized: 'JSON.stringify({final_response: result.text, messages: result.steps})',
    body: { final_response: r.text, messages: r.steps }, expect: { verdict: 'accepted', messages: 0, answer },
  });
  add('ai-sdk-total-usage-as-metadata', {
    source: src, built: 'generateText through a getOrder call; result.totalUsage (outputTokens include 128 reasoning tokens)', serialized: 'JSON.stringify({final_response: result.text, metadata: {model: "mock-model-id", ...result.totalUsage}})',
    body: { final_response: r.text, metadata: { model: r.response.modelId, ...r.totalUsage } }, expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 140, total_output_tokens: 160 },
  });
  add('ai-sdk-result-as-result', {
    source: src, built: 'generateText through a getOrder call; the GenerateTextResult itself', serialized: 'JSON.stringify(result) as the handler\'s result',
    body: r, expect: { verdict: 'rejected', messages: 0, answer },
  });
  // Stopped at the tool call with a preamble: stepCountIs(1) ends the run after the first step.
  const rp = await generate([callTurn([{ type: 'text', text: preamble }, toolCall])], 1);
  add('ai-sdk-preamble-step-messages', {
    source: src, built: 'generateText with stopWhen stepCountIs(1): the step wrote a preamble and called getOrder; result.text is the preamble',
    serialized: 'JSON.stringify({final_response: result.text, messages: result.response.messages})',
    body: { final_response: rp.text, messages: rp.response.messages }, expect: { verdict: 'accepted', messages: 2, answer: null, final_response_is_answer: false },
  });
}
