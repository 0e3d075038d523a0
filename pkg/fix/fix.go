// Package fix derives machine-applicable fixes from the diagnostics of the explain view: for a
// diagnostic whose fix is mechanical, an RFC 6902 JSON Patch against the input that makes the
// change its message asks for, and whether applying it keeps the result's meaning.
//
// A fix is derived from the diagnostic's code, its pointer and the input's bytes at that
// pointer (and, for a few codes, its expected part, which names the key the contract reads):
// one entry per code in a table, so that nothing but the table knows which codes have fixes.
// Its applicability follows ruff's and rustc's: Safe (rustc's MachineApplicable) is what the
// sender meant, with the meaning of every value kept, such as a role in another case or a
// count sent as a string; Unsafe (MaybeIncorrect) converts another API's shape into the
// contract's and is for a porter to look at. A fix that would need a value the input does not
// hold (a role for plain text, the result of a tool call) is not made: the diagnostic's
// message says what to do.
package fix

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Applicability says whether a fix may be applied without a person looking at it.
type Applicability string

const (
	// Safe fixes keep the meaning of every value: they may be applied unseen.
	Safe Applicability = "safe"
	// Unsafe fixes convert a shape, and a porter should look at what they make.
	Unsafe Applicability = "unsafe"
)

// Fix is a diagnostic's machine-applicable fix: a JSON Patch against the input.
type Fix struct {
	Applicability Applicability
	Patch         []Op
}

// AppendKeys appends the fix's members, `"applicability":...,"patch":[...]`, without braces:
// the explain view writes them after the fix's message.
func (f Fix) AppendKeys(dst []byte) []byte {
	dst = append(dst, `"applicability":`...)
	dst = appendString(dst, string(f.Applicability))
	dst = append(dst, `,"patch":[`...)
	for i, op := range f.Patch {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = op.appendJSON(dst)
	}
	return append(dst, ']')
}

// PatchJSON is the patch as a JSON array.
func (f Fix) PatchJSON() []byte {
	b := Fix{Patch: f.Patch}.AppendKeys(nil)
	return b[bytes.IndexByte(b, '['):]
}

// Paths are the pointers the patch reads or writes.
func (f Fix) Paths() []string {
	var ps []string
	for _, op := range f.Patch {
		ps = append(ps, op.Path)
		if op.From != "" {
			ps = append(ps, op.From)
		}
	}
	return ps
}

// For returns the fix of diagnostic w of the document d, when its code has one and the input
// holds what it needs.
func For(d *Doc, w softwarn.Warning) (Fix, bool) {
	f, ok := table[w.Code]
	if !ok {
		return Fix{}, false
	}
	fx, ok := f(d, diagnostic{Warning: w, Pointer: w.Pointer()})
	if !ok || throughDuplicate(d, fx.Patch) {
		return Fix{}, false
	}
	return fx, true
}

// throughDuplicate reports whether a pointer of the patch passes through a member whose key
// its object holds twice. Which of the two a JSON Patch library takes is its own choice (one
// fuzzed input moved a member that one library read as null), so such a patch means different
// things to different appliers: the duplicate_key warning is fixed first, by hand.
func throughDuplicate(d *Doc, ops []Op) bool {
	for _, o := range ops {
		if d.duplicated(o.Path) || (o.From != "" && d.duplicated(o.From)) {
			return true
		}
	}
	return false
}

// Has reports whether diagnostics of the code can have a fix.
func Has(code softwarn.Code) bool { _, ok := table[code]; return ok }

// WhyNone says why diagnostics of the code have no fix; "" for a code that can have one.
func WhyNone(code softwarn.Code) string { return none[code] }

type fixer func(d *Doc, w diagnostic) (Fix, bool)

// diagnostic is a diagnostic with its pointer written out once, for a fixer to read.
type diagnostic struct {
	softwarn.Warning
	Pointer string // Warning.Pointer()
}

// table is every code that can have a fix, with the function that derives it.
var table = map[softwarn.Code]fixer{
	softwarn.FinalResponseLoneSurrogate: loneSurrogates,
	softwarn.MessagesNotArray:           messagesNotArray,
	softwarn.MessageNotObject:           serializedObject,
	softwarn.MessageRoleMissing:         roleMissing,
	softwarn.MessageRoleInvalid:         roleInvalid,
	softwarn.MessageContentInvalid:      contentInvalid,
	softwarn.MessageToolCallIDInvalid:   numberAsString,
	softwarn.MessageToolCallsInvalid:    wrapObject,
	softwarn.ToolCallInvalid:            toolCallInvalid,
	softwarn.MessageThinkingInvalid:     thinkingInvalid,
	softwarn.OpenAIResponsesItem:        responsesItem,
	softwarn.AnthropicBlockMessage:      anthropicBlock,
	softwarn.MetadataNotObject:          serializedObject,
	softwarn.MetadataKeyInvalid:         metadataKeyInvalid,
	softwarn.ToolResultUnmatched:        toolUseID,
	softwarn.AnthropicContentBlocks:     toolUseBlocks,
	softwarn.ToolCallArgumentsKey:       argumentsKey,
	softwarn.TopLevelKeyVariant:         topLevelKeyVariant,
	softwarn.MetadataKeyVariant:         metadataKeyVariant,
	softwarn.MetadataAsList:             metadataAsList,
	softwarn.LegacyFunctionCall:         legacyFunctionCall,
	softwarn.FinalResponseSerialized:    finalSerialized,
	softwarn.FinalResponseObjectJSON:    finalObjectJSON,
	// advice on a rejection (normalize.ResponseShapeError.Advice)
	softwarn.FinalResponseAnswerInMessages: answerInMessages,
	softwarn.MessageOtherFramework:         otherFramework,
	softwarn.MessageTextInParts:            textInParts,
	softwarn.TopLevelTranscriptKey:         transcriptKey,
	softwarn.ToolCallsOtherFramework:       otherToolCalls,
}

