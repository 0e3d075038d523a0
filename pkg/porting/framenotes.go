package porting

import (
	"bytes"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Transcripts of other agent frameworks. A porter who returns AutoGen's TaskResult.messages,
// Pydantic AI's all_messages(), smolagents' memory or Gemini's chat history sends messages the
// contract drops (rule 8: no role, or a role out of the set) or keeps without their text
// (Gemini's "parts"). The warning says the message was dropped; the explain view adds one note
// at messages[i] that names the shape and the messages to send instead. Field names are the
// frameworks' own, as they serialize:
//
//   - AutoGen AgentChat (autogen_agentchat.messages): {"source", "type": "TextMessage", "content"},
//     ToolCallRequestEvent's content a list of FunctionCall {"id", "arguments", "name"},
//     ToolCallExecutionEvent's a list of FunctionExecutionResult {"content", "name", "call_id"};
//   - Pydantic AI (ModelMessagesTypeAdapter): {"kind": "request" | "response", "parts": [...]},
//     each part with "part_kind" (system-prompt, user-prompt, tool-return, retry-prompt, text,
//     tool-call, thinking), tool calls as {"tool_name", "args", "tool_call_id"};
//   - smolagents: MessageRole's "tool-call" and "tool-response", and ActionStep.dict() (memory
//     steps: "step_number", "model_output", "tool_calls" in OpenAI's nested shape, "observations");
//   - Gemini Content: {"role": "user" | "model", "parts": [{"text"}, {"function_call"}, ...]};
//   - LangChain's messages_to_dict (langchain_core.messages): {"type": message.type, "data":
//     message.model_dump()}, type one of human, ai, system, tool, data holding "content" and, by
//     type, "tool_calls" ([{"name", "args", "id"}]) or "tool_call_id".

// partKinds is the set of kinds found among a message's "parts".
type partKinds uint16

const (
	pkSystemPrompt     partKinds = 1 << iota // Pydantic AI
	pkUserPrompt                             // Pydantic AI
	pkToolReturn                             // Pydantic AI
	pkRetryPrompt                            // Pydantic AI
	pkText                                   // Pydantic AI's text part, or a Gemini part with "text"
	pkToolCall                               // Pydantic AI
	pkThinking                               // Pydantic AI
	pkFunctionCall                           // Gemini
	pkFunctionResponse                       // Gemini
)

// pydanticPartKinds maps Pydantic AI's part_kind values.
var pydanticPartKinds = map[string]partKinds{
	"system-prompt": pkSystemPrompt, "user-prompt": pkUserPrompt, "tool-return": pkToolReturn,
	"retry-prompt": pkRetryPrompt, "text": pkText, "tool-call": pkToolCall, "thinking": pkThinking,
}

// readParts reads the "parts" value at v: whether it is an array, and the kinds of its parts,
// by Pydantic AI's part_kind or by Gemini's keys.
func (w *messageWalk) readParts(v jsonscan.Span) (bool, partKinds) {
	var s jsonscan.Scanner
	data := w.scanner(&s, v)
	if s.Peek() != jsonscan.Array {
		return false, 0
	}
	var kinds partKinds
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			key := s.KeyName()
			k := s.Peek()
			v := s.SkipValue()
			switch string(key) {
			case "part_kind":
				if v := stringIn(data, v); v.Present() {
					kinds |= pydanticPartKinds[string(jsonscan.StringText(data, v))]
				}
			case "text":
				if k == jsonscan.String {
					kinds |= pkText
				}
			case "function_call", "functionCall":
				if k == jsonscan.Object {
					kinds |= pkFunctionCall | camelPart(key)
				}
			case "function_response", "functionResponse":
				if k == jsonscan.Object {
					kinds |= pkFunctionResponse | camelPart(key)
				}
			}
		}
	}
	return true, kinds
}

// foreignFacts is what the notes need of a dropped message; the last value of each key counts.
type foreignFacts struct {
	start   int
	role    jsonscan.Span // the string token, absent when missing, null or not a string
	noRole  bool          // missing or null
	typ     jsonscan.Span // "type", a string token
	source  jsonscan.Span // "source", a string token
	kind    jsonscan.Span // "kind", a string token
	parts   bool          // "parts" is an array
	kinds   partKinds
	data    bool // "data" is an object (LangChain's messages_to_dict)
	step    bool // "step_number" is a number
	stepOut bool // "model_output", "observations" or "tool_calls" beside it (readDropped reads the last)
}

