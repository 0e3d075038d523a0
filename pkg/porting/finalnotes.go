package porting

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// finalNotes notes a final_response that the platform accepts but the judge can do nothing
// with: a whole result serialized twice, the JSON text of a model API's response (a source's
// responseShape), only whitespace, a placeholder that some language
// prints for a missing value or an object, or Python's text of a result object instead of the
// answer in it. The answer is graded all the same, so these are notes, not warnings.
func finalNotes(v normalize.View, n *noteRun) {
	at, final := v.FinalAt(), v.Final()
	text := bytes.TrimSpace(jsonscan.StringText(final, jsonscan.Span{Start: 0, End: len(final)}))
	var p softwarn.Parts
	code := softwarn.FinalResponsePlaceholder
	preamble := preambleOf(v.Input(), text, v.MaxDepth())
	switch {
	case holdsResult(text, v.MaxDepth()):
		code, p = softwarn.FinalResponseSerialized, softwarn.Parts{
			Problem: `is the JSON text of a whole result (an object with "final_response"), graded as it is: the result was serialized twice (json.dumps of a JSON string)`,
			Fix:     "return the object itself"}
	case isObjectText(text, v.MaxDepth()):
		what, answer, ok := responseShapeFor(text, v.MaxDepth(), spaced(text))
		if !ok {
			return
		}
		code = softwarn.FinalResponseObjectJSON
		p = softwarn.Parts{Problem: "is the JSON text of " + what + ", not the text of the answer: the judge grades the whole of it",
			Fix: "send the answer's text itself, " + answer}
		if answer == "" {
			p = softwarn.Parts{Problem: "is the JSON text of " + what + ": it holds no answer, and the agent stopped at a tool call", Fix: stoppedFix}
		}
	case preamble >= 0:
		code = softwarn.FinalResponsePreamble
		p = softwarn.Parts{Problem: "is the text of messages[" + strconv.Itoa(preamble) +
			"], an assistant message that calls tools, after which no assistant message follows: it is the preamble the model wrote before the call, not an answer, and the agent stopped at a tool call",
			Fix: stoppedFix}
	case len(text) == 0:
		p = softwarn.Parts{Problem: "is only whitespace: accepted (it is not empty), but the judge has nothing to grade",
			Fix: "return at least a one-sentence summary of what the agent did or why it failed"}
	case placeholderSource(string(text)) != "":
		p = softwarn.Parts{Problem: "is the text " + strconv.Quote(string(text)) + ", " + placeholderSource(string(text)) + ", and the judge grades that text",
			Fix: placeholderFix(string(text))}
	default:
		what, answer, ok := reprOf(text)
		if !ok {
			return
		}
		code, p = softwarn.FinalResponseRepr, softwarn.Parts{Problem: "looks like " + what + ", not the text of the answer: the judge grades the whole of it",
			Fix: "send the answer's text itself, " + answer}
	}
	if n.take() {
		n.add(at, softwarn.At("final_response").Warning(code, softwarn.Kept, p))
	}
}

// placeholderSource says what prints t, a text that stands for no answer, or "" when t is not
// one: each language writes its missing value (or an object it was not told how to write) its
// own way, and naming the right one tells the porter where to look.
func placeholderSource(t string) string {
	const missing = ": a missing value was sent as text"
	switch t {
	case "None":
		return "what Python's str(None) prints" + missing
	case "null":
		return "JSON's and JavaScript's null written as text (String(null), JSON.stringify(null))" + missing
	case "undefined":
		return "what JavaScript's String(undefined) prints" + missing
	case "nil":
		return "what Ruby's nil.inspect and Lua's tostring(nil) print" + missing
	case "<nil>":
		return "what Go's fmt prints for a nil value" + missing
	case "NaN":
		return "a float that is not a number, as JavaScript's String(NaN) and Go's fmt print it"
	case "nan":
		return "a float that is not a number, as Python's str(float('nan')) prints it"
	case "[object Object]":
		return "what JavaScript's String(obj) prints for an object: the object was not serialized"
	}
	return ""
}

func placeholderFix(t string) string {
	if t == "[object Object]" {
		return "send the answer's text (the field of the object that holds it), not the object"
	}
	return "return the agent's answer, or a summary of why there is none"
}

