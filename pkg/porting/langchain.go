package porting

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// langChain is LangChain (langchain_core, @langchain/core) and LangGraph. Its messages_to_dict
// writes {"type": message.type, "data": message.model_dump()}, type one of human, ai, system,
// tool, data holding "content" and, by type, "tool_calls" ([{"name", "args", "id"}]) or
// "tool_call_id".
var langChain = register(source{
	name:    "LangChain",
	values:  []valueShape{{rank: 4, hint: serializedMessageHint}, {rank: 6, hint: aiMessageValue}},
	printed: []printedShape{{rank: 1, note: messageStr}, {rank: 6, keys: []string{"messages"}, note: stateStr}},
	// an AIMessage sent as the result, and a LangGraph state, {"messages": [...]}, without the
	// answer (the weakest sign: any object with a list of messages)
	results: []resultShape{{rank: 5, hint: aiMessageResult}, {rank: 18, hint: graphStateResult}},
	arrays:  []valueShape{{rank: 2, hint: langChainList}},
	turns:   []turnShape{{rank: 6, read: langChainTurn}},
	// a ToolCall's, {"name", "args", "id"}
	argumentKeys: []argumentsKey{{key: "args", origin: "LangChain's name for them"}},
	// the message types messages_to_dict writes ({"type": "human", "data": {...}})
	entryTypes: []string{"human", "ai", "system", "tool"},
	usageKeys:  []string{"usagemetadata", "tokenusage"}, // an AIMessage's usage_metadata, an LLMResult's token_usage
	metaNames: []metaName{
		{key: "model", name: "model_name", rank: 1, whose: "LangChain's", in: "response_metadata"},
		{key: "total_input_tokens", name: "input_tokens", rank: 1, whose: "LangChain's", in: "usage_metadata"},
		{key: "total_output_tokens", name: "output_tokens", rank: 1, whose: "LangChain's", in: "usage_metadata"},
	},
	transcripts: []transcriptShape{
		{key: "history", code: softwarn.TopLevelTranscriptKey, lead: "a chat's history in ", origin: `in LangChain (MessagesPlaceholder("history"))`},
		{key: "chat_history", code: softwarn.TopLevelTranscriptKey, origin: "LangChain's usual name for one"},
	},
	messages: []messageShape{
		{rank: 8, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && !f.parts && f.data && langChainRole(w.shortText(f.typ)) != ""
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				return langChainNote(w.text(f.typ), droppedMessage)
			}},
		{rank: 17, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && f.kwargs && f.classID.Present() && string(w.shortText(f.typ)) == "constructor"
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				return langChainConstructorNote(w.className(f.classID))
			}},
	},
})

// className is the last string of the array at v, the class a serialized object's "id" names
// (["langchain_core", "messages", "AIMessage"]), "" when there is none or it is long.
func (w *messageWalk) className(v jsonscan.Span) string {
	var s jsonscan.Scanner
	data := w.scanner(&s, v)
	var last jsonscan.Span
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if sp := stringIn(data, s.SkipValue()); sp.Present() {
			last = sp
		}
	}
	if !last.Present() || last.End-last.Start > 66 {
		return ""
	}
	return string(jsonscan.StringText(data, last))
}

// langChainClassTypes are the message types of LangChain's message classes, by class name.
var langChainClassTypes = map[string]string{
	"HumanMessage": "human", "HumanMessageChunk": "human",
	"AIMessage": "ai", "AIMessageChunk": "ai",
	"SystemMessage": "system", "SystemMessageChunk": "system",
	"ToolMessage": "tool", "ToolMessageChunk": "tool",
}

