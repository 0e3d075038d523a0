package messages

import (
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// facts are what reading a message learned about the values that need more than a kind check.
// A key given twice leaves the facts of its last value, as its last value is the one kept.
type facts struct {
	calls    callFacts
	thinking thinkingFacts
	// role, content and tool_call_id are the last values of those keys (absent when not
	// given), noted as the message is read so that valid needs no second pass, and describe
	// no list of the members.
	role, content, callID jsonscan.Span
}

type callFacts struct {
	kind jsonscan.Kind
	span jsonscan.Span32 // the tool_calls value
	bad  int             // index of the first tool call that does not normalize, or -1 (why: Reader.callReason)
	// flat: the array is already what the record writes (every call flat, its keys exactly
	// id, name, arguments in that order, no whitespace), so the message is copied as it is.
	flat bool
}

type thinkingFacts struct {
	kind    jsonscan.Kind
	bad     int // index of the first entry that is not an object, or -1
	badKind jsonscan.Kind
}

func (r *Reader) readToolCalls() callFacts {
	s := r.s
	f := callFacts{kind: s.ValueKind(), bad: -1} // read just after the key "tool_calls"
	start, ws0 := s.Pos(), s.WS()
	if f.kind != jsonscan.Array {
		s.SkipValue()
		return f
	}
	// Calls already in the flat form are not put in the table while every call so far is: the
	// message will most likely be copied as it is. The first call that is not flat brings them
	// in (backfill), since the record then writes the array from the table.
	j, flat := 0, true
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		reason, bad, flatCall := r.readToolCall(j)
		if bad && f.bad < 0 {
			f.bad, r.callReason = j, reason
		}
		switch {
		case r.KeepFlatCalls:
		case flat && flatCall:
			r.truncateCalls(r.calls.len() - 1) // appended valid: not needed while all are flat
		case flat && j > 0:
			r.backfillBefore(start, j, !bad)
		}
		flat = flat && flatCall
		j++
	}
	f.span = jsonscan.Span{Start: start, End: s.Pos()}.Pack()
	f.flat = flat && s.WS() == ws0
	if flat && !f.flat && !r.KeepFlatCalls { // flat calls, but whitespace between them
		r.backfillFlat(start, j)
	}
	return f
}

// backfillBefore puts the first n calls of the array at data[from], which were flat and left
// out, in the table before call n, which the table holds when it is valid.
func (r *Reader) backfillBefore(from, n int, holdsLast bool) {
	var last ToolCall
	if holdsLast {
		last = *r.calls.last()
		r.calls.truncate(r.calls.len() - 1)
	}
	r.backfillFlat(from, n)
	if holdsLast {
		r.calls.append(last)
	}
}

// backfillFlat puts in the table the first n calls of the tool_calls array at data[from], all
// valid and in the flat form (each key once, unescaped): the rare array whose calls turn out
// not to be all flat, or to have whitespace between them.
func (r *Reader) backfillFlat(from, n int) {
	data := r.s.Data()
	var s jsonscan.Scanner
	s.Reset(data[from:], r.s.MaxDepth())
	j := 0
	for ok := s.ArrayStart(); ok && j < n; ok = s.ArrayNext() {
		var call ToolCall
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			field := &call.Arguments
			switch string(s.KeyName()) {
			case "id":
				field = &call.ID
			case "name":
				field = &call.Name
			}
			s.Peek()
			wsv := s.WS()
			v := s.SkipValue()
			*field = jsonscan.Span{Start: from + v.Start, End: from + v.End}.Pack()
			if field == &call.Arguments {
				call.ArgumentsWS = s.WS() != wsv
			}
		}
		r.calls.append(call)
		j++
	}
}

// callFields are the fields of a tool call or of its function object, with the kinds found.
type callFields struct {
	id, name, args       jsonscan.Span
	idKind, nameKind     jsonscan.Kind
	argsWS               bool
	function             jsonscan.Kind
	fnName, fnArgs       jsonscan.Span
	fnNameKind           jsonscan.Kind
	fnArgsWS, fnArgsSeen bool
}