// holdsResult reports whether text, final_response's text without the spaces around it, is
// the JSON text of an object with final_response (a result serialized twice), read with the
// result's own depth limit.
func holdsResult(text []byte, maxDepth int) bool {
	var s jsonscan.Scanner
	s.Reset(text, maxDepth)
	if s.Peek() != jsonscan.Object {
		return false
	}
	found := false
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		found = found || string(s.KeyName()) == "final_response"
		s.SkipValue()
	}
	return found && s.AtEnd()
}

// preambleOf is the index of the message whose text final_response's text is, when that
// message is the last of the input's messages that is not a tool's result and it is an
// assistant's that calls tools (tool_calls, or content parts of type "tool-call" or
// "tool_use"): a preamble, since no assistant message answers after the tool round. It is -1
// otherwise. It reads the input again, on the explain path only.
func preambleOf(input, text []byte, maxDepth int) int {
	if len(text) == 0 {
		return -1
	}
	last, at := lastTurn(member(input, "messages", maxDepth), maxDepth)
	if at < 0 || string(shortToken(member(last, "role", maxDepth), 16)) != "assistant" {
		return -1
	}
	content := member(last, "content", maxDepth)
	calls := textKind(member(last, "tool_calls", maxDepth)) == jsonscan.Array
	var said []byte
	if textKind(content) == jsonscan.String {
		said = jsonscan.StringText(content, jsonscan.Span{Start: 0, End: len(content)})
	}
	eachElement(content, maxDepth, func(_ int, part []byte) bool {
		switch shortString(member(part, "type", maxDepth), 16) {
		case "tool-call", "tool_use":
			calls = true
		case "text":
			if t := member(part, "text", maxDepth); textKind(t) == jsonscan.String {
				said = append(said, jsonscan.StringText(t, jsonscan.Span{Start: 0, End: len(t)})...)
			}
		}
		return true
	})
	if !calls || !bytes.Equal(bytes.TrimSpace(said), text) {
		return -1
	}
	return at
}

// lastTurn is the last message of the array msgs whose role is not "tool", and its index, or
// -1. One scanner reads every message, so that a long transcript costs no allocation per
// message.
func lastTurn(msgs []byte, maxDepth int) (last []byte, at int) {
	var s jsonscan.Scanner
	s.Reset(msgs, maxDepth)
	if s.Peek() != jsonscan.Array {
		return nil, -1
	}
	at = -1
	i := 0
	for ok := s.ArrayStart(); ok && s.Err() == nil; ok = s.ArrayNext() {
		start, tool := s.Pos(), false
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			i++
			continue
		}
		for more := s.ObjectStart(); more; more = s.ObjectNext() {
			role := string(s.KeyName()) == "role"
			v := s.SkipValue()
			if role && v.Present() {
				tool = string(shortToken(msgs[v.Start:v.End], 16)) == "tool"
			}
		}
		if !tool && s.Err() == nil {
			last, at = msgs[start:s.Pos()], i
		}
		i++
	}
	return last, at
}

// isObjectText reports whether text is the JSON text of one object, read with the result's
// own depth limit.
func isObjectText(text []byte, maxDepth int) bool {
	var s jsonscan.Scanner
	s.Reset(text, maxDepth)
	if s.Peek() != jsonscan.Object {
		return false
	}
	s.SkipValue()
	return s.Err() == nil && s.AtEnd()
}

// spaced reports whether the JSON text of an object, text, is written with spaces or newlines
// between its tokens, as Python's json.dumps writes it (and JSON.stringify with an indent),
// rather than compact, as JSON.stringify and model_dump_json() write it: its first key is
// followed by ": ", or a newline follows its "{".
func spaced(text []byte) bool {
	if len(text) < 2 || text[1] == '\n' || text[1] == ' ' {
		return true
	}
	end := skipString(text, 1)
	return end > 0 && end+1 < len(text) && text[end] == ':' && text[end+1] == ' '
}

// resultAttrs are the attributes of a result object that hold the answer: build_response's
// probe order, then a chat message's content.
var resultAttrs = [...]string{"final_response", "final_output", "output", "message", "content"}

