package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// llamaIndex is LlamaIndex (llama_index for Python, llamaindex and @llamaindex/core for
// JavaScript). Python's ChatMessage, as model_dump writes it, is {"role", "additional_kwargs",
// "blocks": [{"block_type": "text", "text"}]}: an OpenAI model's calls are in
// additional_kwargs.tool_calls (OpenAI's nested shape), a tool message's id in
// additional_kwargs.tool_call_id. JavaScript's ChatMessage is {"role", "content", "options"}:
// a model's calls in options.toolCall, [{"id", "name", "input"}], and a tool's result in a
// "user" message whose options.toolResult is {"id", "result", "isError"} (as an agent
// workflow's memory holds them, await memory.get()).
var llamaIndex = register(source{
	name: "LlamaIndex",
	texts: []textShape{{code: softwarn.MessageTextInParts, is: func(m *messageFacts) bool { return m.blockList },
		note: func(*messageFacts) softwarn.Parts {
			return softwarn.Parts{
				Found:    `"blocks" (LlamaIndex's ChatMessage, as model_dump writes it) and no "content"`,
				Expected: `the message's text in "content": the platform reads a message's text only from "content", not "blocks"`,
				Done:     textNotShown,
				Fix:      `send {"role": <its "role">, "content": <the text of its text blocks, joined>} (in Python, ChatMessage.content gives that text)`}
		}}},
	kept: []keptShape{
		{member: "additional_kwargs", code: softwarn.ToolCallsOtherFramework, id: "tool_call_id",
			idFix: `move additional_kwargs.tool_call_id up to the message's own "tool_call_id", where the trace reads it: ` +
				`LlamaIndex's ChatMessage, as model_dump writes it, holds a tool message's id in additional_kwargs`,
			is: func(w *messageWalk, k keptMember) bool {
				calls, id := w.llamaKwargs(k)
				return calls || id
			},
			note: func(w *messageWalk, k keptMember) softwarn.Parts {
				calls, id := w.llamaKwargs(k)
				var found, fix string
				if calls {
					found, fix = `"tool_calls"`, `move additional_kwargs.tool_calls to the message's own "tool_calls" (each {"id", "type": "function", "function": {"name", "arguments"}}, a shape the platform reads)`
				}
				if id {
					if found != "" {
						found, fix = found+` and `, fix+`, and `
					}
					found, fix = found+`"tool_call_id"`, fix+`move additional_kwargs.tool_call_id to the message's own "tool_call_id"`
				}
				return softwarn.Parts{Found: found + ` in "additional_kwargs" (LlamaIndex's ChatMessage, as model_dump writes it)`,
					Expected: found + ` as the message's own key: the trace reads none inside "additional_kwargs"`,
					Done:     "the message was kept, but the trace does not link its tool calls or results", Fix: fix}
			}},
		{member: "options", code: softwarn.ToolCallsOtherFramework,
			is: func(w *messageWalk, k keptMember) bool {
				calls, result := w.llamaOptions(k)
				return calls || result
			},
			note: func(w *messageWalk, k keptMember) softwarn.Parts {
				if calls, _ := w.llamaOptions(k); calls {
					return softwarn.Parts{Found: `the calls in options.toolCall (a LlamaIndex ChatMessage)`,
						Expected: `the calls in "tool_calls": the trace reads none in "options"`,
						Done:     "the message was kept, but the trace shows no tool call in it",
						Fix:      `send "tool_calls": [{"id": <toolCall[*].id>, "name": <toolCall[*].name>, "arguments": <its input as JSON text>}, ...], one for each entry of options.toolCall`}
				}
				return softwarn.Parts{Found: `a tool's result in options.toolResult of a "` + string(k.role) + `" message (a LlamaIndex ChatMessage)`,
					Expected: `a tool message {"role": "tool", "tool_call_id", "content"}: the trace links no result in "options"`,
					Done:     "the message was kept as a " + string(k.role) + " message, not linked to its call",
					Fix:      `send it as {"role": "tool", "tool_call_id": <toolResult.id>, "content": <toolResult.result>}`}
			}},
	},
	factKeys:   []string{"data", "response", "current_agent_name"},
	answerKeys: []string{"response"}, // a query engine Response's text
	results: []resultShape{
		{rank: 11, probe: true, hint: func(f *objectFacts) (shapeHint, bool) {
			data := f.value("data")
			if f.typ != "llamaindex-stop" || !isObject(data) || textKind(member(data, "result", f.maxDepth)) != jsonscan.String {
				return shapeHint{}, false
			}
			return sentInstead(`"type": "llamaindex-stop" and "data"`, "a LlamaIndex agent workflow's stop event (what await agent(...).run() returns)",
				"the run's whole result", "result.data.result"), true
		}},
		{rank: 12, probe: true, hint: func(f *objectFacts) (shapeHint, bool) {
			response := f.value("response")
			if !f.has("current_agent_name") || !isObject(response) || textKind(member(response, "blocks", f.maxDepth)) != jsonscan.Array ||
				!f.holdsBlocks(member(response, "blocks", f.maxDepth)) {
				return shapeHint{}, false
			}
			return sentInstead(`"response" and "current_agent_name"`, "a LlamaIndex AgentOutput (what await agent.run() returns, as model_dump writes it)",
				"the agent's whole output", "str(agent_output)").also(" (AgentOutput.__str__ is its response's content, the text of its text blocks)"), true
		}},
	},
})

// holdsBlocks reports whether a ChatMessage's blocks hold a text block with text.
func (f *objectFacts) holdsBlocks(blocks []byte) bool {
	text, _ := partsHold(blocks, f.maxDepth)
	return text
}

// llamaKwargs reads a Python ChatMessage's additional_kwargs: whether it holds a list of
// calls the message's own tool_calls does not, and a tool message's id its own tool_call_id
// does not.
func (w *messageWalk) llamaKwargs(k keptMember) (calls, id bool) {
	obj, depth := w.data[k.value.Start:k.value.End], w.v.MaxDepth()
	if !isObject(obj) {
		return false, false
	}
	tc := member(obj, "tool_calls", depth)
	calls = !k.calls && len(tc) > 2 && tc[0] == '['
	ti := member(obj, "tool_call_id", depth)
	id = !k.id && len(ti) > 2 && ti[0] == '"'
	return calls, id
}

// llamaOptions reads a JavaScript ChatMessage's options: whether it holds calls (toolCall, a
// list) the message's own tool_calls does not, and a tool's result (toolResult, an object with
// an id) in a message that is not a linked tool message.
func (w *messageWalk) llamaOptions(k keptMember) (calls, result bool) {
	obj, depth := w.data[k.value.Start:k.value.End], w.v.MaxDepth()
	if !isObject(obj) {
		return false, false
	}
	tc := member(obj, "toolCall", depth)
	calls = !k.calls && len(tc) > 2 && tc[0] == '['
	tr := member(obj, "toolResult", depth)
	result = !k.id && isObject(tr) && len(member(tr, "id", depth)) > 0
	return calls, result
}