// noteForeign notes dropped message i, whose facts are f, when it is in the shape of another
// framework's message. The note is built only when it is listed: a transcript of a million
// dropped messages is counted past the limit, not written out.
func (w *messageWalk) noteForeign(n *noteRun, i int, f *foreignFacts) {
	if shape := w.foreignShapeOf(f); shape != notForeign && n.take() {
		n.add(f.start, messageAt(i).Warning(softwarn.MessageOtherFramework, softwarn.Dropped, w.foreignMessage(f, shape)))
	}
}

// readForeign reads the value v of member key of a dropped message into f.
func (w *messageWalk) readForeign(key []byte, v jsonscan.Span, f *foreignFacts) {
	if string(key) == "parts" {
		f.parts, f.kinds = w.readParts(v)
		return
	}
	k := kindOf(w.data[v.Start:v.End])
	switch string(key) {
	case "role":
		f.role, f.noRole = w.stringAt(v), k == jsonscan.Null
	case "type":
		f.typ = w.stringAt(v)
	case "source":
		f.source = w.stringAt(v)
	case "kind":
		f.kind = w.stringAt(v)
	case "data":
		f.data = k == jsonscan.Object
	case "step_number":
		f.step = k == jsonscan.Number
	case "model_output", "observations":
		f.stepOut = true
	}
}

// text is the text of the string token sp, or "" when it is absent or longer than any value
// the notes look for (a hostile value of megabytes is not copied for them).
func (w *messageWalk) text(sp jsonscan.Span) string { return string(w.shortText(sp)) }

// shortText is text without the copy, for comparing: shortToken's, for tokens of at most 66
// bytes.
func (w *messageWalk) shortText(sp jsonscan.Span) []byte {
	if !sp.Present() {
		return nil
	}
	return shortToken(w.data[sp.Start:sp.End], 67)
}

// foreignShape is the other framework's shape a dropped message is in, which its note names.
type foreignShape uint8

const (
	notForeign       foreignShape = iota
	smolToolCall                  // smolagents' "role": "tool-call"
	smolToolResponse              // smolagents' "role": "tool-response"
	geminiModel                   // a Gemini Content of the model
	pydanticMessage               // a Pydantic AI ModelRequest or ModelResponse
	geminiUser                    // a Gemini Content without a role
	autoGenMessage                // an AutoGen AgentChat message or event
	smolStep                      // a smolagents memory step
	langChainDict                 // a LangChain message as messages_to_dict writes it
)

// foreignShapeOf says which shape f is in; notForeign when none, or when the message's own
// warning says all there is (a role out of the set).
func (w *messageWalk) foreignShapeOf(f *foreignFacts) foreignShape {
	switch role := w.shortText(f.role); {
	case string(role) == "tool-call":
		return smolToolCall
	case string(role) == "tool-response":
		return smolToolResponse
	case string(role) == "model" && f.parts:
		return geminiModel
	case !f.noRole:
		return notForeign // dropped for its role, whose warning says what to use
	case f.parts && f.kind.Present():
		if kind := w.shortText(f.kind); string(kind) == "request" || string(kind) == "response" {
			return pydanticMessage
		}
		return notForeign
	case f.parts:
		return geminiUser
	case f.source.Present() && isAutoGenType(w.shortText(f.typ)):
		return autoGenMessage
	case f.step && f.stepOut:
		return smolStep
	case f.data && langChainRole(w.shortText(f.typ)) != "":
		return langChainDict
	}
	return notForeign
}