// none is every code that never has a fix, and why.
var none = map[softwarn.Code]string{
	softwarn.FinalResponseTruncated:   "only the sender can say which part of a long answer the judge must see",
	softwarn.DuplicateKey:             "a JSON Pointer names a member by its key, so no patch can say which of two members of one name to remove; a JSON Patch library, parsing the input, has already kept one",
	softwarn.WarningsLimited:          "it counts warnings not listed: fix the listed ones and normalize again",
	softwarn.ToolCallUnanswered:       "the tool's result is not in the input",
	softwarn.FinalResponsePlaceholder: "the answer is not in the input",
	softwarn.FinalResponsePreamble:    "the answer, which the agent gives after the tool round, is not in the input",
	softwarn.FinalResponseRepr:        "the answer's text is inside a Python repr, which is not JSON: reading it back would be guessing",
	softwarn.NotesLimited:             "it counts notes not listed: fix the listed ones and normalize again",
}

func patch(a Applicability, ops ...Op) (Fix, bool) { return Fix{Applicability: a, Patch: ops}, true }

func replace(p string, v []byte) Op { return Op{Op: "replace", Path: p, Value: v} }

func str(s string) []byte { return appendString(nil, s) }

// object writes a JSON object of the members given as key, value pairs, skipping a nil value.
func object(kv ...any) []byte {
	b := []byte{'{'}
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1].([]byte)
		if v == nil {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = appendString(b, kv[i].(string))
		b = append(b, ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

func array(vs ...[]byte) []byte {
	b := []byte{'['}
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return append(b, ']')
}

// message is the pointer of the message a pointer under /messages/N is in.
func message(p string) string {
	const pre = "/messages/"
	if !strings.HasPrefix(p, pre) {
		return ""
	}
	rest := p[len(pre):]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return pre + rest
}

func lastToken(p string) string { _, k := parentOf(p); return k }

// value returns the bytes at p, or nil.
func value(d *Doc, p string) []byte {
	v, _ := d.Value(p)
	return v
}

// absentOrNull reports whether p has no value or null.
func absentOrNull(d *Doc, p string) bool { k := d.Kind(p); return k == 0 || k == 'n' }

// holdsJSON returns the JSON text a string at p holds when it is a value of the kind want
// ('{' or '['), compact or as written.
func holdsJSON(d *Doc, p string, want byte) ([]byte, bool) {
	s, ok := d.String(p)
	if !ok {
		return nil, false
	}
	t := []byte(strings.TrimSpace(s))
	if len(t) == 0 || t[0] != want || !json.Valid(t) {
		return nil, false
	}
	return t, true
}

// loneSurrogates replaces each lone surrogate escape of final_response by \ufffd, the character
// the record already holds in its place: the record does not change.
func loneSurrogates(d *Doc, w diagnostic) (Fix, bool) {
	v := value(d, w.Pointer)
	if len(v) < 2 || v[0] != '"' {
		return Fix{}, false
	}
	out, changed := make([]byte, 0, len(v)), false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			out = append(out, c)
			continue
		}
		if v[i+1] != 'u' || i+6 > len(v) {
			out = append(out, v[i], v[i+1])
			i++
			continue
		}
		r, err := strconv.ParseUint(string(v[i+2:i+6]), 16, 16)
		if err != nil {
			return Fix{}, false
		}
		switch {
		case r >= 0xD800 && r < 0xDC00 && i+12 <= len(v) && v[i+6] == '\\' && v[i+7] == 'u':
			lo, err := strconv.ParseUint(string(v[i+8:i+12]), 16, 16)
			if err == nil && lo >= 0xDC00 && lo < 0xE000 {
				out = append(out, v[i:i+12]...)
				i += 11
				continue
			}
			out, changed = append(out, `\ufffd`...), true
		case r >= 0xD800 && r < 0xE000:
			out, changed = append(out, `\ufffd`...), true
		default:
			out = append(out, v[i:i+6]...)
		}
		i += 5
	}
	if !changed {
		return Fix{}, false
	}
	return patch(Safe, replace(w.Pointer, out))
}

// wrapObject wraps a single object sent where an array of them goes.
func wrapObject(d *Doc, w diagnostic) (Fix, bool) {
	v := value(d, w.Pointer)
	if len(v) == 0 || v[0] != '{' {
		return Fix{}, false
	}
	return patch(Safe, replace(w.Pointer, array(v)))
}

func messagesNotArray(d *Doc, w diagnostic) (Fix, bool) {
	if t, ok := holdsJSON(d, w.Pointer, '['); ok {
		return patch(Safe, replace(w.Pointer, t))
	}
	return wrapObject(d, w)
}