// readToolCall reads tool call j; when it cannot be normalized it returns why (what the warning
// that drops its message says) and bad, else it appends the flat form to r.calls. It also
// reports whether the call is written in the flat form already: its keys exactly id
// (optional), name, arguments (optional), in that order, unescaped (whitespace is the caller's
// to check).
func (r *Reader) readToolCall(j int) (reason softwarn.Parts, bad, flat bool) {
	s := r.s
	kind, start := s.Peek(), s.Pos()
	if kind != jsonscan.Object {
		s.SkipValue()
		return softwarn.Parts{Found: kind.Describe(), Expected: "a tool call object", Done: droppedMessage,
			Fix: "send each call as an object: " + callShapes}, true, false
	}
	var c callFields
	r.entry.Reset()
	data := s.Data()
	flat, order := true, 0 // order: the next key the flat form allows, by flatKeys
	// The keys a call is read for are told apart by the switch below: their duplicates are
	// found by a bit each (seen, then reported), and only other keys go to r.entry.
	var seen, reported uint8
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		key := s.KeyToken()
		name, keyFlags := s.UnescapedKey()
		if flat {
			flat, order = nextFlatKey(name, keyFlags, order)
		}
		k, wsv, start := s.ValueKind(), s.WS(), s.Pos()
		if string(name) == "function" {
			c.function = k
			r.forgetDuplicates(func(d duplicate) bool { return d.call == j && d.function })
			if k == jsonscan.Object {
				r.readFunction(j, &c)
			} else {
				s.SkipValue()
			}
		} else {
			skipValue(s)
		}
		sp, ws := jsonscan.Span{Start: start, End: s.Pos()}, s.WS() != wsv
		var bit uint8
		switch string(name) {
		case "id":
			c.id, c.idKind, bit = sp, k, 1
		case "name":
			c.name, c.nameKind, bit = sp, k, 2
		case "arguments":
			c.args, c.argsWS, bit = sp, ws, 4
		case "function":
			bit = 8
		}
		dup := false
		switch {
		case bit == 0:
			dup = r.entry.Put(data, key, keyFlags, sp, false) >= 0
		case seen&bit == 0:
			seen |= bit
		case reported&bit == 0: // reported once however often it repeats, as Put does
			reported |= bit
			dup = true
		}
		if dup {
			r.dups = append(r.dups, duplicate{call: j, key: string(name), written: string(data[key.Start:key.End])})
		}
	}
	flat = flat && order >= flatArguments // name was there
	call := ToolCall{ID: c.id.Pack(), Name: c.name.Pack(), Arguments: c.args.Pack(), ArgumentsWS: c.argsWS}
	if c.function != jsonscan.None && c.function != jsonscan.Null {
		if c.function != jsonscan.Object {
			return softwarn.Parts{Subject: "function", Found: c.function.Describe(), Expected: `an object {"name", "arguments"}`, Done: droppedMessage,
				Fix: `send "function": {"name": <the tool's name>, "arguments": <its arguments>}, or the flat form {"id", "name", "arguments"} without "function"`}, true, false
		}
		if c.fnNameKind != jsonscan.String {
			return softwarn.Parts{Subject: "function.name", Found: describeKind(c.fnNameKind), Expected: toolName, Done: droppedMessage,
				Fix: r.nameFix(data, c.fnName, c.fnNameKind, `add the tool's name to function: {"name": <the tool's name>, "arguments": <its arguments>}`)}, true, false
		}
		call.Name, call.Arguments, call.ArgumentsWS = c.fnName.Pack(), c.fnArgs.Pack(), c.fnArgsWS
	} else if c.nameKind != jsonscan.String {
		return softwarn.Parts{Subject: "name", Found: describeKind(c.nameKind), Expected: toolName, Done: droppedMessage,
			Fix: r.nameFix(data, c.name, c.nameKind, `add the tool's name: "name" in the flat form {"id", "name", "arguments"}, or "function": {"name", "arguments"} in OpenAI's`)}, true, false
	}
	if c.idKind != jsonscan.None && c.idKind != jsonscan.Null && c.idKind != jsonscan.String {
		if c.idKind == jsonscan.Number {
			found, fix := r.foundNumber(data, c.id)
			return softwarn.Parts{Subject: "id", Found: found, Expected: "a string or null", Done: droppedMessage, Fix: fix}, true, false
		}
		return softwarn.Parts{Subject: "id", Found: c.idKind.Describe(), Expected: "a string or null", Done: droppedMessage,
			Fix: "send the call's id as a string, or null when it has none"}, true, false
	}
	r.calls.append(call)
	if r.Observer != nil {
		r.callAt.append(int32(start))
	}
	return softwarn.Parts{}, false, flat
}

