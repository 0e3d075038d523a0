package porting

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// shapeHint is what a rejection's message adds about the shape that was sent: detail, after the
// message's first clause (ResponseShapeError.Detail), and the fix it leads to ("" when it names
// none), after join ("; " when empty), which ResponseShapeError.Fix carries so that a report can
// show it in place of the general fix.
type shapeHint struct{ detail, fix, join string }

// objectFacts is what the hints read from a result object without final_response, on the error
// path only: its first few keys, a few short strings, and the last value (rule 12: the last one
// counts) of each key that marks another API's shape, whatever the object's size.
type objectFacts struct {
	maxDepth          int
	keys              []string
	count             int
	variant           string
	typ, object, role string
	answer            answerKey
	answerData        []byte
	crewKey           string // the first of CrewOutput's keys besides raw
	done              bool   // Ollama's "done"
	agentRole         bool   // CrewAI LiteAgentOutput's "agent_role"
	stopReason        bool   // AutoGen AgentChat TaskResult's "stop_reason"

	choices, candidates, content, raw, messages, output, message, outputText, finalOutput []byte

	// For the sources' result shapes (sources.go: resultShape).
	lastMessage, data, response []byte
	agentName                   bool   // "current_agent_name"
	state, steps                []byte // the Agents SDK's RunState, the AI SDK's StepResults
}

// readFacts reads the result object in data; it reports false when data is no object.
func readFacts(data []byte, maxDepth int) (objectFacts, bool) {
	const most = 8
	f := objectFacts{maxDepth: maxDepth, answerData: data}
	var s jsonscan.Scanner
	s.Reset(data, maxDepth)
	if s.Peek() != jsonscan.Object {
		return f, false
	}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := s.KeyName()
		if f.variant == "" && foldsToFinalResponse(name) {
			f.variant = string(name)
		}
		f.answer.see(name, &s)
		if f.count++; len(f.keys) < most {
			f.keys = append(f.keys, string(name))
		}
		text, value := f.slot(name)
		v := s.SkipValue()
		switch {
		case text != nil:
			*text = shortString(data[v.Start:v.End], 64) // the last occurrence wins, even when it is no short string
		case value != nil && v.Present():
			*value = data[v.Start:v.End]
		}
	}
	return f, true
}

// slot says where readFacts keeps the value of the key name: as a short string, or whole. It
// takes the key's bytes: a string made of each key would copy every key of a huge object.
func (f *objectFacts) slot(name []byte) (*string, *[]byte) {
	switch string(name) {
	case "type":
		return &f.typ, nil
	case "object":
		return &f.object, nil
	case "role":
		return &f.role, nil
	case "choices":
		return nil, &f.choices
	case "candidates":
		return nil, &f.candidates
	case "content":
		return nil, &f.content
	case "raw":
		return nil, &f.raw
	case "messages":
		return nil, &f.messages
	case "output":
		return nil, &f.output
	case "message":
		return nil, &f.message
	case "output_text":
		return nil, &f.outputText
	case "final_output":
		return nil, &f.finalOutput
	case "state":
		return nil, &f.state
	case "steps":
		return nil, &f.steps
	case "tasks_output", "json_dict", "pydantic", "token_usage":
		if f.crewKey == "" || string(name) == "tasks_output" { // the surest sign is the one named
			f.crewKey = string(name) // one of four short keys
		}
	case "lastMessage":
		return nil, &f.lastMessage
	case "data":
		return nil, &f.data
	case "response":
		return nil, &f.response
	case "current_agent_name":
		f.agentName = true
	case "done":
		f.done = true
	case "agent_role":
		f.agentRole = true
	case "stop_reason":
		f.stopReason = true
	}
	return nil, nil
}

// missingFinalHint looks again at a result object without final_response and without the SDK's
// probe keys (those get rule 3's message), on the error path only, and says what the sender most
// likely meant. The probes go from the surest sign to the weakest: final_response spelled
// another way; a model API's response or message sent instead of the handler's result (an
// OpenAI chat completion, an Anthropic message, a Gemini response, a LangChain AIMessage, a lone
// assistant message) or a framework's result object (a CrewAI CrewOutput or LiteAgentOutput); a
// key the answer is often sent under; a transcript without its answer (a LangGraph state, an
// AutoGen AgentChat TaskResult); else which keys there are.
func missingFinalHint(data []byte, maxDepth int) shapeHint {
	f, ok := readFacts(data, maxDepth)
	if !ok {
		return shapeHint{}
	}
	for _, probe := range [...]func() shapeHint{f.variantHint, f.modelHint, f.frameworkHint, f.sourceHint, f.answerHint, f.transcriptHint, f.undefinedFinalHint} {
		if h := probe(); h.detail != "" {
			return h
		}
	}
	return shapeHint{detail: ". It has " + listKeys(f.keys, f.count)}
}