// serializedObject replaces a string that holds the JSON text of an object with the object.
func serializedObject(d *Doc, w diagnostic) (Fix, bool) {
	t, ok := holdsJSON(d, w.Pointer, '{')
	if !ok {
		return Fix{}, false
	}
	return patch(Safe, replace(w.Pointer, t))
}

// numberAsString sends a number where a string goes as the number's text.
func numberAsString(d *Doc, w diagnostic) (Fix, bool) {
	v := value(d, w.Pointer)
	if d.Kind(w.Pointer) != '0' {
		return Fix{}, false
	}
	return patch(Safe, replace(w.Pointer, str(string(v))))
}

var roleNames = []string{"system", "user", "assistant", "tool"}

// otherRoles are the roles of other APIs that are one of the contract's.
var otherRoles = map[string]string{
	"developer": "system", "function": "tool", "model": "assistant", "human": "user",
	"ai": "assistant", "bot": "assistant", "tool_result": "tool", "ipython": "tool",
}

func roleInvalid(d *Doc, w diagnostic) (Fix, bool) {
	role, ok := d.String(w.Pointer)
	if !ok {
		return Fix{}, false
	}
	lower := strings.ToLower(strings.TrimSpace(role))
	for _, r := range roleNames {
		if lower == r {
			return patch(Safe, replace(w.Pointer, str(r)))
		}
	}
	if r, ok := otherRoles[role]; ok {
		return patch(Unsafe, replace(w.Pointer, str(r)))
	}
	return Fix{}, false
}

// langChainRoles are the roles of LangChain's message types.
var langChainRoles = map[string]string{"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}

// roleMissing gives a LangChain message (its role in "type") the role its type stands for.
func roleMissing(d *Doc, w diagnostic) (Fix, bool) {
	typ, _ := d.String(child(w.Pointer, "type"))
	role, ok := langChainRoles[typ]
	if !ok || !d.Has(child(w.Pointer, "content")) || d.Has(child(w.Pointer, "data")) {
		return Fix{}, false
	}
	return patch(Unsafe, Op{Op: "add", Path: child(w.Pointer, "role"), Value: str(role)})
}

func contentInvalid(d *Doc, w diagnostic) (Fix, bool) {
	v := value(d, w.Pointer)
	if len(v) == 0 || v[0] != '{' {
		return Fix{}, false
	}
	if keys, _ := d.Keys(w.Pointer); len(keys) == 2 && keys[0] == "type" && keys[1] == "value" {
		return Fix{}, false // the AI SDK's tool output, {"type", "value"}: its note's fix unwraps it
	}
	if w.Found == "a bare object" { // a content part, sent bare
		return patch(Safe, replace(w.Pointer, array(v)))
	}
	if role, _ := d.String(child(message(w.Pointer), "role")); role == "tool" {
		// A tool's structured output: its JSON text.
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return Fix{}, false
		}
		return patch(Unsafe, replace(w.Pointer, str(b.String())))
	}
	return Fix{}, false
}

func toolCallInvalid(d *Doc, w diagnostic) (Fix, bool) {
	switch w.Subject {
	case "id", "name", "function.name":
		p := w.Pointer + "/" + strings.ReplaceAll(w.Subject, ".", "/")
		return numberAsString(d, diagnostic{Pointer: p})
	}
	return Fix{}, false
}

func thinkingBlock(text []byte) []byte {
	return object("type", str("thinking"), "thinking", text)
}

func thinkingInvalid(d *Doc, w diagnostic) (Fix, bool) {
	v := value(d, w.Pointer)
	switch {
	case len(v) == 0:
		return Fix{}, false
	case lastToken(w.Pointer) == "thinking" && v[0] == '{':
		return patch(Safe, replace(w.Pointer, array(v)))
	case lastToken(w.Pointer) == "thinking" && v[0] == '"':
		return patch(Unsafe, replace(w.Pointer, array(thinkingBlock(v))))
	case lastToken(w.Pointer) != "thinking" && v[0] == '"':
		return patch(Unsafe, replace(w.Pointer, thinkingBlock(v)))
	}
	return Fix{}, false
}

// flatCall is a tool call in the flat form, {"id", "name", "arguments"}, from the values at
// the pointers given; the id and the arguments may be missing.
func flatCall(d *Doc, id, name, args string) ([]byte, bool) {
	if d.Kind(name) != '"' {
		return nil, false
	}
	var idv []byte
	if d.Kind(id) == '"' {
		idv = value(d, id)
	}
	return object("id", idv, "name", value(d, name), "arguments", value(d, args)), true
}

func assistantCalls(calls ...[]byte) []byte {
	return object("role", str("assistant"), "tool_calls", array(calls...))
}

func toolMessage(d *Doc, id, content string) ([]byte, bool) {
	if d.Kind(id) != '"' {
		return nil, false
	}
	return object("role", str("tool"), "tool_call_id", value(d, id), "content", value(d, content)), true
}

