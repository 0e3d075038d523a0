package sdkcorpus_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// frameworks are the SDKs and frameworks advice may name, each with the words that name it.
var frameworks = []struct {
	id string
	re *regexp.Regexp
}{
	{"openai-responses", regexp.MustCompile(`OpenAI Responses`)},
	{"openai-agents", regexp.MustCompile(`Agents SDK|RunResult`)},
	{"openai-chat", regexp.MustCompile(`OpenAI chat completion|OpenAI Chat Completions|ChatCompletion|OpenAI's(?: legacy| "developer")?`)},
	{"anthropic", regexp.MustCompile(`Anthropic`)},
	{"gemini", regexp.MustCompile(`Gemini`)},
	{"langchain", regexp.MustCompile(`LangChain|langchain_core|LangGraph`)},
	{"ai-sdk", regexp.MustCompile(`AI SDK`)},
	{"mistral", regexp.MustCompile(`Mistral`)},
	{"llamaindex", regexp.MustCompile(`LlamaIndex`)},
	{"pydantic-ai", regexp.MustCompile(`Pydantic AI`)},
	{"autogen", regexp.MustCompile(`AutoGen`)},
	{"crewai", regexp.MustCompile(`CrewAI`)},
	{"strands", regexp.MustCompile(`Strands`)},
	{"smolagents", regexp.MustCompile(`smolagents`)},
	{"ollama", regexp.MustCompile(`Ollama`)},
}

// allowed are the names that are right for a source: its own, and those of the API it is
// built on or speaks (the Agents SDK runs on the Responses API; Mistral's chat API is a chat
// completions API).
func allowed(sdk string) map[string]bool {
	switch sdk {
	case "openai-agents":
		return map[string]bool{"openai-agents": true, "openai-responses": true}
	case "mistral":
		return map[string]bool{"mistral": true, "openai-chat": true}
	}
	return map[string]bool{sdk: true}
}

// named are the frameworks text names, in the table's order.
func named(text string) []string {
	var ids []string
	for _, f := range frameworks {
		if f.re.MatchString(text) {
			ids = append(ids, f.id)
			text = f.re.ReplaceAllString(text, "")
		}
	}
	return ids
}

// checkFramework (b): advice that names SDKs names the input's among them.
func checkFramework(c *sdkCase, v view, _ any) []string {
	var p []string
	ok := allowed(c.Meta.Source.SDK)
	for _, a := range v.Advice {
		ids := named(a.Text)
		right := len(ids) == 0
		for _, id := range ids {
			right = right || ok[id]
		}
		if !right {
			p = append(p, fmt.Sprintf("%s at %q names %s for a %s object: %s", a.Code, a.Pointer, strings.Join(ids, ", "), c.Meta.Source.SDK, a.Text))
		}
	}
	return p
}

// checkNamesSource (b): a message that was dropped is an SDK's object; the advice about it
// says whose, so that the porter gets that SDK's conversion rather than the generic rules.
func checkNamesSource(c *sdkCase, v view, _ any) []string {
	var p []string
	ok := allowed(c.Meta.Source.SDK)
	for _, msg := range droppedMessages(v) {
		recognised := false
		for _, a := range adviceAt(v, msg) {
			for _, id := range named(a.Text) {
				recognised = recognised || ok[id]
			}
		}
		if !recognised {
			p = append(p, fmt.Sprintf("%s was dropped and no advice about it names %s: %s", msg, c.Meta.Source.SDK, firstText(adviceAt(v, msg))))
		}
	}
	return p
}

var messageRe = regexp.MustCompile(`^/messages/\d+`)

// droppedMessages are the pointers of the messages a warning dropped, in order.
func droppedMessages(v view) []string {
	var ptrs []string
	seen := map[string]bool{}
	for _, a := range v.Advice {
		m := messageRe.FindString(a.Pointer)
		if a.Action == "dropped" && m != "" && !seen[m] {
			seen[m] = true
			ptrs = append(ptrs, m)
		}
	}
	return ptrs
}

// adviceAt is the advice at ptr or under it.
func adviceAt(v view, ptr string) []advice {
	var as []advice
	for _, a := range v.Advice {
		if a.Pointer == ptr || strings.HasPrefix(a.Pointer, ptr+"/") {
			as = append(as, a)
		}
	}
	return as
}

func firstText(as []advice) string {
	if len(as) == 0 {
		return "(no advice)"
	}
	return as[0].Text
}

// Helpers and APIs of one language only. A fix that names one of another language than the
// input's is wrong, unless it gives the input's language's form as well.
var (
	pythonOnly = regexp.MustCompile(`json\.dumps|model_dump|messages_to_dict|messages_from_dict|convert_to_openai_messages|langchain_core\.|to_input_list|\bfinal_output\b|\bnew_items\b|\[-1\]|\bstr\(|\brepr\(`)
	jsOnly     = regexp.MustCompile(`JSON\.stringify|\.toJSON\(|\bString\(|\bfinalOutput\b|\bnewItems\b|mapChatMessagesToStoredMessages|mapStoredMessagesToChatMessages`)
	// Per SDK: names the Python SDK gives what the JS SDK (and Gemini's wire) spell in camelCase.
	pythonOnlyBySDK = map[string]*regexp.Regexp{
		"gemini": regexp.MustCompile(`\bfunction_call\b|\bfunction_response\b|\busage_metadata\b`),
	}
)