// langChainConstructorNote is what the note on a LangChain message serialized by its toJSON()
// (JSON.stringify of a message in JavaScript, dumpd or dumps in Python), {"lc": 1, "type":
// "constructor", "id": [..., class], "kwargs": {...}}, of class class, says.
func langChainConstructorNote(class string) softwarn.Parts {
	typ := langChainClassTypes[class]
	send := `{"role": <the role of its class>, "content": <kwargs.content>}`
	switch typ {
	case "ai":
		send = `{"role": "assistant", "content": <kwargs.content>, "tool_calls": [{"id": <each one's id>, "name": <each one's name>, "arguments": <each one's args as JSON text>}, ...] from its kwargs' tool_calls}`
	case "tool":
		send = `{"role": "tool", "tool_call_id": <its kwargs' tool_call_id>, "content": <kwargs.content>}`
	case "human", "system":
		send = `{"role": "` + langChainRole([]byte(typ)) + `", "content": <kwargs.content>}`
	}
	what := "a LangChain message"
	if class != "" {
		what = "a LangChain " + class
	}
	var chunk string
	if len(class) > 5 && class[len(class)-5:] == "Chunk" {
		chunk = ` (a chunk is a piece of a streamed message: send the message its chunks make, joined (chunk.concat(next) in JavaScript, chunk + next in Python), not each chunk)`
	}
	return softwarn.Parts{Found: what + ` serialized by its toJSON() ({"lc": 1, "type": "constructor", "id": [...], "kwargs": {...}}, no "role")` + chunk,
		Expected: `a chat message {"role", "content", ...}`, Done: droppedMessage,
		Fix: `send it as ` + send + `, or revive the messages from the JSON text with LangChain's load and convert them as above: in JavaScript await load(<the JSON text>) from @langchain/core/load (the text JSON.stringify wrote of them), in Python loads(<the JSON text>) from langchain_core.load, then convert_to_openai_messages from langchain_core.messages`}
}

// langChainRole is the platform's role for a LangChain message type, "" for another type.
func langChainRole(typ []byte) string {
	switch string(typ) {
	case "human":
		return "user"
	case "ai":
		return "assistant"
	case "system", "tool":
		return string(typ)
	}
	return ""
}

// langChainNote is what the note on a message as LangChain's messages_to_dict writes it, of
// type typ (human, ai, system or tool), says: the message its data converts to, or the list
// converted whole.
func langChainNote(typ, dropped string) softwarn.Parts {
	var send string
	switch typ {
	case "ai":
		send = `{"role": "assistant", "content": <data.content>, "tool_calls": [{"id": <id>, "name": <name>, "arguments": <args>}, ...] from data.tool_calls}`
	case "tool":
		send = `{"role": "tool", "tool_call_id": <data.tool_call_id>, "content": <data.content>}`
	default:
		send = `{"role": "` + langChainRole([]byte(typ)) + `", "content": <data.content>}`
	}
	return softwarn.Parts{Found: `a LangChain message as ` + langChainStoredWriters + ` writes it ({"type": "` + typ + `", "data": {...}}, no "role")`,
		Expected: `a chat message {"role", "content", ...}`, Done: dropped,
		Fix: `send it as ` + send + `, or ` + langChainStoredFix}
}

// LangChain's stored form of a message, {"type", "data": {...}}, is written by messages_to_dict
// in Python (langchain_core.messages) and by mapChatMessagesToStoredMessages in JavaScript
// (@langchain/core/messages); the two are the same JSON, so the note cannot tell the language
// and names each language's helper by its language.
const (
	langChainStoredWriters = "messages_to_dict (Python) or mapChatMessagesToStoredMessages (JavaScript)"
	langChainStoredFix     = "convert the list back with LangChain's helpers: in Python messages_from_dict(<the list>), then convert_to_openai_messages (langchain_core.messages); " +
		"in JavaScript mapStoredMessagesToChatMessages(<the list>) (@langchain/core/messages), then each message's content and tool_calls as above"
)