func responsesItem(d *Doc, w diagnostic) (Fix, bool) {
	typ, _ := d.String(child(w.Pointer, "type"))
	at := func(k string) string { return child(w.Pointer, k) }
	switch typ {
	case "function_call":
		call, ok := flatCall(d, at("call_id"), at("name"), at("arguments"))
		if ok {
			return patch(Unsafe, replace(w.Pointer, assistantCalls(call)))
		}
	case "function_call_output":
		if k := d.Kind(at("output")); k == '"' || k == '[' {
			if m, ok := toolMessage(d, at("call_id"), at("output")); ok {
				return patch(Unsafe, replace(w.Pointer, m))
			}
		}
	case "reasoning":
		return patch(Unsafe, Op{Op: "remove", Path: w.Pointer})
	}
	return Fix{}, false
}

func anthropicBlock(d *Doc, w diagnostic) (Fix, bool) {
	typ, _ := d.String(child(w.Pointer, "type"))
	at := func(k string) string { return child(w.Pointer, k) }
	switch typ {
	case "tool_result":
		if k := d.Kind(at("content")); k == '"' || k == '[' || k == 0 {
			if m, ok := toolMessage(d, at("tool_use_id"), at("content")); ok {
				return patch(Unsafe, replace(w.Pointer, m))
			}
		}
	case "tool_use":
		if call, ok := flatCall(d, at("id"), at("name"), at("input")); ok {
			return patch(Unsafe, replace(w.Pointer, assistantCalls(call)))
		}
	}
	return Fix{}, false
}