// toolName is what a tool call's name is expected to be.
const toolName = "the tool's name as a string"

// The keys of the flat form, in the order the record writes them; each value of order is the
// first key still allowed.
const (
	flatID = iota
	flatName
	flatArguments
	flatDone
)

// nextFlatKey reports whether key name may come next in a call written in the flat form, given
// the first key still allowed, and what is allowed after it. An escaped key is not written as
// the record writes it, so it is not flat either.
func nextFlatKey(name []byte, flags jsonscan.StrFlags, order int) (bool, int) {
	if flags&jsonscan.Escaped != 0 {
		return false, order
	}
	switch string(name) {
	case "id":
		return order <= flatID, flatName
	case "name":
		return order <= flatName, flatArguments
	case "arguments":
		return order == flatArguments, flatDone
	}
	return false, order
}

const callShapes = `flat {"id", "name", "arguments"} or OpenAI's {"id", "type": "function", "function": {"name", "arguments"}}`

// nameFix is the fix for a tool's name of kind k at sp that is not a string: missing is the
// fix when there is none.
func (r *Reader) nameFix(data []byte, sp jsonscan.Span, k jsonscan.Kind, missing string) string {
	switch k {
	case jsonscan.None:
		return missing
	case jsonscan.Number:
		return r.warn.Keep(appendAsString(r.warn.TextBuf(), data, sp))
	}
	return "send the tool's name as a string"
}

// appendAsString appends the fix for the number at sp sent where a string was expected: its
// text (appendNumberText), quoted.
func appendAsString(dst, data []byte, sp jsonscan.Span) []byte {
	return append(appendNumberText(append(dst, sendAsString...), data, sp), '"')
}

const sendAsString = `send it as a string: "`

// foundNumber is what a warning says of the number at sp sent where a string was expected:
// "the number N" found, and appendAsString's fix, both cut from one text built in the
// collector's buffer.
func (r *Reader) foundNumber(data []byte, sp jsonscan.Span) (found, fix string) {
	b := appendNumberText(append(r.warn.TextBuf(), "the number "...), data, sp)
	n := len(b)
	s := r.warn.Keep(appendAsString(b, data, sp))
	return s[:n], s[n:]
}

// appendNumberText appends the number token at sp in a message, cut to 64 bytes and "…". (A
// number is ASCII, so that any cut is on a character boundary, as jsonscan.Cut's; ShortToken is
// for string tokens: it closes the cut with a quote.) Only the cut is copied: a number can be
// megabytes long.
func appendNumberText(dst, data []byte, sp jsonscan.Span) []byte {
	const most = 64
	tok := data[sp.Start:sp.End]
	if len(tok) > most {
		return append(append(dst, tok[:most]...), "…"...)
	}
	return append(dst, tok...)
}