// serializedMessageHint is finalValueHint's for a LangChain AI message sent as final_response
// in the form its toJSON() (and Python's dumpd) writes, {"lc": 1, "type": "constructor", "id":
// [..., "AIMessage"], "kwargs": {"content", ...}}: its text is its content, unless it asks for
// tool calls and has none.
func serializedMessageHint(obj []byte, maxDepth int) (shapeHint, bool) {
	class := shortString(lastElement(member(obj, "id", maxDepth), maxDepth), 64)
	kwargs := member(obj, "kwargs", maxDepth)
	if shortString(member(obj, "type", maxDepth), 16) != "constructor" || !isObject(kwargs) ||
		(class != "AIMessage" && class != "AIMessageChunk") {
		return shapeHint{}, false
	}
	detail := `. It has "type": "constructor" and "id" [..., "` + class + `"]: it looks like a LangChain ` + class +
		` as its toJSON() writes it (its fields in "kwargs")`
	content := member(kwargs, "content", maxDepth)
	where := textOf(content, "message.content")
	if textKind(member(kwargs, "tool_calls", maxDepth)) == jsonscan.Array && (where == "" || textKind(content) == jsonscan.Array) {
		return shapeHint{detail: detail + `, and it asks for tool calls: the agent stopped at a tool call`, fix: stoppedFix}, true
	}
	switch where {
	case "":
		return shapeHint{}, false
	case "message.content":
	default:
		where = "<" + where + ">"
	}
	return shapeHint{detail: detail + ` rather than its text`, fix: `send {"final_response": ` + where + `}, the message's content, not the message`}, true
}

// aiMessageValue is the value shape of a LangChain AIMessage ("type": "ai" and "content") whose
// content holds text.
func aiMessageValue(obj []byte, maxDepth int) (shapeHint, bool) {
	content := member(obj, "content", maxDepth)
	if textKind(content) == jsonscan.None || shortString(member(obj, "type", maxDepth), 16) != "ai" {
		return shapeHint{}, false
	}
	fix := `send {"final_response": <` + textOf(content, `the AIMessage's "content"`) + `>}`
	return shapeHint{detail: `. It has "type": "ai" and "content": it looks like a LangChain AIMessage rather than its text`, fix: fix}, true
}

// messageStr is the note's for Python's str() of a LangChain message, content='…' or
// content=[…] (content blocks, as some models' messages have) followed by additional_kwargs={…}.
func messageStr(p printedText) (what, answer string, is bool) {
	v := langChainContent(p.text)
	switch {
	case v == nil:
		return "", "", false
	case v[0] == '[':
		return "Python's str() of a LangChain message (content=[…] additional_kwargs={…})", inBlocks("message.content", "content", v), true
	}
	return "Python's str() of a LangChain message (content='…' additional_kwargs={…})", "message.content", true
}

// langChainContent is the content of t when t is str() of a LangChain message, or nil: after
// content=, a string literal or a list (of content blocks, as some models' messages have), then
// the field the message's str() writes after it.
func langChainContent(t []byte) []byte {
	const content = "content="
	if !bytes.HasPrefix(t, []byte(content)) || len(t) == len(content) {
		return nil
	}
	v, end := t[len(content):], -1
	switch v[0] {
	case '\'', '"':
		end = skipString(v, 0)
	case '[':
		if c := reprClose(v, 0, func([]byte) {}); c >= 0 {
			end = c + 1
		}
	}
	if end <= 0 || !(bytes.HasPrefix(v[end:], []byte(" additional_kwargs={")) || bytes.HasPrefix(v[end:], []byte(" response_metadata={"))) {
		return nil
	}
	if emptyValue(v) { // a message without text (a tool-call turn): nothing to send instead
		return nil
	}
	return v[:end]
}

// stateStr is the note's for str() of a dict whose 'messages' is a list, a LangGraph state:
// the answer is its last message's content, unless that message holds none (a tool-call turn).
func stateStr(p printedText) (what, answer string, is bool) {
	msgs := p.value("messages")
	if p.form != printedDict || len(msgs) < 2 || msgs[0] != '[' || msgs[1] == ']' {
		return "", "", false
	}
	if _, ok := messageContent("", lastItem(msgs)); !ok {
		return "", "", true
	}
	last := `result["messages"][-1].content`
	if msgs[1] == '{' { // dicts, not message objects
		last = `result["messages"][-1]["content"]`
	}
	return "Python's str() of a dict with 'messages' (a LangGraph state)", "the last message's content, " + last, true
}