// isCount reports whether s is a whole, non-negative number written as JSON writes one.
func isCount(s string) bool {
	if s == "" || len(s) > 18 || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDuration reports whether s is a non-negative JSON number without an exponent.
func isDuration(s string) bool {
	whole, frac, ok := strings.Cut(s, ".")
	if !isCount(whole) {
		return false
	}
	return !ok || (frac != "" && isCount("1"+frac))
}

func metadataKeyInvalid(d *Doc, w diagnostic) (Fix, bool) {
	key, kind := lastToken(w.Pointer), d.Kind(w.Pointer)
	if kind == 'n' { // null is no value: the key was dropped, and the fix leaves it out
		return patch(Safe, Op{Op: "remove", Path: w.Pointer})
	}
	switch key {
	case "model", "system_prompt_id":
		return numberAsString(d, w)
	case "total_input_tokens", "total_output_tokens", "agent_runtime_ms":
		s, ok := d.String(w.Pointer)
		s = strings.TrimSpace(s)
		if !ok || !(isCount(s) || key == "agent_runtime_ms" && isDuration(s)) {
			return Fix{}, false
		}
		return patch(Safe, replace(w.Pointer, []byte(s)))
	}
	return Fix{}, false
}

// toolUseID renames Anthropic's tool_use_id in a tool message to tool_call_id, when the note
// says its value is the id of a kept call (else renaming it would not link it).
func toolUseID(d *Doc, w diagnostic) (Fix, bool) {
	msg := message(w.Pointer)
	if !strings.HasPrefix(w.Fix, `rename "tool_use_id" to "tool_call_id": its value`) || w.Pointer != child(msg, "tool_use_id") ||
		d.Kind(w.Pointer) != '"' || d.Has(child(msg, "tool_call_id")) {
		return Fix{}, false
	}
	return patch(Unsafe, Op{Op: "move", From: w.Pointer, Path: child(msg, "tool_call_id")})
}

// toolUseBlocks moves the Anthropic tool_use blocks of an assistant message's content to its
// tool_calls, leaving the other blocks where they are.
func toolUseBlocks(d *Doc, w diagnostic) (Fix, bool) {
	msg := message(w.Pointer)
	n, ok := d.Len(w.Pointer)
	if role, _ := d.String(child(msg, "role")); !ok || role != "assistant" || w.Pointer != child(msg, "content") ||
		!absentOrNull(d, child(msg, "tool_calls")) {
		return Fix{}, false
	}
	var calls, kept [][]byte
	for i := range n {
		b := index(w.Pointer, i)
		switch typ, _ := d.String(child(b, "type")); typ {
		case "tool_use":
			call, ok := flatCall(d, child(b, "id"), child(b, "name"), child(b, "input"))
			if !ok {
				return Fix{}, false
			}
			calls = append(calls, call)
		case "tool_result":
			return Fix{}, false
		default:
			kept = append(kept, value(d, b))
		}
	}
	if len(calls) == 0 {
		return Fix{}, false
	}
	content := []byte("null")
	if len(kept) > 0 {
		content = array(kept...)
	}
	return patch(Unsafe, replace(w.Pointer, content), Op{Op: "add", Path: child(msg, "tool_calls"), Value: array(calls...)})
}

// argumentsKey renames a kept tool call's args, input or parameters to arguments.
func argumentsKey(d *Doc, w diagnostic) (Fix, bool) {
	entry := w.Pointer
	if d.Kind(child(entry, "function")) == '{' {
		entry = child(entry, "function")
	}
	keys, ok := d.Keys(entry)
	if !ok {
		return Fix{}, false
	}
	for _, k := range keys {
		if k == "arguments" {
			return Fix{}, false
		}
	}
	for _, k := range keys {
		switch k {
		case "args", "input", "parameters":
			return patch(Unsafe, Op{Op: "move", From: child(entry, k), Path: child(entry, "arguments")})
		}
	}
	return Fix{}, false
}

// fold is a key in lower case without separators, to tell a key spelled another way (Messages,
// meta_data) from another word.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ', '.':
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// expectedKey is the key a diagnostic's expected part starts with, quoted: the key of the
// contract that it names.
func expectedKey(w diagnostic) string {
	if !strings.HasPrefix(w.Expected, `"`) {
		return ""
	}
	end := strings.IndexByte(w.Expected[1:], '"')
	if end < 0 {
		return ""
	}
	k, err := strconv.Unquote(w.Expected[:end+2])
	if err != nil {
		return ""
	}
	return k
}

// rename moves the member at w's pointer to the key to, in the same object, when to is one of
// keys and free; safe when the two are one key spelled another way.
func rename(d *Doc, w diagnostic, to string, keys ...string) (Fix, bool) {
	parent, from := parentOf(w.Pointer)
	ok := false
	for _, k := range keys {
		ok = ok || k == to
	}
	if !ok || from == to || d.Has(child(parent, to)) || !d.Has(w.Pointer) {
		return Fix{}, false
	}
	a := Unsafe
	if fold(from) == fold(to) {
		a = Safe
	}
	return patch(a, Op{Op: "move", From: w.Pointer, Path: child(parent, to)})
}

func topLevelKeyVariant(d *Doc, w diagnostic) (Fix, bool) {
	return rename(d, w, expectedKey(w), "messages", "metadata")
}

// metadataKeyVariant renames a metadata key that another SDK spells another way, when the
// count or value it holds is the one the contract's key holds (the note's fix is a rename, not
// a sum or a conversion of units).
func metadataKeyVariant(d *Doc, w diagnostic) (Fix, bool) {
	to := expectedKey(w)
	if w.Fix != "rename it "+strconv.Quote(to) {
		return Fix{}, false
	}
	return rename(d, w, to, "model", "system_prompt_id", "total_input_tokens", "total_output_tokens", "agent_runtime_ms")
}

// metadataAsList merges a metadata list of one-key objects, or of key/value pairs, into one
// object: every entry's key differs, so nothing is lost.
func metadataAsList(d *Doc, w diagnostic) (Fix, bool) {
	n, ok := d.Len(w.Pointer)
	if !ok || n == 0 {
		return Fix{}, false
	}
	seen := map[string]bool{}
	var members []byte
	for i := range n {
		e := index(w.Pointer, i)
		keys, ok := d.Keys(e)
		if !ok {
			return Fix{}, false
		}
		var key string
		var v []byte
		switch {
		case len(keys) == 1:
			key, v = keys[0], value(d, child(e, keys[0]))
		case len(keys) == 2 && (keys[0] == "key" && keys[1] == "value" || keys[0] == "value" && keys[1] == "key"):
			key, ok = d.String(child(e, "key"))
			if !ok {
				return Fix{}, false
			}
			v = value(d, child(e, "value"))
		default:
			return Fix{}, false
		}
		if seen[key] {
			return Fix{}, false
		}
		seen[key] = true
		if len(members) > 0 {
			members = append(members, ',')
		}
		members = append(appendString(members, key), ':')
		members = append(members, v...)
	}
	return patch(Safe, replace(w.Pointer, append(append([]byte{'{'}, members...), '}')))
}

// legacyFunctionCall moves OpenAI's legacy function_call to tool_calls, in the flat form
// without an id (the legacy call has none).
func legacyFunctionCall(d *Doc, w diagnostic) (Fix, bool) {
	msg := message(w.Pointer)
	if w.Pointer != child(msg, "function_call") || !absentOrNull(d, child(msg, "tool_calls")) {
		return Fix{}, false
	}
	call, ok := flatCall(d, "", child(w.Pointer, "name"), child(w.Pointer, "arguments"))
	if !ok {
		return Fix{}, false
	}
	return patch(Unsafe, Op{Op: "remove", Path: w.Pointer}, Op{Op: "add", Path: child(msg, "tool_calls"), Value: array(call)})
}

// finalSerialized replaces a result that holds only the JSON text of a whole result with that
// result.
func finalSerialized(d *Doc, w diagnostic) (Fix, bool) {
	keys, ok := d.Keys("")
	if !ok || len(keys) != 1 || keys[0] != "final_response" {
		return Fix{}, false
	}
	t, ok := holdsJSON(d, w.Pointer, '{')
	if !ok || !answers(NewDoc(t)) {
		return Fix{}, false
	}
	return patch(Unsafe, replace("", t))
}

// finalObjectJSON replaces a final_response that holds the JSON text of a model API's response
// by the text of the answer in it (responseText), when that is not blank: the result stays
// accepted, and the judge grades the answer rather than the object.
func finalObjectJSON(d *Doc, w diagnostic) (Fix, bool) {
	t, ok := holdsJSON(d, w.Pointer, '{')
	if !ok || w.Pointer != "/final_response" {
		return Fix{}, false
	}
	var obj map[string]any
	if json.Unmarshal(t, &obj) != nil {
		return Fix{}, false
	}
	text := responseText(obj)
	if strings.TrimSpace(text) == "" {
		return Fix{}, false
	}
	return patch(Unsafe, replace(w.Pointer, str(text)))
}

// answerInMessages sends as final_response the content of the message the advice on an empty
// or null final_response names, the transcript's last turn, when that content is text that is
// not blank. It is unsafe: the porter should check that this text is the answer the agent
// meant. The content is read through no duplicated key, as the advice read the last of them.
func answerInMessages(d *Doc, w diagnostic) (Fix, bool) {
	content := child(w.Pointer, "content")
	s, ok := d.String(content)
	if message(w.Pointer) != w.Pointer || !ok || strings.TrimSpace(s) == "" || d.duplicated(content) {
		return Fix{}, false
	}
	op := "replace"
	if !d.Has("/final_response") {
		op = "add"
	}
	return patch(Unsafe, Op{Op: op, Path: "/final_response", Value: value(d, content)})
}

// responseText is the answer's text in a model API's response, decoded: an OpenAI chat
// completion's first message content; the text of the output_text parts of an OpenAI
// Responses API response's message items; of an Anthropic message's text blocks; of a Gemini
// response's first candidate's parts without "thought": true. It is "" for another object, and
// for a response that asks for tool calls, whose text is at most a preamble.
func responseText(obj map[string]any) string {
	switch {
	case obj["object"] == "chat.completion":
		choices, _ := obj["choices"].([]any)
		if len(choices) == 0 {
			return ""
		}
		choice, _ := choices[0].(map[string]any)
		msg, _ := choice["message"].(map[string]any)
		if calls, _ := msg["tool_calls"].([]any); len(calls) > 0 {
			return ""
		}
		content, _ := msg["content"].(string)
		return content
	case obj["object"] == "response":
		output, _ := obj["output"].([]any)
		if len(output) == 0 || isToolCall(output[len(output)-1]) {
			return ""
		}
		var b strings.Builder
		for _, item := range output {
			if m, _ := item.(map[string]any); m["type"] == "message" {
				b.WriteString(partsText(m["content"], "output_text"))
			}
		}
		return b.String()
	case obj["type"] == "message" && obj["role"] == "assistant":
		if hasPart(obj["content"], func(p map[string]any) bool { return p["type"] == "tool_use" }) {
			return ""
		}
		return partsText(obj["content"], "text")
	}
	candidates, _ := obj["candidates"].([]any)
	if len(candidates) == 0 {
		return ""
	}
	candidate, _ := candidates[0].(map[string]any)
	content, _ := candidate["content"].(map[string]any)
	if hasPart(content["parts"], func(p map[string]any) bool {
		_, a := p["function_call"].(map[string]any)
		_, b := p["functionCall"].(map[string]any)
		return a || b
	}) {
		return ""
	}
	return partsText(content["parts"], "")
}

// isToolCall reports whether a Responses API output item is a tool call the response ends in.
func isToolCall(item any) bool {
	m, _ := item.(map[string]any)
	return m["type"] == "function_call" || m["type"] == "custom_tool_call"
}

// hasPart reports whether the list of parts or blocks has one that is.
func hasPart(list any, is func(map[string]any) bool) bool {
	parts, _ := list.([]any)
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok && is(m) {
			return true
		}
	}
	return false
}