// readFunction reads the nested OpenAI function object of tool call j.
func (r *Reader) readFunction(j int, c *callFields) {
	s := r.s
	c.fnName, c.fnArgs, c.fnNameKind, c.fnArgsWS = jsonscan.Span{}, jsonscan.Span{}, jsonscan.None, false
	keys := &r.fnKeys
	keys.Reset()
	data := s.Data()
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		key := s.KeyToken()
		name, keyFlags := s.UnescapedKey()
		k, wsv := s.ValueKind(), s.WS()
		sp := skipValue(s)
		switch string(name) {
		case "name":
			c.fnName, c.fnNameKind = sp, k
		case "arguments":
			c.fnArgs, c.fnArgsWS = sp, s.WS() != wsv
		}
		if keys.Put(data, key, keyFlags, sp, false) >= 0 {
			r.dups = append(r.dups, duplicate{call: j, function: true, key: string(name), written: string(data[key.Start:key.End])})
		}
	}
}

func readThinking(s *jsonscan.Scanner) thinkingFacts {
	f := thinkingFacts{kind: s.Peek(), bad: -1}
	if f.kind != jsonscan.Array {
		s.SkipValue()
		return f
	}
	j := 0
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if k := s.Peek(); k != jsonscan.Object && f.bad < 0 {
			f.bad, f.badKind = j, k
		}
		s.SkipValue()
		j++
	}
	return f
}

// droppedMessage is what was done about a message that breaks a rule.
const droppedMessage = "the message was dropped"

// valid reports whether the message just read is valid, without building a warning: a
// warning's path costs allocations that a valid message must not pay for.
func (r *Reader) valid(f *facts) bool {
	data := r.s.Data()
	// A role as written is nearly always one of the four, unescaped: no need to look for
	// escapes first. (validRole's test, written out: the compiler does not inline it.)
	// The kinds are told by the values' first bytes: a number's is no kind's own byte.
	if v := f.role; !v.Present() || data[v.Start] != '"' ||
		!isRole(data[v.Start+1:v.End-1]) && !isRole(jsonscan.StringText(data, v)) {
		return false
	}
	if v := f.content; v.Present() {
		switch data[v.Start] {
		case '"', '[', 'n':
		default:
			return false
		}
	}
	if v := f.callID; v.Present() && data[v.Start] != '"' && data[v.Start] != 'n' {
		return false
	}
	if k := f.calls.kind; k != jsonscan.None && k != jsonscan.Null && (k != jsonscan.Array || f.calls.bad >= 0) {
		return false
	}
	if k := f.thinking.kind; k != jsonscan.None && k != jsonscan.Null && (k != jsonscan.Array || f.thinking.bad >= 0) {
		return false
	}
	return true
}

// validRole reports whether v, a message's role, is present and one of the four, as valid
// checks it in line.
func validRole(data []byte, v jsonscan.Span) bool {
	return v.Present() && data[v.Start] == '"' &&
		(isRole(data[v.Start+1:v.End-1]) || isRole(jsonscan.StringText(data, v)))
}

func isRole(role []byte) bool {
	switch string(role) {
	case "system", "user", "assistant", "tool":
		return true
	}
	return false
}