// sentInstead is the hint for another API's object sent instead of the handler's result: which
// keys give it away, what it looks like and what it is, and where its text is.
func sentInstead(has, what, is, where string) shapeHint {
	fix := `send {"final_response": ` + where + `}`
	return shapeHint{detail: ". It has " + has + ": it looks like " + what + ", " + is + " rather than the handler's result", fix: fix}
}

const modelsResponse = "the model's response"

func (f *objectFacts) variantHint() shapeHint {
	if f.variant == "" {
		return shapeHint{}
	}
	const fix = `send "final_response"`
	return shapeHint{detail: `. It has ` + softwarn.QuoteKey(jsonscan.Cut(f.variant, 40)) + `: keys are matched exactly, case included`, fix: fix}
}

// modelHint recognises a model API's response: an OpenAI chat completion (not a chunk of a
// stream: its choices hold message), an Anthropic Messages API response, a Gemini
// generateContent response (its first candidate holds content). One that holds tool calls
// stopped at a tool call (stopped_tool_call.go): its text, if any, is a preamble.
func (f *objectFacts) modelHint() shapeHint {
	switch {
	case isList(f.choices) && (f.object == "chat.completion" || member(firstElement(f.choices, f.maxDepth), "message", f.maxDepth) != nil):
		if h, ok := f.chatStopped(); ok {
			return h
		}
		return sentInstead(`"choices"`, "an OpenAI chat completion", modelsResponse, "choices[0].message.content")
	case f.content != nil && f.typ == "message":
		const has, what = `"type": "message" and "content"`, "an Anthropic Messages API response"
		if text, calls := partsHold(f.content, f.maxDepth); calls {
			return stoppedResponse(has, what, "tool_use blocks", text)
		}
		return sentInstead(has, what, modelsResponse, "<the text of its text blocks>")
	case isList(f.candidates) && member(firstElement(f.candidates, f.maxDepth), "content", f.maxDepth) != nil:
		const has, what = `"candidates"`, "a Gemini generateContent response"
		parts := member(member(firstElement(f.candidates, f.maxDepth), "content", f.maxDepth), "parts", f.maxDepth)
		if text, calls := partsHold(parts, f.maxDepth); calls {
			return stoppedResponse(has, what, "function_call parts", text)
		}
		return sentInstead(has, what, modelsResponse, "<candidates[0].content.parts[*].text, joined>")
	}
	return shapeHint{}
}

// frameworkHint recognises a message or result object of a framework sent whole where its text
// belongs: a LangChain AIMessage, a lone assistant message, a CrewAI LiteAgentOutput (what
// Agent.kickoff returns: "raw", "pydantic", "agent_role", "usage_metrics", "messages") or
// CrewOutput (Crew.kickoff's: "raw" beside "tasks_output", ...). Each only when
// the value it names holds text: a hint that names an empty value would be rejected in turn
// (rule 5).
func (f *objectFacts) frameworkHint() shapeHint {
	content := textKind(f.content) != jsonscan.None
	switch {
	case content && f.typ == "ai":
		return sentInstead(`"type": "ai" and "content"`, "a LangChain AIMessage", "the model's message",
			"<"+textOf(f.content, `the AIMessage's "content"`)+">")
	case content && f.role == "assistant" && f.typ == "":
		return sentInstead(`"role": "assistant" and "content"`, "a chat message", "the model's message",
			"<"+textOf(f.content, `the message's "content"`)+">")
	case f.agentRole && textKind(f.raw) == jsonscan.String:
		return sentInstead(`"raw" and "agent_role"`, "a CrewAI LiteAgentOutput", "the agent's whole output", `<the LiteAgentOutput's "raw">`)
	case f.crewKey != "" && textKind(f.raw) == jsonscan.String:
		return sentInstead(`"raw" and `+strconv.Quote(f.crewKey), "a CrewAI CrewOutput", "the crew's whole output", `<the CrewOutput's "raw">`)
	}
	if h, ok := runStateHint(f.state, f.maxDepth); ok {
		return h
	}
	if h, ok := generateTextHint(f.steps, f.maxDepth); ok {
		return h
	}
	return shapeHint{}
}

func (f *objectFacts) answerHint() shapeHint {
	if f.answer.name == "" {
		return shapeHint{}
	}
	return f.answer.hint(f.answerData)
}