// partsText joins the "text" of the parts or blocks of list whose "type" is typ (none, for
// typ ""), leaving out a part with "thought": true.
func partsText(list any, typ string) string {
	parts, _ := list.([]any)
	var b strings.Builder
	for _, p := range parts {
		m, _ := p.(map[string]any)
		text, ok := m["text"].(string)
		t, _ := m["type"].(string)
		if ok && t == typ && m["thought"] != true {
			b.WriteString(text)
		}
	}
	return b.String()
}

// answers reports whether the result in d would be accepted: its one final_response is a
// non-empty string. A fix must not turn an accepted result into a rejected one.
func answers(d *Doc) bool {
	keys, ok := d.Keys("")
	n := 0
	for _, k := range keys {
		if k == "final_response" {
			n++
		}
	}
	if !ok || n != 1 {
		return false
	}
	s, ok := d.String("/final_response")
	return ok && s != ""
}

// otherFramework converts an AutoGen AgentChat TextMessage and a LangChain message of
// messages_to_dict to the chat message they stand for.
func otherFramework(d *Doc, w diagnostic) (Fix, bool) {
	if w.Pointer == child(message(w.Pointer), "content") {
		return aiSDKOutput(d, w)
	}
	if message(w.Pointer) != w.Pointer {
		return Fix{}, false
	}
	at := func(k string) string { return child(w.Pointer, k) }
	typ, _ := d.String(at("type"))
	if typ == "TextMessage" {
		source, ok := d.String(at("source"))
		if !ok || d.Kind(at("content")) != '"' {
			return Fix{}, false
		}
		role := "assistant"
		if source == "user" {
			role = "user"
		}
		return patch(Unsafe, replace(w.Pointer, object("role", str(role), "content", value(d, at("content")))))
	}
	role, ok := langChainRoles[typ]
	data := at("data")
	if !ok || d.Kind(data) != '{' {
		return Fix{}, false
	}
	content := value(d, child(data, "content"))
	switch role {
	case "tool":
		m, ok := toolMessage(d, child(data, "tool_call_id"), child(data, "content"))
		if ok {
			return patch(Unsafe, replace(w.Pointer, m))
		}
		return Fix{}, false
	case "assistant":
		calls := child(data, "tool_calls")
		n, _ := d.Len(calls)
		var flat [][]byte
		for i := range n {
			c := index(calls, i)
			call, ok := flatCall(d, child(c, "id"), child(c, "name"), child(c, "args"))
			if !ok {
				return Fix{}, false
			}
			flat = append(flat, call)
		}
		var tc []byte
		if len(flat) > 0 {
			tc = array(flat...)
		}
		return patch(Unsafe, replace(w.Pointer, object("role", str(role), "content", content, "tool_calls", tc)))
	}
	return patch(Unsafe, replace(w.Pointer, object("role", str(role), "content", content)))
}

