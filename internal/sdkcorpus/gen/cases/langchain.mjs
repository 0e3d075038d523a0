// LangChain (@langchain/core): the message classes themselves, their toJSON (the constructor
// form that LangChain's serializer writes) and mapChatMessagesToStoredMessages (JS's
// counterpart of Python's messages_to_dict).
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import { question, answer, orderArgs, orderResult, systemPrompt } from './replay.mjs';

const src = { sdk: 'langchain', package: '@langchain/core', api: 'messages', language: 'javascript' };

function transcript() {
  return [
    new SystemMessage(systemPrompt),
    new HumanMessage(question),
    new AIMessage({ content: '', tool_calls: [{ id: 'call_L1', name: 'get_order', args: orderArgs, type: 'tool_call' }], id: 'run-1', response_metadata: { model_name: 'gpt-4o-2024-08-06', finish_reason: 'tool_calls' }, usage_metadata: { input_tokens: 82, output_tokens: 17, total_tokens: 99 } }),
    new ToolMessage({ content: JSON.stringify(orderResult), tool_call_id: 'call_L1', name: 'get_order' }),
    new AIMessage({ content: answer, id: 'run-2', response_metadata: { model_name: 'gpt-4o-2024-08-06', finish_reason: 'stop' }, usage_metadata: { input_tokens: 131, output_tokens: 212, total_tokens: 343, output_token_details: { reasoning: 200 } } }),
  ];
}

export async function build(add) {
  const msgs = transcript();
  const last = msgs.at(-1);
  add('langchain-messages-to-json', {
    source: src, built: 'SystemMessage, HumanMessage, AIMessage with tool_calls, ToolMessage, AIMessage', serialized: 'JSON.stringify({final_response: last.content, messages}): each message\'s toJSON(), {"lc": 1, "type": "constructor", ...}',
    body: { final_response: last.content, messages: msgs }, expect: { verdict: 'accepted', messages: 0, answer },
  });
  add('langchain-stored-messages', {
    source: src, built: 'the same messages through mapChatMessagesToStoredMessages', serialized: 'JSON.stringify({final_response: last.content, messages: mapChatMessagesToStoredMessages(messages)})',
    body: { final_response: last.content, messages: mapChatMessagesToStoredMessages(msgs) }, expect: { verdict: 'accepted', messages: 0, answer },
  });
  add('langchain-ai-message-as-final-response', {
    source: src, built: 'the last AIMessage', serialized: 'JSON.stringify({final_response: message}): its toJSON()',
    body: { final_response: last }, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('langchain-usage-metadata-as-metadata', {
    source: src, built: 'the last AIMessage\'s usage_metadata (output_tokens include the 200 reasoning tokens)', serialized: 'JSON.stringify({final_response: last.content, metadata: {model: ..., ...last.usage_metadata}})',
    body: { final_response: last.content, metadata: { model: last.response_metadata.model_name, ...last.usage_metadata } }, expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 131, total_output_tokens: 212 },
  });
  // Streaming: chunks concatenated with concat(), as a streamed agent's final message is built.
  const chunk = ['Order 4521', ' shipped', ' on May 2.'].map((t) => new AIMessageChunk({ content: t, id: 'run-3' })).reduce((a, b) => a.concat(b));
  add('langchain-ai-message-chunk-in-messages', {
    source: src, built: 'AIMessageChunk objects of a stream joined with concat()', serialized: 'JSON.stringify({final_response: chunk.content, messages: [human, chunk]})',
    body: { final_response: chunk.content, messages: [new HumanMessage(question), chunk] }, expect: { verdict: 'accepted', messages: 0, answer },
  });
}