// transcriptHint recognises a transcript sent without its answer, as a LangGraph state
// ({"messages": [...]}), an AutoGen AgentChat TaskResult ({"messages": [...], "stop_reason"}) or
// a CrewAI LiteAgentOutput with an empty "raw" holds it: the answer is the last message's content when that is an assistant's text.
func (f *objectFacts) transcriptHint() shapeHint {
	if textKind(f.messages) != jsonscan.Array {
		return shapeHint{}
	}
	switch {
	case f.stopReason:
		return f.taskResultHint()
	case f.agentRole: // its "raw" holds no text, else frameworkHint named it
		return f.liteAgentHint()
	}
	answer := `"<the agent's answer>"`
	if last := lastElement(f.messages, f.maxDepth); isAssistantText(last, f.maxDepth) {
		answer = `<the content of the last message>`
	}
	fix := `send {"final_response": ` + answer + `, "messages": <this list>}`
	if _, lc := listKind(f.messages, f.maxDepth); lc != "" {
		fix = `send {"final_response": ` + answer + `, "messages": <the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`
	}
	return shapeHint{detail: `. It has "messages" but no answer: it looks like a transcript (as a LangGraph state holds it) sent without the agent's answer`, fix: fix}
}

// taskResultHint is transcriptHint's for an AutoGen AgentChat TaskResult: its messages are
// AutoGen's ({"source", "type": "TextMessage", "content"}), which the platform does not read as
// chat messages; the answer is the content of the last when that is a TextMessage's text.
func (f *objectFacts) taskResultHint() shapeHint {
	answer := `"<the agent's answer>"`
	if last := lastElement(f.messages, f.maxDepth); shortString(member(last, "type", f.maxDepth), 32) == "TextMessage" &&
		textKind(member(last, "content", f.maxDepth)) == jsonscan.String {
		answer = `result.messages[-1].content`
	}
	fix := `send {"final_response": ` + answer + `, "messages": <each of its messages as a chat message>} ` +
		`(a TextMessage as {"role": "user" or "assistant", "content": <content>}, by its source)`
	return shapeHint{detail: `. It has "messages" and "stop_reason" but no answer: it looks like an AutoGen AgentChat TaskResult (what run() returns) sent without the agent's answer`, fix: fix}
}

// liteAgentHint is transcriptHint's for a CrewAI LiteAgentOutput whose "raw" holds no text:
// its messages are chat messages ({"role", "content"}), and the answer, which "raw" would hold,
// is the content of the last assistant message when that holds text.
func (f *objectFacts) liteAgentHint() shapeHint {
	answer := `"<the agent's answer>"`
	if isAssistantText(lastAssistant(f.messages, f.maxDepth), f.maxDepth) {
		answer = `<the content of the last assistant message in its "messages">`
	}
	fix := `send {"final_response": ` + answer + `, "messages": <its "messages">}`
	return shapeHint{detail: `. It has "agent_role" and "messages" and its "raw" holds no text: it looks like a CrewAI LiteAgentOutput, ` +
		`the agent's whole output rather than the handler's result`, fix: fix}
}

// lastAssistant is the last element of the array arr with "role": "assistant", or nil.
func lastAssistant(arr []byte, maxDepth int) []byte {
	return lastWhere(arr, maxDepth, func(v []byte) bool {
		return shortString(member(v, "role", maxDepth), 16) == "assistant"
	})
}

// isAssistantText reports whether msg is an assistant's message with text: role "assistant"
// (OpenAI) or type "ai" (LangChain), and content that holds text.
func isAssistantText(msg []byte, maxDepth int) bool {
	role := shortString(member(msg, "role", maxDepth), 64)
	typ := shortString(member(msg, "type", maxDepth), 64)
	return (role == "assistant" || typ == "ai") && textKind(member(msg, "content", maxDepth)) != jsonscan.None
}

// probeHint is the sentence rule 3's message may add when the probe key it names holds no text
// but a model API's response does, where the text is: an OpenAI Responses API response (its
// "output" is a list of items) or an Ollama /api/chat response (its "message" is a message); or
// when final_output or output holds an object (structured output), that it must become text.
// Rule 3's own text stays first and whole; this only adds where the text is.
func probeHint(data []byte, maxDepth int, name string) shapeHint {
	f, ok := readFacts(data, maxDepth)
	if !ok {
		return shapeHint{}
	}
	if h := f.sourceHint(); h.detail != "" {
		return h
	}
	if h, ok := responsesStopped(f.output, maxDepth); ok && name == "output" {
		return h
	}
	switch {
	case name == "output" && isList(f.output) && bytes.Contains(f.output, []byte(`"output_text"`)):
		// Without an output_text part (only tool calls, or reasoning) there is no text to point at.
		fix := `send {"final_response": response.output_text} (the text of the output_text parts of its message items)`
		if textKind(f.outputText) == jsonscan.String { // the JavaScript SDK writes output_text into the object
			fix = `send {"final_response": <its "output_text">}`
		}
		return shapeHint{detail: `. This one looks like an OpenAI Responses API response (` + modelsResponse + ` rather than the handler's result): its "output" is a list of items, not text`, fix: fix}
	case name == "message" && member(f.message, "role", maxDepth) != nil:
		where := textOf(member(f.message, "content", maxDepth), "message.content")
		if where == "" {
			return shapeHint{}
		}
		if !strings.HasPrefix(where, "message") {
			where = "<" + where + ">"
		}
		fix := `send {"final_response": ` + where + `}`
		what := `. Its "message" is a chat message, not text`
		if f.done {
			what = `. This one looks like an Ollama /api/chat response (` + modelsResponse + ` rather than the handler's result): its "message" is a chat message, not text`
		}
		return shapeHint{detail: what, fix: fix}
	case (name == "final_output" || name == "output") && isObject(f.probed(name)):
		// Structured output (an OpenAI Agents SDK output_type, a Pydantic AI output type): through
		// build_response it would become final_response, an object, which rule 5 rejects as well.
		fix := `send {"final_response": <the answer as text>}, e.g. json.dumps(` + name + `) or a sentence built from it`
		return shapeHint{detail: `. Its "` + name + `" is an object (structured output), not text, and final_response must be a string`, fix: fix}
	}
	return shapeHint{}
}