// reprOf recognizes Python's text of a result object sent instead of the answer in it: str()
// of a LangChain message, the repr of an SDK's result class (RunResult(...)) or of an OpenAI
// chat completion, str() of a dict ({'output': ...}). It says what t is and where the answer
// is. It is on the explain path only, and it looks at the ends of the text and at a few
// markers a repr cannot do without, so that prose which mentions content= or holds braces is
// not taken for one; keys and keyword arguments count only at the top level of the repr,
// outside string literals, so that an attribute of a nested object (choices[0].message) or
// text that quotes one is not named as the result's.
func reprOf(t []byte) (what, answer string, ok bool) {
	if v := langChainContent(t); v != nil {
		if v[0] == '[' {
			return "Python's str() of a LangChain message (content=[…] additional_kwargs={…})", inBlocks("message.content", "content", v), true
		}
		return "Python's str() of a LangChain message (content='…' additional_kwargs={…})", "message.content", true
	}
	switch {
	case bytes.HasPrefix(t, []byte("{'")) && bytes.HasSuffix(t, []byte("}")):
		return dictRepr(t)
	case bytes.HasPrefix(t, []byte("[{'")) && bytes.HasSuffix(t, []byte("}]")):
		return blocksRepr(t)
	}
	return objectRepr(t)
}

// langChainContent is the content of t when t is str() of a LangChain message, or nil: after
// content=, a string literal or a list (of content blocks, as a message from Claude has), then
// the field pydantic writes after it.
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

// emptyValue reports whether v, the text from a value of a repr to the repr's end, starts with
// a value that holds no answer: an empty string literal, None or an empty list. A note must
// not name it as the answer: sending it would be rejected as empty (contract rule 5).
func emptyValue(v []byte) bool {
	for _, lit := range [...]string{"''", `""`, "None", "[]"} {
		if bytes.HasPrefix(v, []byte(lit)) && (len(v) == len(lit) || bytes.IndexByte([]byte(",)} \n"), v[len(lit)]) >= 0) {
			return true
		}
	}
	return false
}

// dictRepr reads t, which has the ends of str() of a dict, and says where its answer is.
func dictRepr(t []byte) (what, answer string, ok bool) {
	var f reprFields
	if !reprItems(t, 0, f.dictKey) {
		return "", "", false
	}
	attr, v := f.answerAttr()
	switch {
	case f.chatCompletion():
		return "Python's str() of an OpenAI chat completion's dict ('object': 'chat.completion')", `result["choices"][0]["message"]["content"]`, true
	case f.response():
		// A dict has no output_text: that is a property of the SDK's Response object.
		return "Python's str() of an OpenAI Responses API response's dict ('object': 'response')",
			`the text of the 'output_text' parts of the message items in result["output"]`, true
	case f.objectIs("'response'"): // a response with no text: only tool calls, or reasoning
		return "", "", false
	case len(f.candidates) > 0 && f.candidates[0] == '[':
		return candidatesRepr(f.candidates)
	case attr != "":
		answer, ok := answerIn(`result["`+attr+`"]`, attr, v)
		return "Python's str() of a dict with '" + attr + "'", answer, ok
	case len(f.messages) > 1 && f.messages[0] == '[' && f.messages[1] != ']':
		if _, ok := messageContent("", lastItem(f.messages)); !ok { // a tool-call turn: no text
			return "", "", false
		}
		last := `result["messages"][-1].content`
		if f.messages[1] == '{' { // dicts, not message objects
			last = `result["messages"][-1]["content"]`
		}
		return "Python's str() of a dict with 'messages' (a LangGraph state)", "the last message's content, " + last, true
	}
	return "", "", false
}

// blocksRepr reads t, which has the ends of str() of a list of dicts, as a list of content
// blocks or parts ([{'type': 'text', 'text': '…'}], an Anthropic message's content as a dict
// holds it, or a chat message's content parts) and says which of its blocks hold the answer:
// its text blocks, not its thinking blocks. A list with a tool_use block is a turn that
// stopped at a tool call, and one without text holds no answer: no note names them.
func blocksRepr(t []byte) (what, answer string, ok bool) {
	first, n, calls, at := -1, 0, false, -1
	if !reprItems(t, 0, func(item []byte) {
		at++
		typ, text := reprMember(item, "type"), reprMember(item, "text")
		calls = calls || bytes.HasPrefix(typ, []byte("'tool_use'"))
		if !bytes.HasPrefix(typ, []byte("'text'")) || text == nil || emptyValue(text) || (text[0] != '\'' && text[0] != '"') {
			return
		}
		if n++; first < 0 {
			first = at
		}
	}) || first < 0 || calls {
		return "", "", false
	}
	return "Python's str() of a list of content blocks (an Anthropic message's content, or a chat message's content parts)",
		`the "text" of its text blocks` + joined(n) + ` (here content[` + strconv.Itoa(first) + `]["text"])`, true
}

