package normalize

import (
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// missingFinalHint looks again at a result object without final_response, on the error path
// only, and says what the sender most likely meant: a key spelled another way, a response
// object of a model API instead of the handler's result, or at least which keys there are. It
// keeps the first few keys and a few facts, whatever the object's size.
func missingFinalHint(data []byte, maxDepth int) string {
	const most = 8
	var s jsonscan.Scanner
	s.Reset(data, maxDepth)
	if s.Peek() != jsonscan.Object {
		return ""
	}
	var (
		keys                      []string
		count                     int
		variant, typ, object      string
		choices, messageInChoices bool
		content                   bool
		answer                    answerKey
	)
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := s.KeyName()
		if variant == "" && foldsToFinalResponse(name) {
			variant = string(name)
		}
		answer.see(name, &s)
		if count++; len(keys) < most {
			keys = append(keys, string(name))
		}
		var text *string // where the value goes, when it is a short string that matters
		isChoices := false
		switch string(name) {
		case "type":
			text = &typ
		case "object":
			text = &object
		case "choices":
			isChoices = true
		case "content":
			content = true
		}
		v := s.SkipValue()
		switch {
		case text != nil:
			*text = "" // the last occurrence wins (rule 12), even when it is not a short string
			if v.Present() && data[v.Start] == '"' && v.End-v.Start < 64 {
				*text = string(jsonscan.StringText(data, v))
			}
		case isChoices: // the last occurrence wins here too: a list, or nothing of a completion
			choices = v.Present() && data[v.Start] == '['
			messageInChoices = choices && firstHasKey(data[v.Start:v.End], "message", maxDepth)
		}
	}
	switch {
	case variant != "":
		return `. It has ` + softwarn.QuoteKey(jsonscan.Cut(variant, 40)) + `: keys are matched exactly, case included; send "final_response"`
	case choices && (object == "chat.completion" || messageInChoices):
		return `. It has "choices": it looks like an OpenAI chat completion, the model's response rather than ` +
			`the handler's result; send {"final_response": choices[0].message.content}`
	case content && typ == "message":
		return `. It has "type": "message" and "content": it looks like an Anthropic Messages API response, ` +
			`the model's response rather than the handler's result; send {"final_response": <the text of its text blocks>}`
	case answer.name != "":
		return answer.hint(data)
	}
	return ". It has " + listKeys(keys, count)
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
func (a answerKey) hint(data []byte) string {
	key := softwarn.QuoteKey(a.name)
	switch {
	case a.kind == jsonscan.String && data[a.at+1] == '"':
		return ". It has " + key + `, which holds an empty string: send the agent's answer, not empty, as "final_response"`
	case a.kind == jsonscan.String:
		return ". It has " + key + `, which holds a string: rename the key to "final_response"`
	}
	return ". It has " + key + ", which holds " + a.kind.Describe() + `, not the answer's text: send the text as "final_response"`
}

// arrayHint looks again at a top-level array, on the error path only: a list of messages (an
// OpenAI messages list, the Agents SDK's to_input_list(), LangGraph's state["messages"]) is
// a transcript sent without its answer.
func arrayHint(data []byte, maxDepth int) string {
	var s jsonscan.Scanner
	s.Reset(data, maxDepth)
	if s.Peek() != jsonscan.Array || !s.ArrayStart() || s.Peek() != jsonscan.Object {
		return ""
	}
	role, content, typ := false, false, ""
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := string(s.KeyName())
		v := s.SkipValue()
		switch {
		case name == "role":
			role = true
		case name == "content":
			content = true
		case name == "type" && data[v.Start] == '"' && v.End-v.Start < 16:
			typ = string(jsonscan.StringText(data, v))
		}
	}
	const send = `send {"final_response": "<the agent's answer>", "messages": `
	switch {
	case role:
		return `; it looks like a list of messages (its first element has "role"): ` + send + `<this list>}`
	case content && (typ == "human" || typ == "ai" || typ == "system" || typ == "tool"):
		return `; it looks like a list of LangChain messages (its first element has "type": ` + strconv.Quote(typ) + `): ` + send +
			`<the list as OpenAI messages>} (langchain_core.messages.convert_to_openai_messages converts it)`
	}
	return ""
}

// foldsToFinalResponse reports whether name is final_response in another case or with other
// separators (Final_Response, finalResponse, final-response), without allocating.
func foldsToFinalResponse(name []byte) bool {
	return foldsTo(name, "finalresponse") && string(name) != "final_response"
}

// firstHasKey reports whether the array arr's first element is an object with the key key.
func firstHasKey(arr []byte, key string, maxDepth int) bool {
	var s jsonscan.Scanner
	s.Reset(arr, maxDepth)
	if !s.ArrayStart() || s.Peek() != jsonscan.Object {
		return false
	}
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		if string(s.KeyName()) == key {
			return true
		}
		s.SkipValue()
	}
	return false
}

// listKeys names the first keys of an object that has count of them.
func listKeys(keys []string, count int) string {
	if count == 0 {
		return "no keys"
	}
	quoted := make([]string, 0, len(keys))
	for _, k := range keys {
		quoted = append(quoted, strconv.Quote(jsonscan.Cut(k, 40)))
	}
	if count == 1 {
		return "the key " + quoted[0]
	}
	out := "the keys " + strings.Join(quoted, ", ")
	if count > len(keys) {
		out += " and " + strconv.Itoa(count-len(keys)) + " more"
	}
	return out
}
