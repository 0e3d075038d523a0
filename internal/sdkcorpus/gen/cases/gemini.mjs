// Gemini: the @google/genai client (models.generateContent and its chats) parsing recorded
// generateContent responses into GenerateContentResponse objects.
import { GoogleGenAI } from '@google/genai';
import { replay, question, answer, preamble, orderArgs, orderResult, python } from './replay.mjs';

const src = { sdk: 'gemini', package: '@google/genai', api: 'generateContent', language: 'javascript' };

const usageMetadata = (p, c, t = 0) => ({ promptTokenCount: p, candidatesTokenCount: c, ...(t ? { thoughtsTokenCount: t } : {}), totalTokenCount: p + c + t, promptTokensDetails: [{ modality: 'TEXT', tokenCount: p }] });
const resp = (parts, u, id) => ({ candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: u, modelVersion: 'gemini-2.5-flash', responseId: id });
const call = { functionCall: { name: 'get_order', args: orderArgs } };
const recorded = {
  call: resp([call], usageMetadata(60, 15), 'r1'),
  preambleCall: resp([{ text: preamble }, call], usageMetadata(60, 24), 'r2'),
  final: resp([{ text: answer }], usageMetadata(95, 10), 'r3'),
  thinking: resp([{ text: answer }], usageMetadata(95, 10, 480), 'r4'),
};

async function withFetch(bodies, f) {
  const saved = globalThis.fetch;
  globalThis.fetch = replay(bodies);
  try {
    return await f(new GoogleGenAI({ apiKey: 'test-key' }));
  } finally {
    globalThis.fetch = saved;
  }
}

export async function build(add) {
  const tools = [{ functionDeclarations: [{ name: 'get_order', parameters: { type: 'OBJECT', properties: { order_id: { type: 'STRING' } } } }] }];
  const { r1, r2, history } = await withFetch([recorded.call, recorded.final], async (ai) => {
    const chat = ai.chats.create({ model: 'gemini-2.5-flash', config: { tools } });
    const r1 = await chat.sendMessage({ message: question });
    const r2 = await chat.sendMessage({ message: [{ functionResponse: { name: 'get_order', response: orderResult } }] });
    return { r1, r2, history: chat.getHistory() };
  });
  const [rp, rt] = await withFetch([recorded.preambleCall, recorded.thinking], async (ai) => [
    await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: question, config: { tools } }),
    await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: question }),
  ]);

  add('gemini-response-as-result', {
    source: src, built: 'chats.sendMessage on a response that answered: a GenerateContentResponse (with sdkHttpResponse)', serialized: 'JSON.stringify(response) as the handler\'s result',
    body: r2, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('gemini-function-call-response-as-result', {
    source: src, built: 'chats.sendMessage on a response that stopped at a functionCall part', serialized: 'JSON.stringify(response)',
    body: r1, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('gemini-preamble-response-as-result', {
    source: src, built: 'models.generateContent on a response with a text part, then a functionCall part', serialized: 'JSON.stringify(response)',
    body: rp, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('gemini-text-of-function-call-response', {
    source: src, built: 'chats.sendMessage stopped at a functionCall: response.text is undefined, so JSON.stringify leaves final_response out',
    serialized: 'JSON.stringify({final_response: response.text, metadata: {model: response.modelVersion}})',
    body: { final_response: r1.text, metadata: { model: r1.modelVersion } }, expect: { verdict: 'rejected', messages: 0, answer: null, stopped_at_tool_call: true },
  });
  add('gemini-chat-history-as-messages', {
    source: src, built: 'chats.create, two sendMessage calls around a functionCall; chat.getHistory() is a list of Content',
    serialized: 'JSON.stringify({final_response: response.text, messages: chat.getHistory()})',
    body: { final_response: r2.text, messages: history }, expect: { verdict: 'accepted', messages: 2, answer },
  });
  add('gemini-usage-metadata-with-thoughts', {
    source: src, built: 'models.generateContent with thinking: candidatesTokenCount 10 leaves out thoughtsTokenCount 480',
    serialized: 'JSON.stringify({final_response: response.text, metadata: {model: response.modelVersion, ...response.usageMetadata}})',
    body: { final_response: rt.text, metadata: { model: rt.modelVersion, ...rt.usageMetadata } }, expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 95, total_output_tokens: 490 },
  });
  add('gemini-candidate-content-as-final-response', {
    source: src, built: 'chats.sendMessage on a response that answered', serialized: 'JSON.stringify({final_response: response.candidates[0].content})',
    body: { final_response: r2.candidates[0].content }, expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('gemini-python-str-of-response-dict', {
    source: { ...src, language: 'python' }, built: 'json.loads of the recorded generateContent response (REST, camelCase as the API sends it)', serialized: 'str(data) as final_response',
    body: { final_response: python('str', recorded.final) }, expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
}