// describe builds the one warning that drops an invalid message at, checking the rules in a
// fixed order: role, content, tool_call_id, tool_calls, thinking. It reports false with it.
func (r *Reader) describe(at softwarn.Loc, f *facts) (softwarn.Warning, bool) {
	data := r.s.Data()
	// Most messages dropped have a role, and a valid one (valid told it already, but not which
	// rule failed): the check that builds a warning, and copies one back, is for the others.
	if !validRole(data, f.role) {
		if w, ok := r.checkRole(at, f.role); !ok {
			return w, false
		}
	}
	switch k := kindAt(data, f.content); k {
	case jsonscan.None, jsonscan.String, jsonscan.Array, jsonscan.Null:
	case jsonscan.Object:
		return at.Key("content").Warning(softwarn.MessageContentInvalid, softwarn.Dropped, r.objectContent(f.content, f.role)), false
	default:
		return at.Key("content").Warning(softwarn.MessageContentInvalid, softwarn.Dropped,
			softwarn.Parts{Found: k.Describe(), Expected: contentExpected, Done: droppedMessage}), false
	}
	if v := f.callID; v.Present() {
		if k := kindAt(data, v); k != jsonscan.String && k != jsonscan.Null {
			found, fix := k.Describe(), ""
			if k == jsonscan.Number {
				found, fix = r.foundNumber(data, v)
			}
			return at.Key("tool_call_id").Warning(softwarn.MessageToolCallIDInvalid, softwarn.Dropped, softwarn.Parts{
				Found: found, Expected: "a string (the id of the tool call this message answers) or null", Done: droppedMessage, Fix: fix}), false
		}
	}
	switch k := f.calls.kind; {
	case k == jsonscan.None || k == jsonscan.Null:
	case k != jsonscan.Array:
		fix := ""
		if k == jsonscan.Object {
			fix = "a single tool call must be wrapped in an array: [{...}]"
		}
		return at.Key("tool_calls").Warning(softwarn.MessageToolCallsInvalid, softwarn.Dropped,
			softwarn.Parts{Found: k.Describe(), Expected: "an array of tool calls or null", Done: droppedMessage, Fix: fix}), false
	case f.calls.bad >= 0:
		return at.Key("tool_calls").Index(f.calls.bad).Warning(softwarn.ToolCallInvalid, softwarn.Dropped, r.callReason), false
	}
	switch k := f.thinking.kind; {
	case k == jsonscan.None || k == jsonscan.Null:
	case k != jsonscan.Array:
		return at.Key("thinking").Warning(softwarn.MessageThinkingInvalid, softwarn.Dropped,
			softwarn.Parts{Found: k.Describe(), Expected: "an array of objects or null", Done: droppedMessage, Fix: thinkingFix(k)}), false
	case f.thinking.bad >= 0:
		return at.Key("thinking").Index(f.thinking.bad).Warning(softwarn.MessageThinkingInvalid, softwarn.Dropped, softwarn.Parts{
			Found: f.thinking.badKind.Describe(), Expected: "an object", Done: droppedMessage,
			Fix: "send each thinking entry as an object, e.g. " + thinkingBlock + " (Anthropic's thinking block)"}), false
	}
	return softwarn.Warning{}, true // valid after all: valid and describe disagree, and keeping loses nothing
}

// contentExpected is what a message's content is expected to be.
const contentExpected = "a string, an array of content parts, or null"

// objectContent is what the warning says that drops a message whose content is the object at sp. An
// object with a string "type" looks like a content part sent bare: wrap it in an array. One
// without is no content part, and wrapping it would not make it one: for a tool message it is
// most likely the tool's structured output, sent as the object instead of as JSON text. So is a
// tool message's object whose "type" names no content part ({"type": "json", ...}, a tool's
// typed result): wrapped, it would pass, but as a content part of a type no renderer knows.
func (r *Reader) objectContent(sp, role jsonscan.Span) softwarn.Parts {
	const asJSON = `send the tool's output as JSON text: "content": json.dumps(output) in Python, JSON.stringify(output) in JavaScript`
	p := softwarn.Parts{Expected: contentExpected, Done: droppedMessage}
	data := r.s.Data()
	tool := false
	if role.Present() {
		tool = string(jsonscan.StringText(data, role)) == "tool"
	}
	typ, token, typed := objectType(data[sp.Start:sp.End], r.s.MaxDepth())
	switch {
	case typed && (!tool || contentPartType(typ)):
		p.Found, p.Fix = "a bare object", "a bare content part must be wrapped in an array: [{...}]"
	case typed:
		p.Found, p.Fix = `a bare object that is not a content part (its "type" `+shownType(token)+` is no content part's type)`, asJSON
	case tool:
		p.Found, p.Fix = untypedObject, asJSON
	default:
		p.Found, p.Fix = untypedObject, `send the text as a string: "content": <the text>`
	}
	return p
}