// candidatesRepr says where the answer is in str() of a Gemini generateContent response's
// dict, whose 'candidates' is list: the text of its first candidate's parts without
// 'thought': True. Parts that call functions hold no answer, and no note names them.
func candidatesRepr(list []byte) (what, answer string, ok bool) {
	parts := reprMember(reprMember(firstItem(list), "content"), "parts")
	first, n, calls, at := -1, 0, false, 0
	if len(parts) == 0 || parts[0] != '[' || reprClose(parts, 0, func(item []byte) {
		calls = calls || reprMember(item, "function_call") != nil && !emptyValue(reprMember(item, "function_call")) ||
			reprMember(item, "functionCall") != nil && !emptyValue(reprMember(item, "functionCall"))
		text := reprMember(item, "text")
		if text != nil && !emptyValue(text) && (text[0] == '\'' || text[0] == '"') && !bytes.HasPrefix(reprMember(item, "thought"), []byte("True")) {
			if n++; first < 0 {
				first = at
			}
		}
		at++
	}) < 0 || first < 0 || calls {
		return "", "", false
	}
	return "Python's str() of a Gemini generateContent response's dict ('candidates')",
		`result["candidates"][0]["content"]["parts"][` + strconv.Itoa(first) + `]["text"]` + joined(n), true
}

// joined is what an answer's place adds when n blocks or parts, more than one, hold its text.
func joined(n int) string {
	if n < 2 {
		return ""
	}
	return ", joined with the text of the others"
}

// reprMember is the value (the text from it to the repr's end) of the key key at the top level
// of d, str() of a dict, or nil when d is no dict or has no such key.
func reprMember(d []byte, key string) []byte {
	var found []byte
	if len(d) == 0 || d[0] != '{' || reprClose(d, 0, func(item []byte) {
		if found != nil || len(item) == 0 || item[0] != '\'' {
			return
		}
		end := skipString(item, 0)
		if end > 0 && string(item[1:end-1]) == key && bytes.HasPrefix(item[end:], []byte(": ")) {
			found = item[end+2:]
		}
	}) < 0 {
		return nil
	}
	return found
}

// objectRepr reads t as the repr of an object with keyword arguments, Name(key=..., key=...),
// and says where its answer is. One keyword (F(x=1)) could be prose, so it takes two, the
// first right after "(".
func objectRepr(t []byte) (what, answer string, ok bool) {
	class := reprClass(t)
	var f reprFields
	if class == "" || !reprItems(t, len(class), f.kwarg) || !f.firstIsKeyword || f.keywords < 2 {
		return "", "", false
	}
	switch attr, v := f.answerAttr(); {
	case f.chatCompletion():
		return "Python's repr() of an OpenAI chat completion, " + class + "(…)", "result.choices[0].message.content", true
	case f.response():
		return "Python's repr() of an OpenAI Responses API response, " + class + "(…)", "result.output_text", true
	case f.objectIs("'response'"): // a response with no text: only tool calls, or reasoning
		return "", "", false
	case attr != "":
		answer, ok := answerIn("result."+attr, attr, v)
		return "Python's repr() of an object, " + class + "(…)", answer, ok
	}
	return "", "", false
}

// answerIn says where the answer is when ref, the attribute attr of a result, holds v (the
// text from that value to the repr's end), judged by v's first byte: a message that is a dict
// or an object holds it in its content (Ollama's message, Strands' message dict), an output
// list in the text of its items, content in its text blocks (inBlocks). It reports false when
// the value holds no place to name (a message without content, an empty output list): no note
// is better than one that names the wrong value.
func answerIn(ref, attr string, v []byte) (string, bool) {
	switch {
	case emptyValue(v):
		return "", false
	case attr == "message" && len(v) > 0 && (v[0] == '{' || classLen(v) > 0):
		return messageContent(ref, v)
	case attr == "output" && len(v) > 1 && v[0] == '[':
		return "the text of the items in " + ref, v[1] != ']'
	}
	return inBlocks(ref, attr, v), true
}

