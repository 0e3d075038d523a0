// CrewAI (crewai, Python only: there is no JavaScript package to run). Its result objects are
// built here from the library's own Python types, read at crewAIInc/crewAI f4731f50 (version
// 1.15.17): CrewOutput (lib/crewai/src/crewai/crews/crew_output.py), TaskOutput
// (tasks/task_output.py, its summary as its set_summary validator makes it), UsageMetrics
// (types/usage_metrics.py) and LiteAgentOutput (lite_agent_output.py, Agent.kickoff()'s), their
// members in the order model_dump writes them, and written by Python's own json.dumps
// (gen/pyserialize.py; its dumps-compact writes the bytes of model_dump_json()).
import { python, question, answer } from './replay.mjs';

const src = { sdk: 'crewai', package: 'crewai', version: '1.15.17', api: 'Crew.kickoff', language: 'python' };
const fromTypes = 'built from crewai\'s Python types (no JavaScript twin exists): ';

const description = question;
const taskMessages = [
  { role: 'system', content: 'You are Support agent. You look orders up for customers.\nYour personal goal is: Answer questions about orders' },
  { role: 'user', content: `\nCurrent Task: ${description}\n\nThis is the expected criteria for your final answer: Where the order is\nyou MUST return the actual complete content as the final answer, not a summary.` },
  { role: 'assistant', content: `Thought: I now know the final answer\nFinal Answer: ${answer}` },
];
const taskOutput = {
  description, name: null, expected_output: 'Where the order is',
  summary: `${description.split(' ').slice(0, 10).join(' ')}...`,
  raw: answer, pydantic: null, json_dict: null, agent: 'Support agent', output_format: 'raw', messages: taskMessages, tool_failures: [],
};
const tokenUsage = { total_tokens: 264, prompt_tokens: 230, cached_prompt_tokens: 0, completion_tokens: 34, reasoning_tokens: 0, cache_creation_tokens: 0, successful_requests: 2 };
const crewOutput = { raw: answer, pydantic: null, json_dict: null, tasks_output: [taskOutput], token_usage: tokenUsage };
const agentMessages = [
  { role: 'system', content: 'You are Support agent. You look orders up for customers.\nYour personal goal is: Answer questions about orders' },
  { role: 'user', content: question },
  { role: 'assistant', content: answer },
];
const liteAgentOutput = {
  raw: answer, pydantic: null, agent_role: 'Support agent', usage_metrics: tokenUsage, messages: agentMessages,
  tool_failures: [], plan: null, todos: [], replan_count: 0, last_replan_reason: null,
};

export async function build(add) {
  add('crewai-crew-output-as-result', {
    source: src, built: fromTypes + 'the CrewOutput of Crew.kickoff() for one task (raw, pydantic, json_dict, tasks_output, token_usage)',
    serialized: 'json.dumps(crew_output.model_dump()) as the handler\'s result',
    body: python('dumps', crewOutput), expect: { verdict: 'rejected', messages: 0, answer },
  });
  add('crewai-tasks-output-as-messages', {
    source: src, built: fromTypes + 'the CrewOutput\'s tasks_output, TaskOutput objects (description, raw, agent, messages)',
    serialized: 'json.dumps({"final_response": crew_output.raw, "messages": [t.model_dump() for t in crew_output.tasks_output]})',
    body: python('dumps', { final_response: crewOutput.raw, messages: crewOutput.tasks_output }), expect: { verdict: 'accepted', messages: 0, answer },
  });
  add('crewai-token-usage-as-metadata', {
    source: src, built: fromTypes + 'the CrewOutput\'s token_usage, a UsageMetrics of an OpenAI model\'s usage (prompt_tokens counts the cached prompt, completion_tokens the reasoning)',
    serialized: 'json.dumps({"final_response": crew_output.raw, "metadata": {"token_usage": crew_output.token_usage.model_dump()}})',
    body: python('dumps', { final_response: crewOutput.raw, metadata: { token_usage: tokenUsage } }),
    expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 230, total_output_tokens: 34 },
  });
  add('crewai-usage-metrics-as-metadata', {
    source: src, built: fromTypes + 'the CrewOutput\'s token_usage, a UsageMetrics, as metadata itself',
    serialized: 'json.dumps({"final_response": crew_output.raw, "metadata": crew_output.token_usage.model_dump()})',
    body: python('dumps', { final_response: crewOutput.raw, metadata: tokenUsage }),
    expect: { verdict: 'accepted', messages: 0, answer, total_input_tokens: 230, total_output_tokens: 34 },
  });
  add('crewai-crew-output-json-as-answer', {
    source: src, built: fromTypes + 'the CrewOutput of Crew.kickoff() for one task (raw, pydantic, json_dict, tasks_output, token_usage)',
    serialized: 'json.dumps({"final_response": crew_output.model_dump_json()})',
    body: python('dumps', { final_response: python('dumps-compact', crewOutput) }),
    expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
  add('crewai-lite-agent-output-json-as-answer', {
    source: { ...src, api: 'Agent.kickoff' },
    built: fromTypes + 'the LiteAgentOutput of Agent.kickoff() (raw, pydantic, agent_role, usage_metrics, messages, tool_failures, plan, todos, replan_count, last_replan_reason)',
    serialized: 'json.dumps({"final_response": result.model_dump_json()})',
    body: python('dumps', { final_response: python('dumps-compact', liteAgentOutput) }),
    expect: { verdict: 'accepted', messages: 0, answer, final_response_is_answer: false },
  });
}
