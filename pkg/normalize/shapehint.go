package normalize

import (
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// missingFinalHint looks again at a result object without final_response, on the error path
// only, and says what the sender most likely meant: a key spelled another way, a response
// object of a model API instead of the handler's result, or at least which keys there are.
func missingFinalHint(data []byte, maxDepth int) string {
	var s jsonscan.Scanner
	s.Reset(data, maxDepth)
	if s.Peek() != jsonscan.Object {
		return ""
	}
	var keys []string
	typ := ""
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := string(s.KeyName())
		v := s.SkipValue()
		if name == "type" && v.Present() && data[v.Start] == '"' {
			typ = string(jsonscan.StringText(data, v))
		}
		keys = append(keys, name)
	}
	for _, k := range keys {
		if folded(k) == "finalresponse" {
			return `. It has ` + strconv.Quote(k) + `: keys are matched exactly, case included; send "final_response"`
		}
	}
	for _, k := range keys {
		switch {
		case k == "choices":
			return `. It has "choices": it looks like an OpenAI chat completion, the model's response rather than the handler's result; send {"final_response": choices[0].message.content}`
		case k == "content" && typ == "message":
			return `. It has "type": "message" and "content": it looks like an Anthropic Messages API response, the model's response rather than the handler's result; send {"final_response": <the text of its text blocks>}`
		}
	}
	return ". It has " + listKeys(keys)
}

// folded is a key with case and separators taken out: Final_Response, finalResponse and
// final-response all fold to finalresponse.
func folded(k string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(k))
}

// listKeys names the keys an object has, the first few of them.
func listKeys(keys []string) string {
	const most = 8
	if len(keys) == 0 {
		return "no keys"
	}
	quoted := make([]string, 0, most)
	for _, k := range keys[:min(len(keys), most)] {
		if len(k) > 40 {
			k = k[:40] + "…"
		}
		quoted = append(quoted, strconv.Quote(k))
	}
	out := "the keys " + strings.Join(quoted, ", ")
	if len(keys) == 1 {
		out = "the key " + quoted[0]
	}
	if len(keys) > most {
		out += " and " + strconv.Itoa(len(keys)-most) + " more"
	}
	return out
}