// messageContent says where the answer is in the message v, a dict ({'role': …, 'content': …})
// or an object (Message(role=…, content=…)) that ref names: its content, read as a dict's key
// or an object's attribute, or false when its top level has no content.
func messageContent(ref string, v []byte) (string, bool) {
	var m reprFields
	var closed int
	if n := classLen(v); n > 0 {
		ref += ".content"
		closed = reprClose(v, n, m.kwarg)
	} else {
		ref += `["content"]`
		closed = reprClose(v, 0, m.dictKey)
	}
	content := m.attr("content")
	if closed < 0 || content == nil || emptyValue(content) {
		return "", false
	}
	return inBlocks(ref, "content", content), true
}

// inBlocks says where the answer is when ref, the attribute attr, holds the value v: content
// that is a list (Anthropic's Message, a LangChain message from Claude) holds content blocks,
// and the answer is the text of its text blocks, not the list.
func inBlocks(ref, attr string, v []byte) string {
	if attr == "content" && len(v) > 0 && v[0] == '[' {
		return "the text of the text blocks in " + ref
	}
	return ref
}

// reprFields is what reprOf reads from the top level of a repr: the values (the text from
// each to the repr's end) of the keys it looks for.
type reprFields struct {
	attrs                     [len(resultAttrs)][]byte
	messages, choices, object []byte
	candidates                []byte
	items, keywords           int
	firstIsKeyword            bool
}

// dictKey reads one top-level item of str() of a dict, 'key': value.
func (f *reprFields) dictKey(item []byte) {
	if len(item) == 0 || item[0] != '\'' {
		return
	}
	end := skipString(item, 0)
	if end > 0 && bytes.HasPrefix(item[end:], []byte(": ")) {
		f.field(item[1:end-1], item[end+2:])
	}
}

// kwarg reads one top-level argument of a repr, key=value when it is a keyword argument.
func (f *reprFields) kwarg(item []byte) {
	f.items++
	n := keyword(item)
	if n == 0 {
		return
	}
	f.keywords++
	f.firstIsKeyword = f.firstIsKeyword || f.items == 1
	f.field(item[:n-1], item[n:])
}

func (f *reprFields) field(name, value []byte) {
	switch string(name) {
	case "messages":
		f.messages = value
	case "choices":
		f.choices = value
	case "object":
		f.object = value
	case "candidates":
		f.candidates = value
	}
	for i, attr := range resultAttrs {
		if string(name) == attr {
			f.attrs[i] = value
		}
	}
}

// attr is the value of name, one of resultAttrs, or nil when the repr does not have it.
func (f *reprFields) attr(name string) []byte {
	for i, a := range resultAttrs {
		if a == name {
			return f.attrs[i]
		}
	}
	return nil
}

// answerAttr is the first of resultAttrs, in that order, that the repr has, and its value.
func (f *reprFields) answerAttr() (string, []byte) {
	for i, v := range f.attrs {
		if v != nil {
			return resultAttrs[i], v
		}
	}
	return "", nil
}

// chatCompletion reports whether the repr is of an OpenAI chat completion (not a chunk of a
// stream, whose text is in choices[0].delta): a list of choices and object 'chat.completion'.
func (f *reprFields) chatCompletion() bool {
	if len(f.choices) == 0 || f.choices[0] != '[' || emptyValue(f.choices) || !f.objectIs("'chat.completion'") {
		return false
	}
	// Its first choice's message must hold text: a tool-call turn's content is None.
	var choice reprFields
	first := firstItem(f.choices)
	if n := classLen(first); n > 0 {
		reprClose(first, n, choice.kwarg)
	} else if len(first) > 0 && first[0] == '{' {
		reprClose(first, 0, choice.dictKey)
	}
	msg := choice.attr("message")
	if msg == nil {
		return false
	}
	_, ok := messageContent("", msg)
	return ok
}