// aiSDKOutput replaces a tool message's content that is the AI SDK's tool output,
// {"type": "text" or "json", "value": ...}, with the output: the text itself, or the JSON text of
// the value.
func aiSDKOutput(d *Doc, w diagnostic) (Fix, bool) {
	keys, _ := d.Keys(w.Pointer)
	if len(keys) != 2 || keys[0] != "type" || keys[1] != "value" {
		return Fix{}, false
	}
	v := value(d, child(w.Pointer, "value"))
	switch typ, _ := d.String(child(w.Pointer, "type")); {
	case typ == "text" && d.Kind(child(w.Pointer, "value")) == '"':
		return patch(Unsafe, replace(w.Pointer, v))
	case typ == "json":
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return Fix{}, false
		}
		return patch(Unsafe, replace(w.Pointer, str(b.String())))
	}
	return Fix{}, false
}

// textInParts sets the content of a message whose text is in Gemini's parts or LlamaIndex's
// blocks, all of them text, to that text, and removes the parts.
func textInParts(d *Doc, w diagnostic) (Fix, bool) {
	if message(w.Pointer) != w.Pointer || d.Has(child(w.Pointer, "content")) {
		return Fix{}, false
	}
	key, textOf := "parts", func(p string) (string, bool) {
		keys, _ := d.Keys(p)
		if len(keys) != 1 || keys[0] != "text" {
			return "", false
		}
		return d.String(child(p, "text"))
	}
	if !d.Has(child(w.Pointer, key)) {
		key, textOf = "blocks", func(p string) (string, bool) {
			if t, _ := d.String(child(p, "block_type")); t != "text" {
				return "", false
			}
			return d.String(child(p, "text"))
		}
	}
	list := child(w.Pointer, key)
	n, ok := d.Len(list)
	if !ok || n == 0 {
		return Fix{}, false
	}
	var text strings.Builder
	for i := range n {
		t, ok := textOf(index(list, i))
		if !ok {
			return Fix{}, false
		}
		text.WriteString(t)
	}
	return patch(Unsafe, Op{Op: "remove", Path: list}, Op{Op: "add", Path: child(w.Pointer, "content"), Value: str(text.String())})
}

// transcriptKey renames a top-level transcript of chat messages (each an object with a role)
// to messages.
func transcriptKey(d *Doc, w diagnostic) (Fix, bool) {
	n, ok := d.Len(w.Pointer)
	if !ok || n == 0 || d.Has("/messages") {
		return Fix{}, false
	}
	for i := range n {
		if d.Kind(child(index(w.Pointer, i), "role")) != '"' {
			return Fix{}, false
		}
	}
	return patch(Unsafe, Op{Op: "move", From: w.Pointer, Path: "/messages"})
}

// Appender returns, for a record of input, what the explain view calls for each diagnostic:
// it appends the diagnostic's fix members (AppendKeys) to dst, or nothing when it has no fix.
// Its fixes hold at most twice the input's size and 64 KiB more in all; past that, and past
// the Doc's budget of bytes read, diagnostics are left without a patch, so that a hostile
// input's thousand diagnostics cost a bounded multiple of its size.
func Appender(input []byte) func(dst []byte, w softwarn.Warning) []byte {
	d := NewDoc(input)
	left := 2*len(input) + 64<<10
	return func(dst []byte, w softwarn.Warning) []byte {
		if left <= 0 {
			return dst
		}
		f, ok := For(d, w)
		if !ok {
			return dst
		}
		n := len(dst)
		dst = f.AppendKeys(dst)
		left -= len(dst) - n
		return dst
	}
}

// otherToolCalls moves the tool calls and tool results a kept message holds in another
// framework's members to the contract's: Strands' toolUse blocks of an assistant message's
// content to its tool_calls, and a user message whose content is one toolResult block of one
// text or json item to a tool message; LlamaIndex's additional_kwargs.tool_calls and
// tool_call_id (Python) to the message's own keys; and its options.toolCall (JavaScript) to
// tool_calls, a user message with options.toolResult to a tool message. The message's other
// members are kept.
func otherToolCalls(d *Doc, w diagnostic) (Fix, bool) {
	msg := message(w.Pointer)
	role, _ := d.String(child(msg, "role"))
	switch w.Pointer {
	case child(msg, "content"):
		if role == "assistant" {
			return strandsToolUse(d, w.Pointer, msg)
		}
		return strandsToolResult(d, w.Pointer, msg)
	case child(msg, "additional_kwargs"):
		var ops []Op
		for _, k := range []string{"tool_calls", "tool_call_id"} {
			from := child(w.Pointer, k)
			if kind := d.Kind(from); (kind == '[' && k == "tool_calls" && readableCalls(d, from) || kind == '"' && k == "tool_call_id") && absentOrNull(d, child(msg, k)) {
				ops = append(ops, Op{Op: "move", From: from, Path: child(msg, k)})
			}
		}
		if len(ops) == 0 {
			return Fix{}, false
		}
		return patch(Unsafe, ops...)
	case child(msg, "options"):
		return llamaOptions(d, w.Pointer, msg, role)
	}
	return Fix{}, false
}