// checkLanguage (c): the fix speaks the input's language.
func checkLanguage(c *sdkCase, v view, _ any) []string {
	var p []string
	lang := c.Meta.Source.Language
	for _, a := range v.Advice {
		var wrong []string
		switch lang {
		case "javascript":
			if !jsOnly.MatchString(a.Fix) {
				wrong = pythonOnly.FindAllString(a.Fix, -1)
				if re := pythonOnlyBySDK[c.Meta.Source.SDK]; re != nil {
					wrong = append(wrong, re.FindAllString(a.Fix, -1)...)
				}
			}
		case "python":
			if !pythonOnly.MatchString(a.Fix) {
				wrong = jsOnly.FindAllString(a.Fix, -1)
			}
		}
		if len(wrong) > 0 {
			p = append(p, fmt.Sprintf("%s at %q tells a %s handler to use %s: %s", a.Code, a.Pointer, lang, strings.Join(wrong, ", "), a.Fix))
		}
	}
	return p
}

// answerPath is the path of keys to the first string under v that holds answer.
func answerPath(v any, answer string) ([]string, bool) {
	switch x := v.(type) {
	case string:
		if p, ok := parseText(x); ok {
			return answerPath(p, answer)
		}
		return nil, strings.Contains(x, answer)
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if path, ok := answerPath(x[k], answer); ok {
				return append([]string{k}, path...), true
			}
		}
	case []any:
		for i, e := range x {
			if path, ok := answerPath(e, answer); ok {
				return append([]string{fmt.Sprint(i)}, path...), true
			}
		}
	}
	return nil, false
}

// saysWhere reports whether a fix tells where the answer is: it names a key on the path to
// it (a word of the fix), or names a value that holds it.
func saysWhere(a advice, path []string, rs []any, answer string) bool {
	for _, k := range path {
		if k != "" && (k[0] < '0' || k[0] > '9') && regexp.MustCompile(`\b`+regexp.QuoteMeta(k)+`\b`).MatchString(a.Fix) {
			return true
		}
	}
	for _, r := range references(a.Fix) {
		if strings.Contains(allText(lookup(r, rs)), answer) {
			return true
		}
	}
	return false
}

// checkAnswerNotLost (d): where the record leaves out the text of the answer (a dropped
// message, a rejected result, a top-level key it ignores, a final_response that holds an
// object's text rather than the answer), some advice at that place says where the answer is.
func checkAnswerNotLost(c *sdkCase, v view, in any) []string {
	var p []string
	fr, _ := at(in, "/final_response")
	notAnswer := c.Meta.Expect.FinalResponseIsAnswer != nil && !*c.Meta.Expect.FinalResponseIsAnswer
	if notAnswer && !v.Rejected && len(adviceAt(v, "/final_response")) == 0 {
		return append(p, fmt.Sprintf("final_response is not the answer (%s) and no advice says so", c.Meta.Serialized))
	}
	ans := c.Meta.Expect.Answer
	if ans == nil {
		return p
	}
	places := map[string]any{}
	if v.Rejected {
		// A rejection at final_response concerns its value when there is one, else the
		// result object that lacks it.
		places[v.Advice[0].Pointer] = in
		if _, has := at(in, "/final_response"); has && v.Advice[0].Pointer == "/final_response" {
			places[v.Advice[0].Pointer] = fr
		}
	} else {
		for _, m := range droppedMessages(v) {
			places[m], _ = at(in, m)
		}
		if obj, ok := in.(map[string]any); ok {
			for k, val := range obj {
				if k != "final_response" && k != "messages" && k != "metadata" {
					places["/"+k] = val
				}
			}
		}
		if notAnswer {
			places["/final_response"] = fr
		}
	}
	for ptr, val := range places {
		path, ok := answerPath(val, *ans)
		if !ok {
			continue
		}
		if ptr == "" && len(path) > 0 && path[0] == "final_response" {
			path = path[1:]
		}
		said := false
		for _, a := range adviceAt(v, ptr) {
			said = said || saysWhere(a, path, roots(a, in), *ans)
		}
		if !said {
			p = append(p, fmt.Sprintf("the answer is at %s%s and no advice at %q says so: %s", ptr, "/"+strings.Join(path, "/"), ptr, firstText(adviceAt(v, ptr))))
		}
	}
	return p
}

var (
	renameRe = regexp.MustCompile(`rename it "(total_input_tokens|total_output_tokens)"`)
	copyRe   = regexp.MustCompile(`"(\w+)" to "(total_input_tokens|total_output_tokens)"`)
	sumRe    = regexp.MustCompile(`set "(total_input_tokens|total_output_tokens)" to the sum [^;]*= (\d+)`)
)

// checkTokenTotals: a count the advice says to send as a total is the run's true total (an
// output count that leaves out reasoning or thinking tokens is not).
func checkTokenTotals(c *sdkCase, v view, in any) []string {
	want := map[string]*int64{"total_input_tokens": c.Meta.Expect.TotalInputTokens, "total_output_tokens": c.Meta.Expect.TotalOutputTokens}
	var p []string
	for _, a := range v.Advice {
		if !strings.HasPrefix(a.Pointer, "/metadata/") {
			continue
		}
		sent := map[string]string{}
		if m := sumRe.FindStringSubmatch(a.Fix); m != nil {
			sent[m[1]] = m[2]
		} else if m := renameRe.FindStringSubmatch(a.Fix); m != nil {
			if val, ok := at(in, a.Pointer); ok {
				sent[m[1]] = fmt.Sprint(val)
			}
		} else {
			for _, m := range copyRe.FindAllStringSubmatch(a.Fix, -1) {
				if val, ok := at(in, a.Pointer+"/"+m[1]); ok {
					sent[m[2]] = fmt.Sprint(val)
				}
			}
		}
		for key, got := range sent {
			w := want[key]
			if w == nil {
				continue
			}
			if n, err := json.Number(got).Int64(); err != nil || n != *w {
				p = append(p, fmt.Sprintf("%s at %q leads to %s = %s, but the run's total is %d: %s", a.Code, a.Pointer, key, got, *w, a.Fix))
			}
		}
	}
	return p
}