// firstItem is the text from the first item of the list that starts list (a repr's value, to
// the repr's end), or nil when the list is empty or does not close.
func firstItem(list []byte) []byte {
	var first []byte
	if reprClose(list, 0, func(item []byte) {
		if first == nil {
			first = item
		}
	}) < 0 {
		return nil
	}
	return first
}

// lastItem is the text from the last item of the list that starts list, or nil.
func lastItem(list []byte) []byte {
	var last []byte
	if reprClose(list, 0, func(item []byte) { last = item }) < 0 {
		return nil
	}
	return last
}

// response reports whether the repr is of an OpenAI Responses API response: a list of output
// items and object 'response'. Its answer is the text of the output_text parts of its message
// items, which the SDK's Response.output_text joins.
func (f *reprFields) response() bool {
	out := f.attr("output")
	// Without an output_text part (only tool calls, or reasoning) there is no text to name.
	return len(out) > 0 && out[0] == '[' && !emptyValue(out) && f.objectIs("'response'") &&
		bytes.Contains(out, []byte("output_text"))
}

// objectIs reports whether the repr's object is the literal lit, a whole item.
func (f *reprFields) objectIs(lit string) bool {
	return bytes.HasPrefix(f.object, []byte(lit)) && len(f.object) > len(lit) && bytes.IndexByte([]byte(",)}"), f.object[len(lit)]) >= 0
}

// reprItems walks t from t[open], an opening bracket, as reprClose does, and reports whether
// that bracket closes at t's last byte, with every literal closed: only then is t one repr,
// and what item was given its own items.
func reprItems(t []byte, open int, item func([]byte)) bool {
	end := reprClose(t, open, item)
	return end >= 0 && end == len(t)-1
}

// reprClose walks t from t[open], an opening bracket, skipping Python string literals, and
// calls item with the text from the start of each item at depth 1 (after the bracket, and
// after each comma at that depth and the spaces or newlines after it) to t's end. It returns
// the index of the bracket that closes t[open], or -1 when none does or a literal before it
// does not close.
func reprClose(t []byte, open int, item func([]byte)) int {
	depth := 0
	for i := open; i < len(t); i++ {
		switch t[i] {
		case '\'', '"':
			end := skipString(t, i)
			if end < 0 {
				return -1
			}
			i = end - 1
		case '(', '[', '{':
			if depth++; depth == 1 {
				item(t[i+1:])
			}
		case ')', ']', '}':
			if depth--; depth == 0 {
				return i
			}
		case ',':
			if depth == 1 {
				j := i + 1
				for j < len(t) && (t[j] == ' ' || t[j] == '\n') {
					j++
				}
				item(t[j:])
			}
		}
	}
	return -1
}

// skipString is the index just past the Python string literal that starts at t[i] (a quote),
// backslash escapes included, or -1 when it does not close.
func skipString(t []byte, i int) int {
	q := t[i]
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return -1
}

// reprClass is the class name t starts with when t has the ends of a repr, Name(...): a
// capitalized identifier, "(", and ")" at the end.
func reprClass(t []byte) string {
	n := classLen(t)
	if n == 0 || !bytes.HasSuffix(t, []byte(")")) {
		return ""
	}
	return string(t[:n])
}

// classLen is the length of the class name t starts with when a "(" follows it, Name(: a
// capitalized identifier of two to 64 bytes; else 0.
func classLen(t []byte) int {
	const longest = 64
	i := 0
	for i < len(t) && i <= longest && isIdentByte(t[i], i > 0) {
		i++
	}
	if i < 2 || i > longest || t[0] < 'A' || t[0] > 'Z' || i >= len(t) || t[i] != '(' {
		return 0
	}
	return i
}

// keyword is the length of the Python keyword argument t starts with, "=" included, or 0.
func keyword(t []byte) int {
	i := 0
	for i < len(t) && isIdentByte(t[i], i > 0) && (t[i] < 'A' || t[i] > 'Z') {
		i++
	}
	if i == 0 || i >= len(t) || t[i] != '=' || (i+1 < len(t) && t[i+1] == '=') {
		return 0
	}
	return i + 1
}

func isIdentByte(c byte, notFirst bool) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (notFirst && c >= '0' && c <= '9')
}
