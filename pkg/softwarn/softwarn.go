// Package softwarn defines the soft warnings that normalization reports: what was wrong with a
// part of a handler result, where it was, and what was done about it.
//
// A warning is data, never an error: malformed rich mode is dropped with a warning and the run
// is still graded. Every warning carries a dotted path (messages[3].tool_calls[0]), the same
// place as an RFC 6901 JSON Pointer (/messages/3/tool_calls/0), a stable Code that clients may
// branch on, the Action taken, and what it says in Parts: what was Found, what was Expected,
// what was Done and the Fix (or, for a warning not worded as what was found, the Problem). Its
// message, the line a person reads in a record's soft_warnings, is composed from the parts;
// nothing reads the parts back out of the text. Its place, likewise, is held as the keys and
// indexes that lead to it (a Loc), and the path and the pointer are written from them when the
// record is, or built by Path and Pointer when asked for.
package softwarn

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// Action says what normalization did with the value a warning concerns.
type Action string

const (
	Dropped   Action = "dropped"   // the value (or its whole message) was removed
	Truncated Action = "truncated" // the value was cut short
	Replaced  Action = "replaced"  // part of the value was replaced
	Kept      Action = "kept"      // the value was kept as it is; the warning is advice
)

// Code is a stable, snake_case name for one kind of warning. Codes never change meaning; new
// kinds get new codes.
type Code string

// Warnings about the handler result.
const (
	FinalResponseTruncated     Code = "final_response_truncated"
	FinalResponseLoneSurrogate Code = "final_response_lone_surrogate"
	DuplicateKey               Code = "duplicate_key"
	MessagesNotArray           Code = "messages_not_array"
	MessageNotObject           Code = "message_not_object"
	MessageRoleMissing         Code = "message_role_missing"
	MessageRoleInvalid         Code = "message_role_invalid"
	MessageContentInvalid      Code = "message_content_invalid"
	MessageToolCallIDInvalid   Code = "message_tool_call_id_invalid"
	MessageToolCallsInvalid    Code = "message_tool_calls_invalid"
	ToolCallInvalid            Code = "tool_call_invalid"
	MessageThinkingInvalid     Code = "message_thinking_invalid"
	OpenAIResponsesItem        Code = "message_openai_responses_item"
	AnthropicBlockMessage      Code = "message_anthropic_block"
	MetadataNotObject          Code = "metadata_not_object"
	MetadataKeyInvalid         Code = "metadata_key_invalid"
	WarningsLimited            Code = "warnings_limited"
)

// Notes: advice for a person porting an agent, reported only by the explain view. They are not
// soft warnings: the platform reports none of them. Most concern values kept as sent; a few
// concern what the contract leaves out without a warning (arguments under another key, a
// top-level key spelled another way), and their action says so.
const (
	ToolCallUnanswered       Code = "tool_call_unanswered"
	ToolResultUnmatched      Code = "tool_result_unmatched"
	AnthropicContentBlocks   Code = "anthropic_content_blocks"
	ToolCallArgumentsKey     Code = "tool_call_arguments_key"    // arguments under another SDK's key (args, input): dropped
	TopLevelKeyVariant       Code = "top_level_key_variant"      // Messages, meta_data: ignored as unknown
	MetadataKeyVariant       Code = "metadata_key_variant"       // input_tokens, Model, usage{}: kept unchecked, not shown
	MetadataAsList           Code = "metadata_as_list"           // [{"model": ...}, ...] or key/value pairs: dropped, merge them
	LegacyFunctionCall       Code = "legacy_function_call"       // OpenAI's function_call, which the trace does not show
	FinalResponseSerialized  Code = "final_response_serialized"  // final_response is the JSON text of a whole result
	FinalResponsePlaceholder Code = "final_response_placeholder" // whitespace, or "None": nothing to grade
	FinalResponseRepr        Code = "final_response_repr"        // Python's repr of a result object, not its text
	NotesLimited             Code = "notes_limited"              // more notes than a record lists
	MessageOtherFramework    Code = "message_other_framework"    // AutoGen, Pydantic AI, smolagents, Gemini, the AI SDK's tool output: dropped
	MessageTextInParts       Code = "message_text_in_parts"      // Gemini's "parts" and no "content": kept, text unread
	TopLevelTranscriptKey    Code = "top_level_transcript_key"   // a transcript under "history", "steps": ignored as unknown
	ToolCallsOtherFramework  Code = "tool_calls_other_framework" // Strands' toolUse blocks, LlamaIndex's options.toolCall: kept, calls unread
	FinalResponseObjectJSON  Code = "final_response_object_json" // the JSON text of a model API's response, not its answer
	FinalResponsePreamble    Code = "final_response_preamble"    // the text of the last assistant message, which calls tools
)

