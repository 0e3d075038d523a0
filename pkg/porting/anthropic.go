package porting

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// anthropic is Anthropic's Messages API and its SDKs (anthropic, @anthropic-ai/sdk). A streamed
// message arrives as events, {"type": "message_start" | "content_block_start" |
// "content_block_delta" | "content_block_stop" | "message_delta" | "message_stop" | "ping"}:
// the message is the events' deltas joined, which no event is on its own.
var anthropic = register(source{
	name:      "Anthropic",
	lists:     []valueShape{{rank: 2, hint: blocksValueHint}},
	usageKeys: []string{"usage"},
	// its input_tokens leaves out the input written to or read from the cache
	cached: &cacheShape{count: "inputtokens",
		caches: []cacheName{{folded: "cachecreationinputtokens"}, {folded: "cachereadinputtokens"}},
		reason: " (Anthropic's input_tokens leaves out the cached input, which total_input_tokens counts)"},
	metaNames: []metaName{
		{key: "total_input_tokens", name: "input_tokens", rank: 1, whose: "Anthropic's", in: "usage"},
		{key: "total_output_tokens", name: "output_tokens", rank: 1, whose: "Anthropic's", in: "usage"},
	},
	responses: []responseShape{{note: messageJSON}},
	printed:   []printedShape{{rank: 7, note: blocksRepr}},
	results:   []resultShape{{rank: 3, hint: messageResult}},
	// a user message of tool_result blocks before the other turns of a role; a tool_use block
	// before the assistant's text parts
	turns: []turnShape{{rank: 5, read: toolResultsTurn}, {rank: 11, part: "tool_use",
		call: turn{kind: turnCall, what: "an Anthropic message with a tool_use block", answer: "the text of that message's text blocks",
			loop: `call messages.create again with a user message of tool_result blocks, {"type": "tool_result", "tool_use_id": ..., "content": ...}, ` +
				`one for each tool_use block, until its stop_reason is not "tool_use"`}}},
	// a tool_result block sent as a message, which its warning says how to convert
	answerLinks:  []answerLink{{member: "tool_use_id", origin: "Anthropic's name for it"}},
	argumentKeys: []argumentsKey{{key: "input", origin: "Anthropic's name for them"}},
	blocks: []blockShape{
		{typ: "tool_use", noun: "Anthropic tool_use block", code: softwarn.AnthropicContentBlocks,
			fix: "the trace shows tool calls only from tool_calls: move each to tool_calls as {\"id\": <id>, \"name\": <name>, \"arguments\": <input>}"},
		{typ: "tool_result", noun: "Anthropic tool_result block", code: softwarn.AnthropicContentBlocks,
			fix: "the trace links results only from tool messages: send each as {\"role\": \"tool\", \"tool_call_id\": <tool_use_id>, \"content\": <content>}"},
	},
	messages: []messageShape{
		{rank: 13, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && isStreamEvent(w.shortText(f.typ))
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				return softwarn.Parts{Found: `an Anthropic Messages stream event ("type": "` + w.text(f.typ) + `"), not a message`,
					Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
					Fix: `send the one message the stream's events make, not the events: ` +
						`the SDKs join them (stream.finalMessage() in @anthropic-ai/sdk, stream.get_final_message() in the Python SDK), ` +
						`and that Message is {"role": "assistant", "content": <the text of its text blocks, joined>, ` +
						`"tool_calls": [{"id": <its id>, "name": <its name>, "arguments": <its input as JSON text>}, ...] from its tool_use blocks}`}
			}},
	},
})

// isStreamEvent is whether typ is the type of an event of a streamed Messages response.
func isStreamEvent(typ []byte) bool {
	switch string(typ) {
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping":
		return true
	}
	return false
}