const untypedObject = `a bare object that is not a content part (it has no string "type")`

// objectType returns the (last) value of the JSON object obj's member "type", unescaped and as
// its token, and whether it is a string, as a content part's is.
func objectType(obj []byte, depth int) (typ, token []byte, typed bool) {
	var s jsonscan.Scanner
	s.Reset(obj, depth)
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		isType := string(s.KeyName()) == "type"
		k := s.Peek()
		v := s.SkipValue()
		if isType {
			typ, token, typed = nil, nil, k == jsonscan.String
			if typed {
				token = obj[v.Start:v.End]
			}
			if typed && len(token) <= 64 { // a longer one is no part's type: not decoded
				typ = jsonscan.StringText(obj, v)
			}
		}
	}
	return typ, token, typed
}

// contentPartType reports whether typ is the type of a content part of a known API: OpenAI Chat
// Completions' (text, image_url, input_audio, file, refusal), OpenAI Responses' (input_text,
// output_text, input_image, input_file), Anthropic's content blocks (text, image, document,
// search_result, tool_use, tool_result, thinking, redacted_thinking) and MCP's tool result
// content (text, image, audio, resource, resource_link).
func contentPartType(typ []byte) bool {
	switch string(typ) {
	case "text", "image_url", "input_audio", "file", "refusal",
		"input_text", "output_text", "input_image", "input_file",
		"image", "document", "search_result", "tool_use", "tool_result", "thinking", "redacted_thinking",
		"audio", "resource", "resource_link":
		return true
	}
	return false
}

// shownType shows the string token of a content object's "type" as the sender wrote it, cut
// (before it is copied: it can be megabytes long).
func shownType(token []byte) string {
	if len(token) > 80 { // still longer than ShortToken's cut
		token = token[:80]
	}
	return jsonscan.ShortToken(string(token))
}

// thinkingBlock is the shape of a thinking entry that messages suggest: Anthropic's thinking
// block, the commonest. The contract asks only for objects.
const thinkingBlock = `{"type": "thinking", "thinking": <the text>}`

// thinkingFix is the fix for a thinking value of kind k that is not an array.
func thinkingFix(k jsonscan.Kind) string {
	switch k {
	case jsonscan.String:
		return "put the text in an array of objects, e.g. [" + thinkingBlock + "] (Anthropic's thinking blocks)"
	case jsonscan.Object:
		return "a single thinking entry must be wrapped in an array: [{...}]"
	}
	// A number or a boolean (a flag that thinking was on, a token count) is no reasoning.
	return "thinking holds the model's reasoning, as an array of objects, e.g. [" + thinkingBlock + "]: send that, or leave the key out"
}

// checkRole checks the message's role, the value v (absent when there is none).
func (r *Reader) checkRole(at softwarn.Loc, v jsonscan.Span) (softwarn.Warning, bool) {
	data := r.s.Data()
	if !v.Present() {
		return r.noRole(at), false
	}
	if k := kindAt(data, v); k != jsonscan.String {
		return at.Key("role").Warning(softwarn.MessageRoleInvalid, softwarn.Dropped,
			softwarn.Parts{Found: k.Describe(), Expected: oneOfRoles, Done: droppedMessage}), false
	}
	role := string(jsonscan.StringText(data, v))
	for _, want := range roles {
		if role == want {
			return softwarn.Warning{}, true
		}
	}
	return at.Key("role").Warning(softwarn.MessageRoleInvalid, softwarn.Dropped, softwarn.Parts{
		Found: roleToken(data[v.Start:v.End]), Expected: oneOfRoles, Done: droppedMessage, Fix: roleFix(role)}), false
}