// Advice on a rejection whose message the contract fixes (an empty or null final_response):
// what the input shows of why, reported only by the explain view, in the error object's
// "advice", beside the message and never in it.
const (
	FinalResponseStoppedAtToolCall Code = "final_response_stopped_at_tool_call" // the transcript ends in a tool call that no answer follows
	FinalResponseAnswerInMessages  Code = "final_response_answer_in_messages"   // the transcript ends in an assistant's answer: send its text
)

// warningCodes, noteCodes and adviceCodes are every code, in the order declared; TestCodeLists keeps them
// in step with the declarations.
var (
	warningCodes = [...]Code{
		FinalResponseTruncated, FinalResponseLoneSurrogate, DuplicateKey, MessagesNotArray, MessageNotObject,
		MessageRoleMissing, MessageRoleInvalid, MessageContentInvalid, MessageToolCallIDInvalid, MessageToolCallsInvalid,
		ToolCallInvalid, MessageThinkingInvalid, OpenAIResponsesItem, AnthropicBlockMessage, MetadataNotObject,
		MetadataKeyInvalid, WarningsLimited,
	}
	noteCodes = [...]Code{
		ToolCallUnanswered, ToolResultUnmatched, AnthropicContentBlocks, ToolCallArgumentsKey, TopLevelKeyVariant,
		MetadataKeyVariant, MetadataAsList, LegacyFunctionCall, FinalResponseSerialized, FinalResponsePlaceholder,
		FinalResponseRepr, NotesLimited, MessageOtherFramework, MessageTextInParts, TopLevelTranscriptKey,
		ToolCallsOtherFramework, FinalResponseObjectJSON, FinalResponsePreamble,
	}
	adviceCodes = [...]Code{FinalResponseStoppedAtToolCall, FinalResponseAnswerInMessages}
)

// WarningCodes returns the codes of the soft warnings, in the order declared: the codes a
// record's warnings have. The slice is a fresh copy.
func WarningCodes() []Code { return append([]Code(nil), warningCodes[:]...) }

// NoteCodes returns the codes of the explain view's notes, in the order declared. The slice is
// a fresh copy.
func NoteCodes() []Code { return append([]Code(nil), noteCodes[:]...) }

// AdviceCodes returns the codes of a rejection's advice, in the order declared: the codes the
// explain view's error object has under "advice". The slice is a fresh copy.
func AdviceCodes() []Code { return append([]Code(nil), adviceCodes[:]...) }

// LastValueKept is what is done about a duplicate key, in the result object, a message, a tool
// call or metadata alike: a warning's Done.
const LastValueKept = "the last value was kept and the earlier ones dropped, as the platform's parser does"

// Warning is one soft warning (or, in the explain view, one note). Its place is a Loc, which
// Path and Pointer write out on each call: a warning is built, and written into a record,
// without building either string.
type Warning struct {
	Code   Code
	Action Action
	Parts  // what it says; Message composes them
	at     Loc
}

// Loc is where the warning is.
func (w Warning) Loc() Loc { return w.at }

// Path is the dotted path of the warning's place, e.g. messages[3].tool_calls[0]; a new string
// on each call (Loc.Path).
func (w Warning) Path() string { return w.at.Path() }

// Pointer is the RFC 6901 pointer to the same place, e.g. /messages/3/tool_calls/0; a new
// string on each call (Loc.Pointer).
func (w Warning) Pointer() string { return w.at.Pointer() }

// Parts are what a warning says, part by part. Its message composes them as
//
//	found FOUND, expected EXPECTED; DONE; FIX
//
// with "SUBJECT is FOUND" in place of "found FOUND" when Subject is set, and PROBLEM in place of
// both when Problem is; a part that is empty is left out with its separator. Each part is whole
// characters, as a message cut into them would be.
type Parts struct {
	// Subject is the member of the value at the warning's path that Found describes, when it
	// is not the value itself: "function.name", read "function.name is missing".
	Subject string
	// Found is what was found, as the message words it: "a number", `"developer"`, "no role".
	Found string
	// Expected is what the contract expects there: `one of "system", "user", "assistant", "tool"`.
	Expected string
	// Problem is what is wrong, for a warning not worded as what was found (a duplicate key, an
	// answer over the cap): the first clause of the message, whole.
	Problem string
	// Done is what normalization did: "the message was dropped", "the key was dropped".
	Done string
	// Fix is what to change in the handler, when it is known.
	Fix string
}

