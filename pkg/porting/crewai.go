package porting

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// crewAI is CrewAI (crewai, Python only). Crew.kickoff() returns a CrewOutput, {"raw",
// "pydantic", "json_dict", "tasks_output": [TaskOutput], "token_usage": UsageMetrics}; a
// TaskOutput is {"description", "name", "expected_output", "summary", "raw", "pydantic",
// "json_dict", "agent", "output_format", "messages"}, its messages the task's chat messages
// ({"role", "content"}, the platform's shape already). UsageMetrics is {"total_tokens",
// "prompt_tokens", "cached_prompt_tokens", "completion_tokens", "reasoning_tokens",
// "cache_creation_tokens", "successful_requests"}: prompt_tokens is the billed prompt, the
// cached part (cached_prompt_tokens) included; completion_tokens is the output count the
// model's provider reports, which counts the reasoning for some providers and not for others.
// Agent.kickoff() returns a LiteAgentOutput, {"raw", "pydantic", "agent_role", "usage_metrics",
// "messages"}.
var crewAI = register(source{
	name:      "CrewAI",
	responses: []responseShape{{note: crewOutputJSON}},
	factKeys:  []string{"raw", "agent_role", "tasks_output", "json_dict", "pydantic", "token_usage"},
	results: []resultShape{
		{rank: 7, hint: liteAgentResult}, {rank: 8, hint: crewOutputResult},
		{rank: 17, hint: liteAgentTranscript}, // its "raw" holds no text, else liteAgentResult named it
	},
	metaNames: []metaName{
		{key: "total_input_tokens", name: "prompt_tokens", whose: "CrewAI's", in: crewUsageIn, beside: crewUsageKeys},
		{key: "total_output_tokens", name: "completion_tokens", whose: "CrewAI's", in: crewUsageIn, beside: crewUsageKeys},
	},
	messages: []messageShape{
		{rank: 18, code: softwarn.MessageOtherFramework,
			is: func(_ *messageWalk, f foreignFacts) bool { return f.noRole && f.raw && f.agent && f.expected },
			note: func(_ *messageWalk, f foreignFacts) softwarn.Parts {
				send := `send the task's chat messages instead: the entries of its "messages", which are {"role", "content"} messages already`
				if !f.history {
					send = `send the task's chat messages instead (TaskOutput.messages, empty in this one), or none`
				}
				return softwarn.Parts{Found: `a CrewAI TaskOutput (an entry of CrewOutput.tasks_output: "description", "raw", "agent"), not a message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: send + `; the crew's answer is its CrewOutput's "raw", which goes in "final_response": {"final_response": crew_output.raw}`}
			}},
	},
})

// crewUsageKeys are the keys of a UsageMetrics that no model API's usage has: beside them,
// prompt_tokens and completion_tokens are CrewAI's (crew_output.token_usage.model_dump() sent
// as metadata), the run's totals over every request of the crew.
var crewUsageKeys = []string{"successful_requests", "cached_prompt_tokens"}

// crewUsageIn is where CrewAI holds prompt_tokens and completion_tokens.
const crewUsageIn = "a UsageMetrics (CrewOutput.token_usage), summed over the crew's requests"

// crewOutputJSON is the note's for the JSON text of a CrewAI result sent as final_response
// (crew_output.model_dump_json(), or json.dumps of its model_dump()): a CrewOutput, "raw"
// beside "tasks_output" and "token_usage", or a LiteAgentOutput (Agent.kickoff()'s), "raw"
// beside "agent_role". Its answer is its "raw", the final task's or the agent's text; a result
// whose raw holds no text (a structured output only) gets no note, which would name an empty
// value.
func crewOutputJSON(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool) {
	// Every object's text is asked: one without the key anywhere costs no scanner.
	if !bytes.Contains(obj, []byte(`"raw"`)) {
		return "", "", false
	}
	raw := member(obj, "raw", maxDepth)
	if textKind(raw) != jsonscan.String || blank(raw) {
		return "", "", false
	}
	switch {
	case isList(member(obj, "tasks_output", maxDepth)) && member(obj, "token_usage", maxDepth) != nil:
		return `a CrewAI CrewOutput (Crew.kickoff()'s result: "raw", "tasks_output", "token_usage")`, codePath(dict, "crew_output", "raw"), true
	case textKind(member(obj, "agent_role", maxDepth)) == jsonscan.String:
		return `a CrewAI LiteAgentOutput (Agent.kickoff()'s result: "raw", "agent_role")`, codePath(dict, "result", "raw"), true
	}
	return "", "", false
}

// liteAgentResult is the result shape of a LiteAgentOutput whose "raw" holds the answer.
func liteAgentResult(f *objectFacts) (shapeHint, bool) {
	if !f.has("agent_role") || textKind(f.value("raw")) != jsonscan.String {
		return shapeHint{}, false
	}
	return sentInstead(`"raw" and "agent_role"`, "a CrewAI LiteAgentOutput", "the agent's whole output", `<the LiteAgentOutput's "raw">`), true
}

// crewOutputResult is the result shape of a CrewOutput ("raw" beside "tasks_output", ...) whose
// "raw" holds the answer.
func crewOutputResult(f *objectFacts) (shapeHint, bool) {
	key := f.crewKey()
	if key == "" || textKind(f.value("raw")) != jsonscan.String {
		return shapeHint{}, false
	}
	return sentInstead(`"raw" and `+strconv.Quote(key), "a CrewAI CrewOutput", "the crew's whole output", `<the CrewOutput's "raw">`), true
}

// crewKey is the first of CrewOutput's keys besides raw that the object has, tasks_output
// before any, since the surest sign is the one named; "" when it has none.
func (f *objectFacts) crewKey() string {
	if f.has("tasks_output") {
		return "tasks_output"
	}
	key, at := "", 0
	for _, k := range [...]string{"json_dict", "pydantic", "token_usage"} {
		if n := f.place(k); n > 0 && (at == 0 || n < at) {
			key, at = k, n
		}
	}
	return key
}

// liteAgentTranscript is the result shape of a LiteAgentOutput whose "raw" holds no text: its
// messages are chat messages ({"role", "content"}), and the answer, which "raw" would hold, is
// the content of the last assistant message when that holds text.
func liteAgentTranscript(f *objectFacts) (shapeHint, bool) {
	if textKind(f.messages) != jsonscan.Array || !f.has("agent_role") {
		return shapeHint{}, false
	}
	answer := `"<the agent's answer>"`
	if isAssistantText(lastAssistant(f.messages, f.maxDepth), f.maxDepth) {
		answer = `<the content of the last assistant message in its "messages">`
	}
	fix := `send {"final_response": ` + answer + `, "messages": <its "messages">}`
	return shapeHint{detail: `. It has "agent_role" and "messages" and its "raw" holds no text: it looks like a CrewAI LiteAgentOutput, ` +
		`the agent's whole output rather than the handler's result`, fix: fix}, true
}
