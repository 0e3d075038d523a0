package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// strands is Strands Agents (strands-agents for Python, @strands-agents/sdk for JavaScript),
// whose messages are Bedrock Converse's: {"role": "user" | "assistant", "content": [blocks]},
// each block an object of one key, {"text"}, {"toolUse": {"toolUseId", "name", "input"}},
// {"toolResult": {"toolUseId", "status", "content": [{"text"} | {"json"}]}}. agent.messages
// holds them as they are (json.dumps in Python, JSON.stringify of its Message objects in
// JavaScript), a tool's result in a "user" message. An AgentResult is {"stop_reason",
// "message", "metrics"} (to_dict() writes "type": "agent_result"; JavaScript's toJSON()
// "type": "agentResult", "stopReason", "lastMessage").
var strands = register(source{
	name:      "Strands",
	usageKeys: []string{"accumulatedusage"}, // {"inputTokens", "outputTokens", "totalTokens"}
	// Bedrock's cacheReadInputTokens and cacheWriteInputTokens in an AgentResult's
	// accumulated_usage: its inputTokens leaves out the input written to or read from the cache
	cached: &cacheShape{count: "inputtokens",
		caches:  []cacheName{{folded: "cachereadinputtokens", spelled: "cacheReadInputTokens"}, {folded: "cachewriteinputtokens"}},
		holders: []string{"accumulatedusage"},
		reason:  " (Strands' inputTokens leaves out the cached input, which total_input_tokens counts)"},
	metaNames: []metaName{ // Bedrock's names, in an AgentResult's metrics
		{key: "total_input_tokens", name: "inputTokens", rank: 2, whose: "Strands'", in: "accumulated_usage"},
		{key: "total_output_tokens", name: "outputTokens", rank: 2, whose: "Strands'", in: "accumulated_usage"},
	},
	kept: []keptShape{
		{member: "content", code: softwarn.ToolCallsOtherFramework,
			is: func(w *messageWalk, k keptMember) bool {
				uses, results := w.strandsBlocks(k.value)
				return uses > 0 && !k.calls || results > 0 && !k.id
			},
			note: func(w *messageWalk, k keptMember) softwarn.Parts { return w.strandsNote(k) }},
	},
	factKeys: []string{"lastMessage"},
	// to_dict()'s "message" is a probe key: rule 3's hint tries these too
	results: []resultShape{
		{rank: 13, probe: true, hint: func(f *objectFacts) (shapeHint, bool) {
			if f.typ != "agentResult" || !f.holdsText(f.value("lastMessage")) {
				return shapeHint{}, false
			}
			return sentInstead(`"type": "agentResult" and "lastMessage"`, "a Strands AgentResult (its toJSON())", "the agent's whole result",
				"String(result)").also(" (AgentResult.toString() joins the text of its lastMessage's text blocks)"), true
		}},
		{rank: 14, probe: true, hint: func(f *objectFacts) (shapeHint, bool) {
			if f.typ != "agent_result" || !f.holdsText(f.message) {
				return shapeHint{}, false
			}
			return sentInstead(`"type": "agent_result" and "message"`, "a Strands AgentResult (result.to_dict())", "the agent's whole result",
				"str(result)").also(" (AgentResult.__str__ joins the text of its message's text blocks)"), true
		}},
	},
})

// holdsText reports whether msg is a message object whose content holds a text block.
func (f *objectFacts) holdsText(msg []byte) bool {
	if !isObject(msg) {
		return false
	}
	text, _ := partsHold(member(msg, "content", f.maxDepth), f.maxDepth)
	return text
}

// strandsBlocks counts the toolUse and toolResult blocks of the content at v: objects with
// the key and an object for it.
func (w *messageWalk) strandsBlocks(v jsonscan.Span) (uses, results int) {
	var s jsonscan.Scanner
	data := w.scanner(&s, v)
	if s.Peek() != jsonscan.Array {
		return 0, 0
	}
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			name := s.KeyName()
			isUse, isResult := string(name) == "toolUse", string(name) == "toolResult"
			if sp := s.SkipValue(); sp.Present() && data[sp.Start] == '{' {
				if isUse {
					uses++
				}
				if isResult {
					results++
				}
			}
		}
	}
	return uses, results
}

// strandsNote is what the note on a content list with Strands' toolUse or toolResult blocks
// says: the trace reads calls from "tool_calls" and results from tool messages.
func (w *messageWalk) strandsNote(k keptMember) softwarn.Parts {
	uses, results := w.strandsBlocks(k.value)
	if k.calls {
		uses = 0
	}
	if k.id {
		results = 0
	}
	var found, expected, fix string
	if uses > 0 {
		expected = `the calls in "tool_calls"`
		found = plural(uses, "toolUse block")
		fix = `move each toolUse block to "tool_calls" as {"id": <toolUse.toolUseId>, "name": <toolUse.name>, "arguments": <its input as JSON text>}, ` +
			`and leave its text blocks in "content"`
	}
	if results > 0 {
		if found != "" {
			found, expected, fix = found+" and ", expected+" and ", fix+"; "
		}
		expected += "each result in a tool message"
		found += plural(results, "toolResult block")
		fix += `send each toolResult block as a message of its own, in place of this "` + string(k.role) + `" message: ` +
			`{"role": "tool", "tool_call_id": <toolResult.toolUseId>, "content": <the text of its content blocks, or their json as JSON text>}`
	}
	return softwarn.Parts{
		Found:    found + ` in "content" (Strands' messages, Bedrock Converse's content blocks)`,
		Expected: expected + `: the trace reads none inside "content"`,
		Done:     "the message was kept, but the trace shows no tool call or tool result in it",
		Fix:      fix,
	}
}