// String is the warning as it appears in soft_warnings: the path, ": ", then the message.
func (w Warning) String() string {
	b := w.at.appendPath(make([]byte, 0, w.textLen()), false)
	return string(w.compose(append(b, ": "...), appendRaw))
}

// textLen is the length of String in bytes.
func (w Warning) textLen() int { return w.at.PathLen() + len(": ") + w.Len() }

// AppendQuoted appends String as a JSON string, the path written from the Loc.
func (w Warning) AppendQuoted(dst []byte) []byte {
	dst = w.at.appendPath(append(dst, '"'), true)
	dst = w.compose(append(dst, ": "...), jsonscan.AppendStringContent)
	return append(dst, '"')
}

// Message is what the warning says, composed from its parts.
func (p Parts) Message() string { return string(p.AppendMessage(make([]byte, 0, p.Len()))) }

// AppendMessage appends Message.
func (p Parts) AppendMessage(dst []byte) []byte { return p.compose(dst, appendRaw) }

// AppendQuotedMessage appends Message as a JSON string.
func (p Parts) AppendQuotedMessage(dst []byte) []byte {
	dst = append(dst, '"')
	dst = p.compose(dst, jsonscan.AppendStringContent)
	return append(dst, '"')
}

// Finding is the message's first clause without what was expected: the Problem, or "found
// FOUND", or "SUBJECT is FOUND"; "" when none of them is set.
func (p Parts) Finding() string {
	switch {
	case p.Problem != "":
		return p.Problem
	case p.Found == "":
		return ""
	case p.Subject != "":
		return p.Subject + " is " + p.Found
	}
	return "found " + p.Found
}

// Len is the length of Message in bytes.
func (p Parts) Len() int {
	n := 0
	switch {
	case p.Problem != "":
		n = len(p.Problem)
	case p.Found != "" && p.Subject != "":
		n = len(p.Subject) + len(" is ") + len(p.Found)
	case p.Found != "":
		n = len("found ") + len(p.Found)
	}
	for _, part := range [...]struct {
		sep  string
		text string
	}{{", expected ", p.Expected}, {"; ", p.Done}, {"; ", p.Fix}} {
		if part.text != "" {
			if n > 0 {
				n += len(part.sep)
			}
			n += len(part.text)
		}
	}
	return n
}

// compose appends the message, each part through add (which escapes it, or not); the words
// between the parts need no escaping.
func (p Parts) compose(dst []byte, add func([]byte, string) []byte) []byte {
	start := len(dst)
	switch {
	case p.Problem != "":
		dst = add(dst, p.Problem)
	case p.Found != "":
		if p.Subject != "" {
			dst = add(dst, p.Subject)
			dst = append(dst, " is "...)
		} else {
			dst = append(dst, "found "...)
		}
		dst = add(dst, p.Found)
	}
	dst = appendPart(dst, start, ", expected ", p.Expected, add)
	dst = appendPart(dst, start, "; ", p.Done, add)
	return appendPart(dst, start, "; ", p.Fix, add)
}

// appendPart appends text, after sep unless it is the first part since start.
func appendPart(dst []byte, start int, sep, text string, add func([]byte, string) []byte) []byte {
	if text == "" {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, sep...)
	}
	return add(dst, text)
}

func appendRaw(dst []byte, s string) []byte { return append(dst, s...) }

// MaxKeyShown is the most of a key, in bytes, that a warning's path, pointer or message shows.
const MaxKeyShown = 128

// QuoteKey quotes a key for a path or a message, as strconv.Quote does, except that a key
// holding a lone surrogate (unescaped from \ud800, which no UTF-8 text can hold) shows it as
// the escape it was sent as, not as the bytes that stand for it. A key longer than MaxKeyShown
// bytes is cut, with "…".
func QuoteKey(key string) string {
	return string(appendQuotedKey(nil, jsonscan.Cut(key, MaxKeyShown)))
}

// appendQuotedKey appends QuoteKey of a key already cut.
func appendQuotedKey(dst []byte, key string) []byte {
	if utf8.ValidString(key) {
		return strconv.AppendQuote(dst, key)
	}
	return jsonscan.AppendString(dst, key)
}

// DefaultLimit is the number of warnings a record lists by default (normalize.DefaultMaxWarnings,
// and messages.Check's): past it, one warnings_limited warning counts the rest.
const DefaultLimit = 1000