// messageJSON is the note's for an Anthropic Messages API response's JSON text sent as
// final_response: its answer is the text of its text blocks (not its thinking blocks), unless
// it has tool_use blocks (then its text is a preamble).
func messageJSON(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool) {
	content := member(obj, "content", maxDepth)
	if shortString(member(obj, "type", maxDepth), 16) != "message" || shortString(member(obj, "role", maxDepth), 16) != "assistant" || !isList(content) {
		return "", "", false
	}
	const what0 = `an Anthropic Messages API response ("type": "message")`
	if _, calls := partsHold(content, maxDepth); calls {
		return what0 + " with tool_use blocks", "", true
	}
	first, n := textParts(content, "text", maxDepth)
	if first < 0 {
		return "", "", false
	}
	return what0, codePath(dict, "message", "content", strconv.Itoa(first), "text") + joinedWith(n, "text blocks"), true
}

// blocksValueHint is the list shape of content blocks whose first is not text: an Anthropic
// message's content with a thinking block before its text. Its text is that of its text
// blocks; with a tool_use block, it is a preamble.
func blocksValueHint(list []byte, maxDepth int) (shapeHint, bool) {
	firstType := shortString(member(firstElement(list, maxDepth), "type", maxDepth), 16)
	i, n := textParts(list, "text", maxDepth)
	if firstType == "" || i < 0 {
		return shapeHint{}, false
	}
	detail := `. Its elements are content blocks, "type": "` + firstType + `" first, then "text": it looks like an Anthropic message's content rather than its text`
	if _, calls := partsHold(list, maxDepth); calls {
		return shapeHint{detail: detail + `, with a tool_use block: its text is the preamble the model wrote before the call, and the agent stopped at a tool call`, fix: stoppedFix}, true
	}
	return shapeHint{detail: detail, fix: `send {"final_response": <the "text" of final_response's text blocks, joined>} (here content[` +
		strconv.Itoa(i) + `].text` + joinedWith(n, "text blocks") + `), not its ` + firstType + ` blocks`}, true
}

// blocksRepr is the note's for str() of a list of dicts read as a list of content blocks or
// parts ([{'type': 'text', 'text': '…'}], an Anthropic message's content as a dict holds it, or
// a chat message's content parts): the answer is the text of its text blocks, not of its
// thinking blocks. A list with a tool_use block is a turn that stopped at a tool call, and one
// without text holds no answer: no note names them.
func blocksRepr(p printedText) (what, answer string, is bool) {
	if p.form != printedList {
		return "", "", false
	}
	first, n, calls, at := -1, 0, false, -1
	if !reprItems(p.text, 0, func(item []byte) {
		at++
		typ, text := reprMember(item, "type"), reprMember(item, "text")
		calls = calls || bytes.HasPrefix(typ, []byte("'tool_use'"))
		if !bytes.HasPrefix(typ, []byte("'text'")) || text == nil || emptyValue(text) || (text[0] != '\'' && text[0] != '"') {
			return
		}
		if n++; first < 0 {
			first = at
		}
	}) || first < 0 || calls {
		return "", "", true
	}
	return "Python's str() of a list of content blocks (an Anthropic message's content, or a chat message's content parts)",
		`the "text" of its text blocks` + joined(n) + ` (here content[` + strconv.Itoa(first) + `]["text"])`, true
}

// messageResult is the result shape of an Anthropic Messages API response ("type": "message"
// and "content"). One whose content holds tool_use blocks stopped at a tool call
// (stopped_tool_call.go): its text, if any, is a preamble.
func messageResult(f *objectFacts) (shapeHint, bool) {
	if f.content == nil || f.typ != "message" {
		return shapeHint{}, false
	}
	const has, what = `"type": "message" and "content"`, "an Anthropic Messages API response"
	if text, calls := partsHold(f.content, f.maxDepth); calls {
		return stoppedResponse(has, what, "tool_use blocks", text), true
	}
	return sentInstead(has, what, modelsResponse, "<the text of its text blocks>"), true
}

// toolResultsTurn is a user message whose content is a list of Anthropic tool_result blocks and
// nothing else: the results of the calls before it.
func toolResultsTurn(e turnFacts) (turn, bool) {
	if string(e.role) != "user" {
		return turn{}, false
	}
	all := isList(e.content) && textKind(e.content) == jsonscan.Array
	eachElement(e.content, e.maxDepth, func(_ int, part []byte) bool {
		all = shortString(member(part, "type", e.maxDepth), 16) == "tool_result"
		return all
	})
	return turn{other: true, result: true}, all
}