// readableCalls reports whether every entry of the array at p is a tool call the platform
// reads, so that moving the array into a message keeps the message: one unreadable call drops
// it (pkg/messages' readToolCall). A call is an object whose "function", unless absent or
// null, is an object with a string "name", and otherwise whose own "name" is a string; its
// "id" is absent, null or a string.
func readableCalls(d *Doc, p string) bool {
	n, ok := d.Len(p)
	if !ok {
		return false
	}
	for i := range n {
		c := index(p, i)
		if _, ok := d.Keys(c); !ok { // listed first: the Kinds below then read what it lists
			return false
		}
		switch fn := child(c, "function"); d.Kind(fn) {
		case 0, 'n':
			if d.Kind(child(c, "name")) != '"' {
				return false
			}
		case '{':
			if d.Kind(child(fn, "name")) != '"' {
				return false
			}
		default:
			return false
		}
		if k := d.Kind(child(c, "id")); k != 0 && k != 'n' && k != '"' {
			return false
		}
	}
	return true
}

// strandsToolUse moves the toolUse blocks of content to tool_calls, leaving the other blocks.
func strandsToolUse(d *Doc, content, msg string) (Fix, bool) {
	n, ok := d.Len(content)
	if !ok || !absentOrNull(d, child(msg, "tool_calls")) {
		return Fix{}, false
	}
	var calls, kept [][]byte
	for i := range n {
		b := index(content, i)
		use := child(b, "toolUse")
		switch {
		case d.Kind(use) == '{':
			call, ok := flatCall(d, child(use, "toolUseId"), child(use, "name"), child(use, "input"))
			if !ok {
				return Fix{}, false
			}
			calls = append(calls, call)
		case d.Has(child(b, "toolResult")):
			return Fix{}, false
		default:
			kept = append(kept, value(d, b))
		}
	}
	if len(calls) == 0 {
		return Fix{}, false
	}
	text := []byte("null")
	if len(kept) > 0 {
		text = array(kept...)
	}
	return patch(Unsafe, replace(content, text), Op{Op: "add", Path: child(msg, "tool_calls"), Value: array(calls...)})
}

// strandsToolResult turns a user message whose content is one toolResult block, of one text
// or json item, into the tool message of that result.
func strandsToolResult(d *Doc, content, msg string) (Fix, bool) {
	result := child(index(content, 0), "toolResult")
	items := child(result, "content")
	if n, ok := d.Len(content); !ok || n != 1 || d.Kind(result) != '{' || d.Kind(child(result, "toolUseId")) != '"' ||
		!absentOrNull(d, child(msg, "tool_call_id")) {
		return Fix{}, false
	}
	if n, ok := d.Len(items); !ok || n != 1 {
		return Fix{}, false
	}
	var text []byte
	switch item := index(items, 0); {
	case d.Kind(child(item, "text")) == '"':
		text = value(d, child(item, "text"))
	case d.Has(child(item, "json")):
		var b bytes.Buffer
		if json.Compact(&b, value(d, child(item, "json"))) != nil {
			return Fix{}, false
		}
		text = str(b.String())
	default:
		return Fix{}, false
	}
	return patch(Unsafe, replace(child(msg, "role"), str("tool")),
		Op{Op: "add", Path: child(msg, "tool_call_id"), Value: value(d, child(result, "toolUseId"))},
		replace(content, text))
}

// llamaOptions moves a LlamaIndex ChatMessage's options.toolCall to tool_calls, or makes a
// user message with options.toolResult the tool message of that result.
func llamaOptions(d *Doc, options, msg, role string) (Fix, bool) {
	calls := child(options, "toolCall")
	if n, ok := d.Len(calls); ok && d.Kind(calls) == '[' && n > 0 && absentOrNull(d, child(msg, "tool_calls")) {
		flat := make([][]byte, 0, n)
		for i := range n {
			c := index(calls, i)
			call, ok := flatCall(d, child(c, "id"), child(c, "name"), child(c, "input"))
			if !ok {
				return Fix{}, false
			}
			flat = append(flat, call)
		}
		return patch(Unsafe, Op{Op: "add", Path: child(msg, "tool_calls"), Value: array(flat...)})
	}
	result := child(options, "toolResult")
	if role == "tool" || d.Kind(child(result, "id")) != '"' || d.Kind(child(result, "result")) != '"' || !absentOrNull(d, child(msg, "tool_call_id")) {
		return Fix{}, false
	}
	return patch(Unsafe, replace(child(msg, "role"), str("tool")),
		Op{Op: "add", Path: child(msg, "tool_call_id"), Value: value(d, child(result, "id"))},
		Op{Op: "add", Path: child(msg, "content"), Value: value(d, child(result, "result"))})
}