// Collector keeps warnings in the order they were found, up to a limit. Its zero value is ready
// to use and has no limit.
type Collector struct {
	list      []Warning
	limit     int
	skipped   int
	firstArea string
	closed    bool // Close has added its warning
	// text is the unused end of the buffer that TextBuf and Keep build texts in: only ever
	// appended to, so that no string Keep returned is written over, whatever the collector
	// does next (SetLimit keeps it).
	text []byte
}

// Room for a text, and the buffer that TextBuf starts when less is left: a text that quotes a
// number of the input holds it twice, cut to about 64 bytes, and some words.
const (
	textRoom  = 256
	textChunk = 4 << 10
)

// TextBuf returns an empty buffer to build the text of a warning in (one that quotes a value
// of the input, such as "the number 17"), for Keep to make a string of: many such texts share
// one allocation, instead of a string each.
func (c *Collector) TextBuf() []byte {
	if cap(c.text) < textRoom {
		c.text = make([]byte, 0, textChunk)
	}
	return c.text[:0]
}

// Keep returns b, which TextBuf returned and the caller appended a text to, as a string, and
// keeps the rest of the buffer for the next text. The string shares b's bytes: nothing
// writes them again, since the next TextBuf starts past them.
func (c *Collector) Keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	c.text = b[len(b):]
	return unsafe.String(&b[0], len(b))
}

// SetLimit makes the collector keep at most n warnings (n <= 0: no limit) and forgets all.
// A hostile result can hold millions of invalid entries; past the limit they are counted, not
// described, and Close adds one warning that says how many were left out.
func (c *Collector) SetLimit(n int) {
	c.list, c.limit, c.skipped, c.firstArea, c.closed = c.list[:0], n, 0, "", false
}

// Skipped is the number of warnings counted but not listed.
func (c *Collector) Skipped() int { return c.skipped }

// Cap is the capacity of the list, so that a pool can refuse to keep a huge one.
func (c *Collector) Cap() int { return cap(c.list) }

// Full reports whether the limit is reached: callers skip building warnings that would only be
// counted, and call Skip instead.
func (c *Collector) Full() bool { return c.limit > 0 && len(c.list) >= c.limit }

// Skip counts a warning that was not listed; area is the top-level key it is about.
func (c *Collector) Skip(area string) {
	if c.skipped == 0 {
		c.firstArea = area
	}
	c.skipped++
}

// Add appends w, or counts it when the limit is reached.
func (c *Collector) Add(w Warning) {
	if c.Full() {
		c.Skip(w.at.topLevel())
		return
	}
	c.list = append(c.list, w)
}

// AddAlways appends w even past the limit. It is for the warnings about the graded answer
// itself (final_response was cut or had characters replaced), at most two per record: a list
// filled by a hostile transcript must not hide that the answer changed.
func (c *Collector) AddAlways(w Warning) { c.list = append(c.list, w) }

// Close adds the warning about the warnings left out, if any were. It is idempotent: a second
// Close adds nothing (until SetLimit starts over).
func (c *Collector) Close() {
	if c.skipped == 0 || c.closed {
		return
	}
	c.closed = true
	area := c.firstArea
	c.list = append(c.list, At(area).Warning(WarningsLimited, Dropped, Parts{
		Problem: strconv.Itoa(c.skipped) + " more warnings (the first about " + area + ") were not listed: a record lists at most " +
			strconv.Itoa(c.limit) + " (those about final_response are listed even past that)",
		Done: "what they concern was dropped all the same",
		Fix:  "fix the ones listed and normalize again",
	}))
}

// Len is the number of warnings collected so far; with Truncate it marks a point to roll back to.
func (c *Collector) Len() int { return len(c.list) }

// Truncate forgets every warning added after the first n, as when a duplicate key replaces a
// value whose warnings no longer apply.
func (c *Collector) Truncate(n int) { c.list = c.list[:n] }

// Remove deletes the warnings in [from, to), keeping the order of the rest.
func (c *Collector) Remove(from, to int) {
	c.list = append(c.list[:from], c.list[to:]...)
}

// Warnings returns the collected warnings. The slice is owned by the collector.
func (c *Collector) Warnings() []Warning { return c.list }

// Strings returns the warnings as soft_warnings strings.
func Strings(ws []Warning) []string {
	out := make([]string, len(ws))
	for i := range ws {
		out[i] = ws[i].String()
	}
	return out
}
