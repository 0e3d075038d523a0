package porting

import (
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// A model's response or message whose last turn asks for a tool call holds no answer: the
// agent stopped at a tool call, and what text it has ("Let me look up order 4521.") is a
// preamble the model wrote before the call. A hint that pointed at that text, or at a content
// that is null, would have the porter send the preamble, or nothing, as the answer. These
// recognisers tell it so and ask for the answer the agent gives after the tool round. Each is
// sure of the shape: the call is in the response's own list of calls (a chat message's
// tool_calls, a source's content blocks or parts that call a tool, an output list that ends in
// a call item), never guessed from the text. The sources' files recognise their responses
// (openai_chat.go, openai_responses.go, and the model responses of shapehint.go); this file
// holds what every such hint says.

// stoppedFix is the fix of every stopped-at-a-tool-call hint.
const stoppedFix = `send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`

// stoppedAt is the sentence that says what the calls are, whether the response has text
// beside them (a preamble, not an answer) and that the agent stopped at a tool call.
func stoppedAt(calls string, text bool) string {
	if text {
		return "and it ends in " + calls + ": its text is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call"
	}
	return "and it has no text, only " + calls + ": the agent stopped at a tool call"
}

// stoppedResponse is the hint for a model's response, with the keys has, that looks like what
// and holds calls, with text beside them or none.
func stoppedResponse(has, what, calls string, text bool) shapeHint {
	return shapeHint{detail: ". It has " + has + ": it looks like " + what + ", " + modelsResponse + " rather than the handler's result, " +
		stoppedAt(calls, text), fix: stoppedFix}
}

// messageStopped is finalValueHint's for a chat message sent as final_response that asks for
// tool calls ("role" and a non-empty "tool_calls"): choices[0].message of a completion that
// stopped at a tool call.
func messageStopped(obj []byte, maxDepth int) (shapeHint, bool) {
	if member(obj, "role", maxDepth) == nil || textKind(member(obj, "tool_calls", maxDepth)) != jsonscan.Array {
		return shapeHint{}, false
	}
	return shapeHint{detail: `. It has "role" and "tool_calls": it looks like a chat message that asks for a tool call rather than an answer: the agent stopped at a tool call`,
		fix: stoppedFix}, true
}

// undefinedFinalHint is missingFinalHint's for a result object that has only the contract's
// other keys (metadata, messages): final_response is the key that is missing, as
// JSON.stringify leaves out a key whose value is undefined (a response's text is undefined
// when the model wrote none, as when it stopped at a tool call) and a dict's encoder never
// does. It names no value to send.
func (f *objectFacts) undefinedFinalHint() shapeHint {
	if f.count == 0 || f.count > len(f.keys) {
		return shapeHint{}
	}
	meta := false
	for _, k := range f.keys {
		if k != "metadata" && k != "messages" {
			return shapeHint{}
		}
		meta = meta || k == "metadata"
	}
	if !meta { // {"messages": []} alone is a transcript without its answer
		return shapeHint{}
	}
	return shapeHint{detail: `. It has ` + listKeys(f.keys, f.count) + ` and no other: final_response was left out, as JSON.stringify leaves out a key whose value is undefined ` +
		`(a response's text is undefined when the model wrote none, e.g. when the agent stopped at a tool call)`,
		fix: `send a non-empty final_response: the agent's answer, after the tool round when it stopped at a tool call, or a sentence saying what it did`}
}

// The contract fixes the message of an empty or null final_response (rule 5), so no hint can
// be added to it. The transcript often shows why it is empty, and the advice says so beside the
// message (normalize.ResponseShapeError.Advice, the error object's "advice" in the explain
// view): the last turn that is not a tool's result asks for a tool call (the agent stopped at a
// tool call: a chat message's tool_calls, or a source's call item, block, part or step), or it
// is an assistant's answer that final_response left out. Each is read from the call's own place
// in the shape, never guessed from text, by the sources' turn shapes (turnShapes); the fix is in
// the words of the SDK the shape is.

// emptyFinalAdvice is the advice on the rejection of an empty or null final_response (got is
// the ResponseShapeError's Got), or nil when the transcript shows no reason. input is the
// result; the last "messages" counts (rule 12).
func emptyFinalAdvice(input []byte, maxDepth int, got string) *softwarn.Warning {
	msgs := member(input, "messages", maxDepth)
	var last turn
	results := false // tool results follow the last turn
	eachElement(msgs, maxDepth, func(i int, v []byte) bool {
		t := readTurn(v, maxDepth)
		switch {
		case t.result:
			results = true
		case t.kind != turnNone || t.other:
			last, results = t, false
			last.at = i
		}
		return true
	})
	empty := "empty"
	if got == "null" {
		empty = "null"
	}
	loc := softwarn.At("messages").Index(last.at)
	switch last.kind {
	case turnCall:
		p := "the transcript's last turn is " + last.what + ", and no answer follows it"
		if results {
			p += " (only tool results)"
		}
		if last.text {
			p += ": its text is the preamble the model wrote before the call, not an answer"
		}
		w := loc.Warning(softwarn.FinalResponseStoppedAtToolCall, "", softwarn.Parts{
			Problem: p + ": the agent stopped at a tool call, and final_response is " + empty,
			Fix:     "run the loop until the model answers (" + last.loop + "), then send " + last.answer})
		return &w
	case turnAnswer:
		w := loc.Warning(softwarn.FinalResponseAnswerInMessages, "", softwarn.Parts{
			Problem: "final_response is " + empty + ", but the transcript's last turn is " + last.what + ": it looks like the answer",
			Fix:     `send {"final_response": <` + last.answerAt("messages["+strconv.Itoa(last.at)+"]") + `>}`})
		return &w
	}
	return nil
}

// turnKind is what one turn of a transcript is, as emptyFinalAdvice reads it.
type turnKind uint8

const (
	turnNone   turnKind = iota
	turnCall            // it asks for tool calls
	turnAnswer          // an assistant's text, and no tool call
)

// turn is one element of messages: a tool call, an answer, a tool's result, another turn
// (other: a user's, say), or nothing recognised.
type turn struct {
	at     int
	kind   turnKind
	result bool // a tool's result: a tool message, a source's result item or blocks
	other  bool // a turn that is neither: the user's, the system's
	text   bool // a call turn has text beside its calls
	what   string
	loop   string // how to run the loop on, in the SDK's words (turnCall)
	answer string // what to send, its text as the SDK names it (turnCall)
	// in is where the answer is in the element, after its place (".content"), and joined
	// says it is the text of the parts there, joined (turnAnswer): the engine says where, so
	// that reading a turn makes no string.
	in     string
	joined bool
}

// answerAt is where an answer turn's answer is, the element being at ref (messages[3]).
func (t turn) answerAt(ref string) string {
	if t.joined {
		return `the "text" of ` + ref + t.in + `, joined`
	}
	return ref + t.in
}

// turnFacts is what the engine reads once of an object of messages, in one walk of its
// members, for the sources' turn shapes: its role and type when they are short strings (nil
// otherwise), its content and tool_calls, and the element itself.
type turnFacts struct {
	v, role, typ, content, calls []byte
	maxDepth                     int
}

// turnFactsOf reads the facts of v, an object of messages. One scanner reads every member, so
// that a member with nested values costs one allocation of its stack, not one per key read.
func turnFactsOf(v []byte, maxDepth int) turnFacts {
	e := turnFacts{v: v, maxDepth: maxDepth}
	var s jsonscan.Scanner
	s.Reset(v, maxDepth)
	if s.Peek() != jsonscan.Object {
		return e
	}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		key := s.KeyName()
		sp := s.SkipValue()
		if !sp.Present() {
			continue
		}
		switch val := v[sp.Start:sp.End]; string(key) { // the last of a key, as member reads it
		case "role":
			e.role = shortToken(val, 16)
		case "type":
			e.typ = shortToken(val, 32)
		case "content":
			e.content = val
		case "tool_calls":
			e.calls = val
		}
	}
	return e
}