// otherRoles are the roles of other APIs that roleFix names, as a token holds them.
var otherRoles = [...]string{`"developer"`, `"function"`, `"model"`, `"human"`, `"ai"`, `"bot"`, `"tool_result"`, `"ipython"`}

// roleToken is a role's string token as a warning shows it (jsonscan.ShortToken): one of
// otherRoles, written as they are, needs no string of its own.
func roleToken(tok []byte) string {
	for _, r := range otherRoles {
		if string(tok) == r {
			return r
		}
	}
	return jsonscan.ShortToken(string(tok))
}

// oneOfRoles is what a message's role is expected to be.
const oneOfRoles = `one of "system", "user", "assistant", "tool"`

// langChainRole is the role that replaces a LangChain message's type, and what else changes.
func langChainRole(typ string) (role, also string) {
	switch typ {
	case "human":
		return "user", ""
	case "ai":
		return "assistant", `, with tool calls as {"id", "name", "arguments"} (LangChain's "args")`
	case "tool":
		return "tool", ", keeping its tool_call_id"
	}
	return typ, ""
}

// roleFix says which role to use instead of one that other APIs and frameworks use.
func roleFix(role string) string {
	switch role {
	case "developer":
		return `OpenAI's "developer" role is the platform's "system": use "system"`
	case "function":
		return `OpenAI's legacy "function" role is the platform's "tool": use "tool" with the call's tool_call_id`
	case "model":
		return `Gemini's "model" role is the platform's "assistant": use "assistant"`
	case "human":
		return `use "user"`
	case "ai", "bot":
		return `use "assistant"`
	case "tool_result", "ipython":
		return `use "tool"`
	}
	lower := strings.ToLower(strings.TrimSpace(role))
	for _, want := range roles {
		if lower == want {
			return "roles are matched exactly: use " + quote(want)
		}
	}
	return ""
}

// noRole explains a message without a role, recognising items of other APIs by their type.
func (r *Reader) noRole(at softwarn.Loc) softwarn.Warning {
	typ, data := "", r.s.Data()
	if i := r.members.Find(data, "type"); i >= 0 {
		if v := r.members.List[i].Value(); kindAt(data, v) == jsonscan.String {
			typ = string(jsonscan.StringText(data, v))
		}
	}
	p := softwarn.Parts{Found: "no role", Expected: oneOfRoles, Done: droppedMessage}
	code, fix := typedItem(typ)
	if fix == "" {
		code = softwarn.MessageRoleMissing
	}
	if code == softwarn.MessageRoleMissing && fix != "" && r.members.Find(data, "data") >= 0 {
		// LangChain's stored form ({"type", "data"}), the same JSON from Python's
		// messages_to_dict and JavaScript's mapChatMessagesToStoredMessages:
		// convert_to_openai_messages does not read it, and JavaScript has neither helper.
		fix = strings.TrimSuffix(fix, langChainConverts) + langChainStored
	}
	if r.members.Find(data, "call_id") < 0 && r.members.Find(data, "callId") >= 0 {
		// The OpenAI Agents SDK for JavaScript writes its items' call_id in camelCase: the
		// fix names the key as the item spells it.
		fix = strings.ReplaceAll(fix, "<call_id>", "<callId>")
	}
	p.Fix = fix
	return at.Warning(code, softwarn.Dropped, p)
}

// The end of the fix for a LangChain message: the helper that converts a message dict, and the
// helpers that read the stored form {"type", "data"} in each language.
const (
	langChainConverts = "; langchain_core.messages.convert_to_openai_messages converts it"
	langChainStored   = "; LangChain's helpers read this stored form: messages_from_dict in Python (langchain_core.messages), " +
		"mapStoredMessagesToChatMessages in JavaScript (@langchain/core/messages)"
)