// foreignMessage is what the note on a dropped message in shape, another framework's, says.
func (w *messageWalk) foreignMessage(f *foreignFacts, shape foreignShape) softwarn.Parts {
	const dropped = "the message was dropped"
	switch shape {
	case smolToolCall:
		return softwarn.Parts{Found: `"role": "tool-call", smolagents' MessageRole.TOOL_CALL`, Expected: `"assistant" with the calls in "tool_calls"`, Done: dropped,
			Fix: `send {"role": "assistant", "tool_calls": <the step's tool_calls>} (ActionStep.tool_calls, each {"id", "type": "function", "function": {"name", "arguments"}}, a shape the platform reads), ` +
				`not the text "Calling tools: ...", which holds the calls as Python text`}
	case smolToolResponse:
		return softwarn.Parts{Found: `"role": "tool-response", smolagents' MessageRole.TOOL_RESPONSE`, Expected: `"tool"`, Done: dropped,
			Fix: `send it as {"role": "tool", "tool_call_id": <the id of the call it answers>, "content": <its content>}`}
	case geminiModel:
		return geminiMessage(`a Gemini Content ("role": "model" with "parts")`, "assistant", f.kinds, dropped)
	case pydanticMessage:
		return pydanticNote(w.text(f.kind), f.kinds, dropped)
	case geminiUser:
		return geminiMessage(`a Gemini Content ("parts" and no "role", which Gemini reads as "user")`, "user", f.kinds, dropped)
	case autoGenMessage:
		return w.autoGenNote(f, dropped)
	case langChainDict:
		return langChainNote(w.text(f.typ), dropped)
	case smolStep:
		return softwarn.Parts{Found: `a smolagents memory step (ActionStep.dict(), with "step_number" and no "role")`, Expected: "chat messages", Done: dropped,
			Fix: `send the step as messages: {"role": "assistant", "content": <model_output>, "tool_calls": <tool_calls>}, ` +
				`then for each call {"role": "tool", "tool_call_id": <its id>, "content": <observations>}`}
	}
	return softwarn.Parts{}
}