// turn is what the first turn shape, by rank, that recognises the element says, or another
// turn.
func (e turnFacts) turn() turn {
	for i := range turnShapes {
		switch s := &turnShapes[i]; {
		case s.part != "":
			if string(e.role) == "assistant" && e.holdsPart(s.part) {
				t := s.call
				t.text = hasText(e.content, e.maxDepth)
				return t
			}
		default:
			if t, ok := s.read(e); ok {
				return t
			}
		}
	}
	return turn{other: true}
}

// readTurn reads one element of messages.
func readTurn(v []byte, maxDepth int) turn {
	if !isObject(v) {
		return turn{}
	}
	return turnFactsOf(v, maxDepth).turn()
}

// The generic turn shapes, no source's: a tool message, a turn of another role than the
// assistant's, an assistant message with tool_calls, and one with text.

// toolTurn is a tool's result: role "tool", or "function" (its older name).
func toolTurn(e turnFacts) (turn, bool) {
	return turn{result: true}, string(e.role) == "tool" || string(e.role) == "function"
}

// otherTurn is a message of another role than the assistant's (the user's, the system's).
func otherTurn(e turnFacts) (turn, bool) { return turn{other: true}, string(e.role) != "assistant" }

// callsTurn is an assistant message with tool_calls.
func callsTurn(e turnFacts) (turn, bool) {
	if textKind(e.calls) != jsonscan.Array {
		return turn{}, false
	}
	return turn{kind: turnCall, text: e.saysText(), what: "an assistant message with tool_calls", answer: "the model's answer",
		loop: "send each tool call's result back as a tool message and call the model again, until its message has no tool_calls"}, true
}