// typedItem recognises, by its "type", an item of another API that was sent where a message
// goes, and says what it is and what to send instead; it returns "" for a type it does not
// know. Only items whose conversion is known are named.
func typedItem(typ string) (softwarn.Code, string) {
	const responses = "this is an OpenAI Responses "
	switch typ {
	case "function_call":
		return softwarn.OpenAIResponsesItem, responses + `function_call item, not a chat message: send it as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <arguments>}]}`
	case "function_call_output":
		return softwarn.OpenAIResponsesItem, responses + `function_call_output item, not a chat message: send it as {"role": "tool", "tool_call_id": <call_id>, "content": <output>}`
	case "reasoning":
		return softwarn.OpenAIResponsesItem, responses + `reasoning item (the model's reasoning), not a chat message: leave it out, ` +
			`or put the text of its summary in the thinking of the assistant message that follows it: "thinking": [{"type": "thinking", "thinking": <the summary's text>}]`
	case "computer_call":
		return softwarn.OpenAIResponsesItem, responses + `computer_call item, not a chat message: send it as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": "computer", "arguments": <action>}]}`
	case "computer_call_output":
		return softwarn.OpenAIResponsesItem, responses + `computer_call_output item, not a chat message: send it as {"role": "tool", "tool_call_id": <call_id>, "content": [<output>]}`
	case "web_search_call":
		return softwarn.OpenAIResponsesItem, responses + `web_search_call item (a search OpenAI's hosted tool ran), not a chat message: ` +
			`leave it out (the assistant message that follows cites what it found), or, to show the search, send it as ` +
			`{"role": "assistant", "tool_calls": [{"id": <id>, "name": "web_search", "arguments": <action>}]}`
	case "file_search_call":
		return softwarn.OpenAIResponsesItem, responses + `file_search_call item (a search OpenAI's hosted tool ran), not a chat message: ` +
			`leave it out, or send it as {"role": "assistant", "tool_calls": [{"id": <id>, "name": "file_search", "arguments": {"queries": <queries>}}]} ` +
			`followed by {"role": "tool", "tool_call_id": <id>, "content": <results>}`
	case "tool_result":
		return softwarn.AnthropicBlockMessage, `this is an Anthropic tool_result content block sent as a message: send it as {"role": "tool", "tool_call_id": <tool_use_id>, "content": <content>}`
	case "tool_use":
		return softwarn.AnthropicBlockMessage, `this is an Anthropic tool_use content block sent as a message: send it as {"role": "assistant", "tool_calls": [{"id": <id>, "name": <name>, "arguments": <input>}]}`
	case "text":
		return softwarn.AnthropicBlockMessage, `this is a bare content part sent as a message: wrap it as {"role": "user" or "assistant", "content": [<the part>]}`
	case "human", "ai", "system", "tool":
		role, also := langChainRole(typ)
		return softwarn.MessageRoleMissing, "this looks like a LangChain message (type " + quote(typ) + `): send it with "role": ` + quote(role) + also +
			langChainConverts
	}
	return "", ""
}

func notObject(at softwarn.Loc, k jsonscan.Kind) softwarn.Warning {
	p := softwarn.Parts{Found: k.Describe(), Expected: `a message object {"role", "content", ...}`, Done: droppedMessage}
	if k == jsonscan.String {
		p.Fix = `to send plain text, use {"role": "user" or "assistant", "content": <the text>}`
	}
	return at.Warning(softwarn.MessageNotObject, softwarn.Dropped, p)
}

func kindAt(data []byte, sp jsonscan.Span) jsonscan.Kind {
	if !sp.Present() {
		return jsonscan.None
	}
	c := data[sp.Start]
	if c == '-' || (c >= '0' && c <= '9') {
		return jsonscan.Number
	}
	return jsonscan.Kind(c)
}

func describeKind(k jsonscan.Kind) string {
	if k == jsonscan.None {
		return "missing"
	}
	return k.Describe()
}

// quote quotes a text of ours (a role name) for a warning.
func quote(s string) string { return strconv.Quote(s) }
