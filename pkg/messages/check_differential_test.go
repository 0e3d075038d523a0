package messages_test

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCheckDifferential (a reviewer's, helper-19): random messages with repeated and escaped keys against a model
// of the rules where a repeated key keeps its last value.
func TestCheckDifferential(t *testing.T) {
	type kv struct{ key, name, value string }
	keys := map[string][]string{ // name -> spellings
		"role":         {`role`, `\u0072ole`, `rol\u0065`},
		"content":      {`content`, `conten\u0074`},
		"tool_call_id": {`tool_call_id`, `tool\u005fcall_id`},
		"tool_calls":   {`tool_calls`},
		"thinking":     {`thinking`},
		"type":         {`type`},
		"":             {``},
		"x":            {`x`, `\u0078`},
	}
	values := map[string][]string{
		"role":         {`"user"`, `"assistant"`, `"tool"`, `"system"`, `"developer"`, `"\u0075ser"`, `5`, `null`, `"User"`},
		"content":      {`"hi"`, `[]`, `null`, `{}`, `5`, `true`},
		"tool_call_id": {`"a"`, `null`, `1`, `[]`},
		"tool_calls":   {`null`, `[]`, `[{"name":"f"}]`, `{}`, `5`, `[{"name":1}]`},
		"thinking":     {`null`, `[]`, `[{}]`, `["x"]`, `"x"`},
		"type":         {`"message"`, `"function_call"`},
		"":             {`1`},
		"x":            {`1`},
	}
	valid := map[string]map[string]bool{
		"role":         {`"user"`: true, `"assistant"`: true, `"tool"`: true, `"system"`: true, `"\u0075ser"`: true},
		"content":      {`"hi"`: true, `[]`: true, `null`: true},
		"tool_call_id": {`"a"`: true, `null`: true},
		"tool_calls":   {`null`: true, `[]`: true, `[{"name":"f"}]`: true},
		"thinking":     {`null`: true, `[]`: true, `[{}]`: true},
	}
	order := []string{"role", "content", "tool_call_id", "tool_calls", "thinking"}
	names := []string{"role", "content", "tool_call_id", "tool_calls", "thinking", "type", "", "x"}
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 200000; iter++ {
		n := rng.IntN(7)
		var members []kv
		last := map[string]string{}
		for range n {
			name := names[rng.IntN(len(names))]
			sp := keys[name][rng.IntN(len(keys[name]))]
			v := values[name][rng.IntN(len(values[name]))]
			members = append(members, kv{sp, name, v})
			last[name] = v
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + m.key + `":` + m.value)
		}
		b.WriteByte('}')
		msg := b.String()
		firstBad := ""
		for _, rule := range order {
			v, ok := last[rule]
			if rule == "role" && !ok {
				firstBad = "role"
				break
			}
			if ok && !valid[rule][v] {
				firstBad = rule
				break
			}
		}
		kept, w, err := checkOne(t, []byte(msg))
		if err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
		if kept != (firstBad == "") {
			t.Fatalf("%s: kept %v, model says first bad rule %q (warning %v)", msg, kept, firstBad, w)
		}
		if !kept && firstBad != "role" && !strings.HasPrefix(w.Path(), "messages[0]."+firstBad) {
			t.Fatalf("%s: warning at %s, want the %s rule: %s", msg, w.Path(), firstBad, w.Message())
		}
	}
}
