package porting

import (
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
	start    int
	role     jsonscan.Span // the string token, absent when missing, null or not a string
	noRole   bool          // missing or null
	typ      jsonscan.Span // "type", a string token
	source   jsonscan.Span // "source", a string token
	kind     jsonscan.Span // "kind", a string token
	parts    bool          // "parts" is an array
	kinds    partKinds
	data     bool          // "data" is an object (LangChain's messages_to_dict)
	step     bool          // "step_number" is a number
	stepOut  bool          // "model_output", "observations" or "tool_calls" beside it (readDropped reads the last)
	object   jsonscan.Span // "object", a string token
	choices  bool          // "choices" is an array
	other    bool          // a member that is not one of a chat stream delta's (isDeltaKey)
	kwargs   bool          // "kwargs" is an object
	classID  jsonscan.Span // "id" when it is an array (a serialized class's path)
	stepNum  bool          // "stepNumber" is a number
	rawItem  bool          // "rawItem" or "raw_item" is an object
	rawCamel bool          // and is spelled "rawItem"
	raw      bool          // "raw" is a string (a CrewAI TaskOutput's)
	agent    bool          // "agent" is a string
	expected bool          // "expected_output" or "description" is present
	history  bool          // "messages" is an array that is not empty
}

// noteForeign notes dropped message i, whose facts are f, when it is in the shape of another
// framework's message. The note is built only when it is listed: a transcript of a million
// dropped messages is counted past the limit, not written out.
func (w *messageWalk) noteForeign(n *noteRun, i int, f *foreignFacts) {
	if shape := w.messageShapeOf(f); shape != nil && n.take() {
		n.add(f.start, messageAt(i).Warning(shape.code, softwarn.Dropped, shape.note(w, *f)))
	}
}

// messageShapeOf is the sources' message shape f is in, of the lowest rank among those it
// matches; nil when none, or when the message's own warning says all there is (a role out of
// the set, which no shape of a message without a role matches).
func (w *messageWalk) messageShapeOf(f *foreignFacts) *messageShape {
	var best *messageShape
	for _, s := range sources {
		for j := range s.messages {
			if sh := &s.messages[j]; (best == nil || sh.rank < best.rank) && sh.is(w, *f) {
				best = sh
			}
		}
	}
	return best
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
	case "object":
		f.object = w.stringAt(v)
	case "choices":
		f.choices = k == jsonscan.Array
	case "kwargs":
		f.kwargs = k == jsonscan.Object
	case "id":
		if k == jsonscan.Array {
			f.classID = v
		}
	case "stepNumber":
		f.stepNum = k == jsonscan.Number
	case "rawItem", "raw_item":
		f.rawItem, f.rawCamel = k == jsonscan.Object, string(key) == "rawItem"
	case "raw":
		f.raw = k == jsonscan.String
	case "agent":
		f.agent = k == jsonscan.String
	case "expected_output", "description":
		f.expected = true
	case "messages":
		f.history = textKind(w.data[v.Start:v.End]) == jsonscan.Array
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
			Fix:      `send {"role": <its "role">, "content": <the text of its text blocks, joined>} (in Python, ChatMessage.content gives that text)`}))
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
var messageKeys = [...]string{"role", "content", "parts", "tool_calls", "speaker", "text", "raw_item", "call_id", "rawItem", "callId",
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