// isAutoGenType is whether typ names an AutoGen AgentChat message or event class
// (TextMessage, ToolCallRequestEvent, ...): a capitalized identifier ending in Message or Event.
// Being an identifier, it can be shown in a note as it is.
func isAutoGenType(typ []byte) bool {
	if len(typ) == 0 || typ[0] < 'A' || typ[0] > 'Z' || !(bytes.HasSuffix(typ, []byte("Message")) || bytes.HasSuffix(typ, []byte("Event"))) {
		return false
	}
	for _, c := range typ {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// autoGenNote is what the note on an AutoGen AgentChat message says, by its type.
func (w *messageWalk) autoGenNote(f *foreignFacts, dropped string) softwarn.Parts {
	typ := w.text(f.typ)
	p := softwarn.Parts{Found: "an AutoGen AgentChat " + typ + ` ("source" and "type", no "role")`, Expected: `a chat message {"role", "content", ...}`, Done: dropped}
	switch typ {
	case "TextMessage", "MultiModalMessage", "StopMessage", "HandoffMessage", "ToolCallSummaryMessage":
		if w.text(f.source) == "user" {
			p.Fix = `send it as {"role": "user", "content": <its content>} (its source is "user")`
			return p
		}
		p.Fix = `send it as {"role": "assistant", "content": <its content>} (its source, ` +
			jsonscan.ShortToken(tokenText(w.data, f.source)) + `, is an agent, not "user")`
	case "ToolCallRequestEvent":
		p.Fix = `send it as {"role": "assistant", "tool_calls": <its content>}: its FunctionCall entries {"id", "arguments", "name"} are the flat form already`
	case "ToolCallExecutionEvent":
		p.Fix = `send each FunctionExecutionResult of its content as {"role": "tool", "tool_call_id": <call_id>, "content": <content>}`
	case "ThoughtEvent":
		p.Fix = `it holds the model's reasoning: leave it out, or put it in the thinking of the assistant message that follows it: "thinking": [{"type": "thinking", "thinking": <its content>}]`
	default:
		p.Fix = `it is an event, not a chat message: leave it out, or send what it shows as {"role": "assistant", "content": <its text>}`
	}
	return p
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

// pydanticNote is what the note on a Pydantic AI ModelRequest or ModelResponse says: the
// messages its parts convert to, for the kinds of part it holds (all of its kind's, when none is
// known).
func pydanticNote(kind string, kinds partKinds, dropped string) softwarn.Parts {
	switch kind {
	case "request":
		convs := []struct {
			k    partKinds
			text string
		}{
			{pkSystemPrompt, `a system-prompt part as {"role": "system", "content": <content>}`},
			{pkUserPrompt, `a user-prompt part as {"role": "user", "content": <content>}`},
			{pkToolReturn, `a tool-return part as {"role": "tool", "tool_call_id": <tool_call_id>, "content": <content>} (json.dumps(content) when it is not a string)`},
			{pkRetryPrompt, `a retry-prompt part as {"role": "tool", "tool_call_id": <tool_call_id>, "content": <content>} (as "user" when it has no tool_name)`},
		}
		var fixes []string
		for _, c := range convs {
			if kinds&c.k != 0 {
				fixes = append(fixes, c.text)
			}
		}
		if len(fixes) == 0 {
			for _, c := range convs {
				fixes = append(fixes, c.text)
			}
		}
		return softwarn.Parts{Found: `a Pydantic AI ModelRequest ("kind": "request" with "parts", no "role")`, Expected: "chat messages", Done: dropped,
			Fix: "send each of its parts as a message: " + strings.Join(fixes, ", ")}
	case "response":
		if kinds&(pkText|pkToolCall|pkThinking) == 0 {
			kinds |= pkText | pkToolCall
		}
		var fields []string
		if kinds&pkText != 0 {
			fields = append(fields, `"content": <the content of its text parts>`)
		}
		if kinds&pkToolCall != 0 {
			fields = append(fields, `"tool_calls": [{"id": <tool_call_id>, "name": <tool_name>, "arguments": <args>}, ...]`)
		}
		if kinds&pkThinking != 0 {
			fields = append(fields, `"thinking": [{"type": "thinking", "thinking": <the content of its thinking parts>}]`)
		}
		return softwarn.Parts{Found: `a Pydantic AI ModelResponse ("kind": "response" with "parts", no "role")`, Expected: "a chat message", Done: dropped,
			Fix: `send it as one message: {"role": "assistant", ` + strings.Join(fields, ", ") + "}"}
	}
	return softwarn.Parts{}
}

// geminiMessage is what the note on a dropped Gemini Content, found as found, whose role is role
// on the platform, says.
func geminiMessage(found, role string, kinds partKinds, dropped string) softwarn.Parts {
	var fields, also []string
	if kinds&pkText != 0 || kinds&(pkFunctionCall|pkFunctionResponse) == 0 {
		fields = append(fields, `"content": <the text of its text parts>`)
	}
	if kinds&pkFunctionCall != 0 {
		call, _, _ := geminiWords(kinds)
		fields = append(fields, `"tool_calls": [{"id": `+geminiCallID+`, "name": <name>, "arguments": <args>}, ...] from its `+call+` parts`)
	}
	if len(fields) > 0 {
		also = append(also, `send it as {"role": "`+role+`", `+strings.Join(fields, ", ")+"}")
	}
	if kinds&pkFunctionResponse != 0 {
		also = append(also, geminiResponsesFix(kinds))
	}
	return softwarn.Parts{Found: found, Expected: `a chat message {"role", "content", ...}: the platform reads a message's text from "content", not "parts"`,
		Done: dropped, Fix: strings.Join(also, ", and ")}
}

// geminiCallID is the id of a tool call made of a Gemini function_call part. Gemini's
// FunctionCall.id is optional and often absent, so the
// porter may have to make one, which the function_response that answers it then carries.
const geminiCallID = `<its id when present, else one you generate, e.g. "call_1">`

// noteParts notes kept message i, just read, when it has "parts" (Gemini's Content) or "blocks"
// (LlamaIndex's ChatMessage: {"role", "additional_kwargs", "blocks": [{"block_type": "text",
// "text"}]}) and no "content": the record keeps it, but the trace shows it without its text.
func (w *messageWalk) noteParts(n *noteRun, i int) {
	m := &w.msg
	if m.hasContent || !m.parts && !m.blocks || !n.take() {
		return
	}
	if !m.parts {
		n.add(m.start, messageAt(i).Warning(softwarn.MessageTextInParts, softwarn.Kept, softwarn.Parts{
			Found:    `"blocks" (LlamaIndex's ChatMessage, as model_dump writes it) and no "content"`,
			Expected: `the message's text in "content": the platform reads a message's text only from "content", not "blocks"`,
			Done:     textNotShown,
			Fix:      `send {"role": message.role, "content": message.content} (ChatMessage.content is the text of its text blocks)`}))
		return
	}
	var fixes []string
	if m.partKinds&pkText != 0 || m.partKinds&(pkFunctionCall|pkFunctionResponse) == 0 {
		fixes = append(fixes, `move the text of its text parts to "content": <the text>`)
	}
	if m.partKinds&pkFunctionCall != 0 {
		call, _, _ := geminiWords(m.partKinds)
		fixes = append(fixes, `move its `+call+` parts to "tool_calls": [{"id": `+geminiCallID+`, "name": <name>, "arguments": <args>}, ...]`)
	}
	if m.partKinds&pkFunctionResponse != 0 {
		fixes = append(fixes, geminiResponsesFix(m.partKinds))
	}
	n.add(m.start, messageAt(i).Warning(softwarn.MessageTextInParts, softwarn.Kept, softwarn.Parts{
		Found:    `"parts" (Gemini's Content shape) and no "content"`,
		Expected: `the message's text in "content": the platform reads a message's text only from "content", not "parts"`,
		Done:     textNotShown,
		Fix:      strings.Join(fixes, ", and ")}))
}

// textNotShown is what was done about a message whose text is not in "content".
const textNotShown = "the message was kept, but the trace shows it without its text"

// The top-level keys a porter sends a transcript under instead of "messages" are the sources'
// transcripts (transcriptNames), each with whose name it is. Rule 4 ignores them silently: the
// explain view notes the first that holds an array of objects in the shape of messages
// (holdsMessages), when the result has no "messages" (nor a variant of it, which has a note of
// its own). The list is short on purpose: each name is one that a framework gives to the
// transcript a porter has in hand.

// transcriptKey is the first top-level key of transcriptNames that holds an array of messages.
type transcriptKey struct {
	at  int // where its value starts; 0 when none was found
	key *transcriptName
}

// see looks at the top-level member name, whose value of kind k is at v.
func (t *transcriptKey) see(data, name []byte, k jsonscan.Kind, v jsonscan.Span, depth int) {
	if t.at > 0 || k != jsonscan.Array {
		return
	}
	for i := range transcriptNames {
		if key := &transcriptNames[i]; string(name) == key.key {
			if holdsMessages(data[v.Start:v.End], depth) {
				t.at, t.key = v.Start, key
			}
			return
		}
	}
}

// transcriptEntries is how many entries of an array holdsMessages looks at.
const transcriptEntries = 8

// messageKeys are keys that only a transcript's entries hold among the frameworks' shapes: a
// chat message's ("role", "content", "tool_calls", "speaker", "text"), Gemini's and Pydantic
// AI's "parts", an OpenAI Agents SDK item's ("raw_item", "call_id") and a smolagents memory
// step's ("step_number", "model_output", "observations").
var messageKeys = [...]string{"role", "content", "parts", "tool_calls", "speaker", "text", "raw_item", "call_id",
	"step_number", "model_output", "observations"}

// holdsMessages is whether the array arr holds objects in the shape of messages: one of its first
// entries has a key of messageKeys, or a LangChain message type as messages_to_dict writes it
// ({"type": "human", "data": {...}}). An array of the application's own records ({"name",
// "status"}) under a name such as "steps" or "history" is no transcript, and is not noted.
func holdsMessages(arr []byte, depth int) bool {
	var s jsonscan.Scanner
	s.Reset(arr, depth)
	n := 0
	for ok := s.ArrayStart(); ok && n < transcriptEntries; ok = s.ArrayNext() {
		n++
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			key := s.KeyName()
			v := s.SkipValue()
			if string(key) == "type" && v.Present() && arr[v.Start] == '"' {
				switch string(jsonscan.StringText(arr, v)) {
				case "human", "ai", "system", "tool":
					return true
				}
			}
			for _, m := range messageKeys {
				if string(key) == m {
					return true
				}
			}
		}
	}
	return false
}

// note is the note on the key.
func (t *transcriptKey) note() softwarn.Warning {
	name, from := t.key.key, ""
	if t.key.origin != "" {
		from = `, and "` + name + `" is ` + t.key.origin
	}
	send := `if it holds the run's transcript, send it as "messages", each entry a chat message {"role": "system", "user", "assistant" or "tool", "content": ...}`
	if t.key.fix != "" {
		send = t.key.fix
	}
	return softwarn.At(name).Warning(t.key.code, softwarn.Dropped, softwarn.Parts{
		Found:    `the key "` + name + `" holding an array of objects`,
		Expected: `"messages" (the platform reads a transcript only from "messages"` + from + `)`,
		Done:     "it was dropped with the other unknown keys, so the record has no messages and rich mode is off",
		Fix:      send})
}