// aiMessageResult is the result shape of a LangChain AIMessage ("type": "ai" and a "content"
// that holds text) sent whole where its text belongs.
func aiMessageResult(f *objectFacts) (shapeHint, bool) {
	if textKind(f.content) == jsonscan.None || f.typ != "ai" {
		return shapeHint{}, false
	}
	return sentInstead(`"type": "ai" and "content"`, "a LangChain AIMessage", "the model's message",
		"<"+textOf(f.content, `the AIMessage's "content"`)+">"), true
}

// graphStateResult is the result shape of a transcript sent without its answer, as a LangGraph
// state ({"messages": [...]}) holds it: the answer is the last message's content when that is
// an assistant's text; a list of LangChain messages is converted to OpenAI messages first.
func graphStateResult(f *objectFacts) (shapeHint, bool) {
	if textKind(f.messages) != jsonscan.Array {
		return shapeHint{}, false
	}
	answer := `"<the agent's answer>"`
	if last := lastElement(f.messages, f.maxDepth); isAssistantText(last, f.maxDepth) {
		answer = `<the content of the last message>`
	}
	fix := `send {"final_response": ` + answer + `, "messages": <this list>}`
	if langChainListType(f.messages, f.maxDepth) != "" {
		fix = `send {"final_response": ` + answer + `, "messages": <the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`
	}
	return shapeHint{detail: `. It has "messages" but no answer: it looks like a transcript (as a LangGraph state holds it) sent without the agent's answer`, fix: fix}, true
}

// langChainList is the array shape of a list of LangChain messages sent as the result, a
// transcript without its answer.
func langChainList(list []byte, maxDepth int) (shapeHint, bool) {
	typ := langChainListType(list, maxDepth)
	if typ == "" {
		return shapeHint{}, false
	}
	fix := arraySend + `<the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`
	return shapeHint{detail: `; it looks like a list of LangChain messages (its first element has "type": ` + strconv.Quote(typ) + `)`, fix: fix, join: ": "}, true
}

// langChainListType is the type of the first element of the array list when that is a
// LangChain message (content, and a type of human, ai, system or tool, no role), else "".
func langChainListType(list []byte, maxDepth int) string {
	role, content, typ := firstEntry(list, maxDepth)
	if role || !content {
		return ""
	}
	text := shortToken(typ, 16)
	for _, t := range [...]string{"human", "ai", "system", "tool"} {
		if string(text) == t {
			return t
		}
	}
	return ""
}

// langChainTurn is a LangChain message in a transcript as Python's model_dump writes it,
// {"type": "ai" | "tool" | "human" | "system", "content", ...} and no role: an AIMessage with
// tool_calls ([{"name", "args", "id", "type": "tool_call"}]) asks for calls, one with text is
// the answer, and a ToolMessage is a call's result. A graph (an agent of create_agent, or
// LangGraph's create_react_agent) runs the loop until its last AIMessage has no tool_calls.
func langChainTurn(e turnFacts) (turn, bool) {
	if e.role != nil || e.content == nil {
		return turn{}, false
	}
	switch string(e.typ) {
	case "tool":
		return turn{result: true}, true
	case "human", "system":
		return turn{other: true}, true
	case "ai":
	default:
		return turn{}, false
	}
	switch {
	case textKind(e.calls) == jsonscan.Array:
		return turn{kind: turnCall, text: e.saysText(), what: "a LangChain AIMessage with tool_calls", answer: "the content of that last AIMessage",
			loop: `send each tool call's result back as a ToolMessage, ToolMessage(content=..., tool_call_id=tool_call["id"]) (a tool's invoke(tool_call) returns one), ` +
				`and invoke the model again, until its AIMessage has no tool_calls; an agent runs this loop for you: ` +
				`invoke an agent of create_agent (langchain.agents) or create_react_agent (langgraph.prebuilt), whose state's last message is then that AIMessage`}, true
	case textKind(e.content) == jsonscan.String && !blank(e.content):
		return turn{kind: turnAnswer, what: "a LangChain AIMessage with text", in: ".content"}, true
	case hasText(e.content, e.maxDepth):
		return turn{kind: turnAnswer, what: "a LangChain AIMessage with text", in: ".content's text parts", joined: true}, true
	}
	return turn{other: true}, true
}