// probed is the value of the probe key name, final_output or output.
func (f *objectFacts) probed(name string) []byte {
	if name == "final_output" {
		return f.finalOutput
	}
	return f.output
}

// answerKey is a key that other frameworks, or handlers written by hand, put the answer
// under, and what its value is.
type answerKey struct {
	name string
	kind jsonscan.Kind
	at   int // where its value starts
}

// see takes in the key name, whose value s is at: the first answer key is the one named, and
// its last occurrence says what it holds, since the last one wins (rule 12).
func (a *answerKey) see(name []byte, s *jsonscan.Scanner) {
	switch {
	case a.name == "" && isAnswerKey(name):
		a.name = string(name)
	case a.name == "" || string(name) != a.name:
		return
	}
	a.kind, a.at = s.Peek(), s.Pos()
}

// isAnswerKey reports whether name is a key the answer is often sent under instead of
// final_response: DSPy's answer, smolagents' final_answer, LlamaIndex's and Ollama's
// response, and result. The SDK's own attributes (final_output, output, message) are rule 3's.
func isAnswerKey(name []byte) bool {
	switch string(name) {
	case "answer", "final_answer", "finalAnswer", "response", "result":
		return true
	}
	return false
}

// hint says what to do with the answer key: rename it when it holds text, else say what it
// holds.
func (a answerKey) hint(data []byte) shapeHint {
	key := softwarn.QuoteKey(a.name)
	var found, fix string
	switch {
	case a.kind == jsonscan.String && data[a.at+1] == '"':
		found, fix = ", which holds an empty string", `send the agent's answer, not empty, as "final_response"`
	case a.kind == jsonscan.String:
		found, fix = ", which holds a string", `rename the key to "final_response"`
	default:
		found, fix = ", which holds "+a.kind.Describe()+", not the answer's text", `send the text as "final_response"`
	}
	return shapeHint{detail: ". It has " + key + found, fix: fix, join: ": "}
}

// arrayHint looks again at a top-level array, on the error path only: a list of messages (an
// OpenAI messages list, the Agents SDK's to_input_list(), LangGraph's state["messages"]) is
// a transcript sent without its answer.
func arrayHint(data []byte, maxDepth int) shapeHint {
	const send = `send {"final_response": "<the agent's answer>", "messages": `
	switch role, typ := listKind(data, maxDepth); {
	case role:
		fix := send + `<this list>}`
		return shapeHint{detail: `; it looks like a list of messages (its first element has "role")`, fix: fix, join: ": "}
	case typ != "":
		fix := send + `<the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`
		return shapeHint{detail: `; it looks like a list of LangChain messages (its first element has "type": ` + strconv.Quote(typ) + `)`, fix: fix, join: ": "}
	}
	return shapeHint{}
}

// listKind says what the first element of the array list is: a message with "role", or a
// LangChain message (content, and a type of human, ai, system or tool), whose type it gives.
func listKind(list []byte, maxDepth int) (role bool, langChain string) {
	var s jsonscan.Scanner
	s.Reset(list, maxDepth)
	if s.Peek() != jsonscan.Array || !s.ArrayStart() || s.Peek() != jsonscan.Object {
		return false, ""
	}
	content, typ := false, ""
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := string(s.KeyName())
		v := s.SkipValue()
		switch {
		case name == "role":
			role = true
		case name == "content":
			content = true
		case name == "type" && v.Present():
			typ = shortString(list[v.Start:v.End], 16)
		}
	}
	if role || !content {
		return role, ""
	}
	switch typ {
	case "human", "ai", "system", "tool":
		return false, typ
	}
	return false, ""
}

// foldsToFinalResponse reports whether name is final_response in another case or with other
// separators (Final_Response, finalResponse, final-response), without allocating.
func foldsToFinalResponse(name []byte) bool {
	return foldsTo(name, "finalresponse") && string(name) != "final_response"
}
