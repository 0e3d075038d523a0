// LlamaIndex.TS (@llamaindex/workflow's agent, @llamaindex/core's tools, @llamaindex/openai's
// OpenAI LLM over its own openai client, which parses recorded chat completion streams): the
// agent workflow's result (a stop event) and its memory's ChatMessages. The memory gives each
// message a random id and the time it was made: the corpus replaces them with fixed ones, so
// that it is reproducible.
//
// Python's ChatMessage has no JavaScript twin (LlamaIndex.TS's is another shape): its case is
// built from the library's own types, read in run-llama/llama_index at 0485fc9e
// (llama-index-core/llama_index/core/base/llms/types.py: ChatMessage {role, additional_kwargs,
// blocks}, its additional_kwargs serializer model_dump-ing the OpenAI SDK's tool call objects
// the OpenAI LLM keeps there), the tool message as FunctionAgent writes it (role "tool",
// content str(tool_output.content), additional_kwargs {"tool_call_id"}), written by Python's
// own json.dumps and str() (gen/pyserialize.py).
import { OpenAI } from '@llamaindex/openai';
import { agent } from '@llamaindex/workflow';
import { tool } from '@llamaindex/core/tools';
import { z } from 'zod';
import { replay, python, question, answer, orderArgs, orderResult } from './replay.mjs';

const src = { sdk: 'llamaindex', package: '@llamaindex/workflow', api: 'agent().run', language: 'javascript' };

const chunk = (delta, finish) => ({ id: 'chatcmpl-L1', object: 'chat.completion.chunk', created: 1747000000, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish ?? null }] });
const recorded = [
  { sse: [
    { data: chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_L1', type: 'function', function: { name: 'get_order', arguments: '' } }] }) },
    { data: chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(orderArgs) } }] }) },
    { data: chunk({}, 'tool_calls') }, { data: '[DONE]' }] },
  { sse: [{ data: chunk({ role: 'assistant', content: answer }) }, { data: chunk({}, 'stop') }, { data: '[DONE]' }] },
];

// fixed is the JSON of v with the memory's message ids and times replaced by fixed ones.
function fixed(v) {
  let n = 0;
  return JSON.parse(JSON.stringify(v), function (k, x) {
    if (x && typeof x === 'object' && !Array.isArray(x) && typeof x.id === 'string' && typeof x.createdAt === 'string') {
      n++;
      return { ...x, id: `msg-${n}`, createdAt: '2025-05-02T12:00:00.000Z' };
    }
    return x;
  });
}

export async function build(add) {
  const llm = new OpenAI({ model: 'gpt-4.1', apiKey: 'test-key', additionalSessionOptions: { fetch: replay(recorded) } });
  const getOrder = tool({ name: 'get_order', description: 'Look an order up', parameters: z.object({ order_id: z.string() }), execute: async () => orderResult });
  const run = await agent({ llm, tools: [getOrder] }).run(question);
  const messages = await run.data.state.memory.get();

  add('llamaindex-agent-memory-messages', {
    source: src, built: 'agent({llm, tools: [get_order]}).run(question); the messages are its memory\'s ChatMessages (await result.data.state.memory.get()): the call in options.toolCall, the tool\'s result in a user message\'s options.toolResult',
    serialized: 'JSON.stringify({final_response: result.data.result, messages})',
    body: { final_response: run.data.result, messages }, expect: { verdict: 'accepted', messages: 4, answer },
  });
  add('llamaindex-stop-event-as-result', {
    source: src, built: 'the agent workflow\'s result: its stop event, {type: "llamaindex-stop", data: {message, result, state}}',
    serialized: 'JSON.stringify(result) as the handler\'s result',
    body: fixed(run), expect: { verdict: 'rejected', messages: 0, answer },
  });

  const text = (t) => [{ block_type: 'text', text: t }];
  const history = [
    { role: 'user', additional_kwargs: {}, blocks: text(question) },
    { role: 'assistant', additional_kwargs: { tool_calls: [{ id: 'call_P1', function: { arguments: JSON.stringify(orderArgs), name: 'get_order' }, type: 'function' }] }, blocks: [] },
    { role: 'tool', additional_kwargs: { tool_call_id: 'call_P1' }, blocks: text(python('str', orderResult)) },
    { role: 'assistant', additional_kwargs: {}, blocks: text(answer) },
  ];
  add('llamaindex-python-chat-messages', {
    source: { sdk: 'llamaindex', package: 'llama-index-core', version: 'source at 0485fc9e', api: 'FunctionAgent.run', language: 'python' },
    built: 'built from llama-index-core\'s Python types (its ChatMessage has no JavaScript twin): a FunctionAgent run\'s chat history around a get_order call, the OpenAI LLM\'s tool calls in additional_kwargs',
    serialized: 'json.dumps({"final_response": str(agent_output), "messages": [m.model_dump() for m in await memory.aget()]})',
    body: python('dumps', { final_response: answer, messages: history }), expect: { verdict: 'accepted', messages: 4, answer },
  });
}