// textTurn is an assistant message whose content is text.
func textTurn(e turnFacts) (turn, bool) {
	return turn{kind: turnAnswer, what: "an assistant message with text", in: ".content"},
		textKind(e.content) == jsonscan.String && !blank(e.content)
}

// partsTextTurn is an assistant message whose content holds text parts ("text",
// "output_text"), and, by rank, none that calls a tool.
func partsTextTurn(e turnFacts) (turn, bool) {
	return turn{kind: turnAnswer, what: "an assistant message with text", in: ".content's text parts", joined: true},
		hasText(e.content, e.maxDepth)
}

// saysText reports whether the element's content holds text: a string that is not blank, or
// text parts.
func (e turnFacts) saysText() bool {
	return textKind(e.content) == jsonscan.String && !blank(e.content) || hasText(e.content, e.maxDepth)
}

// isCallPart reports whether typ is the type of a content part that calls a tool.
func isCallPart(typ []byte) bool {
	for _, p := range callParts {
		if string(typ) == p {
			return true
		}
	}
	return false
}

// holdsPart reports whether the element's content is a list with a part of type typ.
func (e turnFacts) holdsPart(typ string) bool {
	found := false
	eachElement(e.content, e.maxDepth, func(_ int, part []byte) bool {
		found = string(shortToken(member(part, "type", e.maxDepth), 16)) == typ
		return !found
	})
	return found
}

// hasText reports whether a list of parts holds a part of type "text" or "output_text" with
// text that is not blank.
func hasText(list []byte, maxDepth int) bool {
	i, _ := textParts(list, "text", maxDepth)
	j, _ := textParts(list, "output_text", maxDepth)
	return i >= 0 || j >= 0
}

// rejectionAdvice is Hint's for a rejection whose message the contract fixes.
func rejectionAdvice(e *normalize.ResponseShapeError, input []byte, maxDepth int) {
	if e.Problem != normalize.EmptyResponseMessage {
		return
	}
	e.Advice = emptyFinalAdvice(input, maxDepth, e.Got)
}
