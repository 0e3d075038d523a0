package porting

import (
	"math"
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
// path only: its first few keys, a few short strings, the last value (rule 12: the last one
// counts) of each key every shape reads, and of each of the sources' fact keys (factKeys) its
// last value and where it first occurs, whatever the object's size.
type objectFacts struct {
	maxDepth   int
	keys       []string
	count      int
	variant    string
	typ, role  string
	answer     answerKey
	answerData []byte
	probe      string // the probe key rule 3's message names, for the probes; "" otherwise

	content, messages, output, message, finalOutput []byte

	// values and at are the fact keys', by their index in factKeys: the last value of each,
	// and the place (1 on) of its first occurrence among the object's keys, 0 when it has none.
	values [maxFactKeys][]byte
	at     [maxFactKeys]int32
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
// takes the key's bytes: a string made of each key would copy every key of a huge object. A
// fact key's first place is noted here.
func (f *objectFacts) slot(name []byte) (*string, *[]byte) {
	switch string(name) {
	case "type":
		return &f.typ, nil
	case "role":
		return &f.role, nil
	case "content":
		return nil, &f.content
	case "messages":
		return nil, &f.messages
	case "output":
		return nil, &f.output
	case "message":
		return nil, &f.message
	case "final_output":
		return nil, &f.finalOutput
	}
	for i, k := range factKeys {
		if string(name) == k {
			if f.at[i] == 0 {
				f.at[i] = int32(min(f.count, math.MaxInt32)) // places past MaxInt32 tie
			}
			return nil, &f.values[i]
		}
	}
	return nil, nil
}

// value is the last value of the fact key key, or nil.
func (f *objectFacts) value(key string) []byte {
	if i := factIndex(key); i >= 0 {
		return f.values[i]
	}
	return nil
}

// place is where the fact key key first occurs among the object's keys, 1 on; 0 when it does
// not.
func (f *objectFacts) place(key string) int {
	if i := factIndex(key); i >= 0 {
		return int(f.at[i])
	}
	return 0
}

// has reports whether the object has the fact key key, whatever its value.
func (f *objectFacts) has(key string) bool { return f.place(key) > 0 }

// factIndex is the index of key in factKeys, or -1.
func factIndex(key string) int {
	for i, k := range factKeys {
		if k == key {
			return i
		}
	}
	return -1
}

// missingFinalHint looks again at a result object without final_response and without the SDK's
// probe keys (those get rule 3's message), on the error path only, and says what the sender most
// likely meant: what the first result shape by rank says (resultShapes, from the surest sign to
// the weakest: final_response spelled another way; a model API's response, a framework's
// message or result object sent instead of the handler's result; a key the answer is often sent
// under; a transcript without its answer); else that final_response was left out; else which
// keys there are.
func missingFinalHint(data []byte, maxDepth int) shapeHint {
	f, ok := readFacts(data, maxDepth)
	if !ok {
		return shapeHint{}
	}
	for _, r := range resultShapes {
		if h, ok := r.hint(&f); ok {
			return h
		}
	}
	if h := f.undefinedFinalHint(); h.detail != "" {
		return h
	}
	return shapeHint{detail: ". It has " + listKeys(f.keys, f.count)}
}

// probeHint is the sentence rule 3's message may add when the probe key it names holds no text
// but the object is in a shape that says where the text is: a result shape that may hold a probe
// key, else the first probe by rank (probeShapes: a model API's response, a chat message,
// structured output that must become text). Rule 3's own text stays first and whole; this only
// adds where the text is.
func probeHint(data []byte, maxDepth int, name string) shapeHint {
	f, ok := readFacts(data, maxDepth)
	if !ok {
		return shapeHint{}
	}
	f.probe = name
	for _, r := range resultShapes {
		if !r.probe {
			continue
		}
		if h, ok := r.hint(&f); ok {
			return h
		}
	}
	for _, r := range probeShapes {
		if h, ok := r.hint(&f); ok {
			return h
		}
	}
	return shapeHint{}
}

// arrayHint looks again at a top-level array, on the error path only: what the first of the
// sources' arrays by rank says of it (a list of messages is a transcript sent without its
// answer).
func arrayHint(data []byte, maxDepth int) shapeHint {
	return firstValueHint(arrayValues, data, maxDepth)
}

// sentInstead is the hint for another API's object sent instead of the handler's result: which
// keys give it away, what it looks like and what it is, and where its text is.
func sentInstead(has, what, is, where string) shapeHint {
	fix := `send {"final_response": ` + where + `}`
	return shapeHint{detail: ". It has " + has + ": it looks like " + what + ", " + is + " rather than the handler's result", fix: fix}
}

const modelsResponse = "the model's response"

// genericResults are the shapes of a result object, and of a top-level array, that are no
// source's: final_response spelled another way, a lone assistant message, a key the answer is
// often sent under; a chat message or structured output under a probe key; a list of messages.
var genericResults = register(source{
	results: []resultShape{
		{rank: 1, hint: (*objectFacts).variantHint},
		{rank: 6, hint: (*objectFacts).assistantHint},
		{rank: 15, hint: (*objectFacts).answerHint},
	},
	probes: []resultShape{
		{rank: 4, hint: (*objectFacts).messageProbe},
		{rank: 5, hint: (*objectFacts).structuredProbe},
	},
	arrays: []valueShape{{rank: 1, hint: messageList}},
	// the plain words, which many frameworks and handlers written by hand send the answer under
	answerKeys: []string{"answer", "finalAnswer", "result"},
})

func (f *objectFacts) variantHint() (shapeHint, bool) {
	if f.variant == "" {
		return shapeHint{}, false
	}
	const fix = `send "final_response"`
	return shapeHint{detail: `. It has ` + softwarn.QuoteKey(jsonscan.Cut(f.variant, 40)) + `: keys are matched exactly, case included`, fix: fix}, true
}

// assistantHint is the result shape of a lone assistant message ("role": "assistant" and a
// "content" that holds text, no "type") sent whole where its text belongs.
func (f *objectFacts) assistantHint() (shapeHint, bool) {
	if textKind(f.content) == jsonscan.None || f.role != "assistant" || f.typ != "" {
		return shapeHint{}, false
	}
	return sentInstead(`"role": "assistant" and "content"`, "a chat message", "the model's message",
		"<"+textOf(f.content, `the message's "content"`)+">"), true
}

func (f *objectFacts) answerHint() (shapeHint, bool) {
	if f.answer.name == "" {
		return shapeHint{}, false
	}
	return f.answer.hint(f.answerData), true
}

// messageProbe is the probe shape of a chat message under "message" whose content holds text.
func (f *objectFacts) messageProbe() (shapeHint, bool) {
	if f.probe != "message" {
		return shapeHint{}, false
	}
	fix, ok := messageFix(f.message, f.maxDepth)
	if !ok {
		return shapeHint{}, false
	}
	return shapeHint{detail: `. Its "message" is a chat message, not text`, fix: fix}, true
}

// messageFix is the fix for a chat message (it has "role") sent under "message", the text of
// its content; ok is false when msg is no chat message or its content holds no text.
func messageFix(msg []byte, maxDepth int) (string, bool) {
	if member(msg, "role", maxDepth) == nil {
		return "", false
	}
	where := textOf(member(msg, "content", maxDepth), "message.content")
	if where == "" {
		return "", false
	}
	if !strings.HasPrefix(where, "message") {
		where = "<" + where + ">"
	}
	return `send {"final_response": ` + where + `}`, true
}

// structuredProbe is the probe shape of structured output: final_output or output holds an
// object (an agent SDK's output type, as openai_agents.go and pydanticai.go tell). Through
// build_response it would become final_response, an object, which rule 5 rejects as well.
func (f *objectFacts) structuredProbe() (shapeHint, bool) {
	name := f.probe
	if (name != "final_output" && name != "output") || !isObject(f.probed(name)) {
		return shapeHint{}, false
	}
	fix := `send {"final_response": <the answer as text>}, e.g. json.dumps(` + name + `) or a sentence built from it`
	return shapeHint{detail: `. Its "` + name + `" is an object (structured output), not text, and final_response must be a string`, fix: fix}, true
}

// probed is the value of the probe key name, final_output or output.
func (f *objectFacts) probed(name string) []byte {
	if name == "final_output" {
		return f.finalOutput
	}
	return f.output
}

// arraySend is the start of the fix for a list of messages sent as the result.
const arraySend = `send {"final_response": "<the agent's answer>", "messages": `

// messageList is the array shape of a list of messages (its first element has "role"), a
// transcript sent without its answer.
func messageList(list []byte, maxDepth int) (shapeHint, bool) {
	if role, _, _ := firstEntry(list, maxDepth); !role {
		return shapeHint{}, false
	}
	const fix = arraySend + `<this list>}`
	return shapeHint{detail: `; it looks like a list of messages (its first element has "role")`, fix: fix, join: ": "}, true
}

// firstEntry says what the first element of the array list has of a message's members:
// "role", "content", and the value of its last "type"; nothing when list is no array or its
// first element no object.
func firstEntry(list []byte, maxDepth int) (role, content bool, typ []byte) {
	var s jsonscan.Scanner
	s.Reset(list, maxDepth)
	if s.Peek() != jsonscan.Array || !s.ArrayStart() || s.Peek() != jsonscan.Object {
		return false, false, nil
	}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		isType := false
		switch string(s.KeyName()) {
		case "role":
			role = true
		case "content":
			content = true
		case "type":
			isType = true
		}
		if v := s.SkipValue(); isType && v.Present() {
			typ = list[v.Start:v.End]
		}
	}
	return role, content, typ
}

// lastAssistant is the last element of the array arr with "role": "assistant", or nil.
func lastAssistant(arr []byte, maxDepth int) []byte {
	return lastWhere(arr, maxDepth, func(v []byte) bool {
		return shortString(member(v, "role", maxDepth), 16) == "assistant"
	})
}

// isAssistantText reports whether msg is an assistant's message with text: role "assistant",
// or type "ai" as some sources' messages say it, and content that holds text.
func isAssistantText(msg []byte, maxDepth int) bool {
	role := shortString(member(msg, "role", maxDepth), 64)
	typ := shortString(member(msg, "type", maxDepth), 64)
	return (role == "assistant" || typ == "ai") && textKind(member(msg, "content", maxDepth)) != jsonscan.None
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
// final_response: one of the sources' answerKeys. The SDK's own attributes (final_output,
// output, message) are rule 3's.
func isAnswerKey(name []byte) bool {
	for _, k := range answerKeys {
		if string(name) == k {
			return true
		}
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

// foldsToFinalResponse reports whether name is final_response in another case or with other
// separators (Final_Response, finalResponse, final-response), without allocating.
func foldsToFinalResponse(name []byte) bool {
	return foldsTo(name, "finalresponse") && string(name) != "final_response"
}
