// Package codedoc is the reference of the codes that soft warnings and notes carry, and writes
// it as docs/codes.md: for each code, what triggers it, an example input, the diagnostic the
// normalizer gives that input and the fix. The diagnostics are not written by hand: Markdown
// normalizes each example, so the reference shows what the normalizer says today.
//
// Regenerate the document with `go generate ./internal/codedoc`; its test fails when a code has
// no entry, when an example does not give its code, or when docs/codes.md is stale.
package codedoc

//go:generate go run ../tools/gencodes -o ../../docs/codes.md

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dystopic/normalizer/pkg/fix"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Entry is one code's reference.
type Entry struct {
	Code    softwarn.Code
	Trigger string // what makes the normalizer report it (Markdown)
	Input   string // an example input that gets it
	Shown   string // the input as the reference shows it, when Input is too long to show
	// MaxWarnings is the limit on listed warnings (and notes) Input is normalized with, when it
	// is not the default (normalize.WithMaxWarnings).
	MaxWarnings int
	// Fix is the fix, for a code whose message names none; "" when it does.
	Fix string
}

// Example is what the normalizer says about an entry's input: the first diagnostic with the
// entry's code, as the explain view writes it, and its parts.
type Example struct {
	Severity   string
	Action     softwarn.Action
	Diagnostic json.RawMessage // as the explain view writes it, indented
	Line       string          // the soft_warnings line, for a warning
	Fix        string          // the fix the message names, or the entry's
	FixByHand  bool            // Fix is the entry's: the message names none
}

// Run normalizes e's input with the explain view and returns its diagnostic.
func (e *Entry) Run() (*Example, error) {
	opts := []normalize.Option{normalize.WithExplain(), normalize.WithFixes(fix.Appender)}
	if e.MaxWarnings > 0 {
		opts = append(opts, normalize.WithMaxWarnings(e.MaxWarnings))
	}
	res, err := porting.Normalize([]byte(e.Input), opts...)
	if err != nil {
		return e.advice(err)
	}
	var record struct{ Diagnostics []json.RawMessage }
	if err := json.Unmarshal(res.AppendJSON(nil), &record); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Code, err)
	}
	all := append(slices.Clone(res.Warnings()), res.Notes()...)
	for i, w := range all {
		if w.Code != e.Code {
			continue
		}
		x := &Example{Severity: "note", Action: w.Action, Fix: w.Fix}
		if i < len(res.Warnings()) {
			x.Severity, x.Line = "warning", w.String()
		}
		var b bytes.Buffer
		if err := json.Indent(&b, record.Diagnostics[i], "", "  "); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Code, err)
		}
		x.Diagnostic = b.Bytes()
		switch {
		case x.Fix != "" && e.Fix != "":
			return nil, fmt.Errorf("%s: the message names a fix (%q): the entry's Fix is not needed", e.Code, x.Fix)
		case x.Fix == "":
			x.Fix, x.FixByHand = e.Fix, true
		}
		if x.Fix == "" {
			return nil, fmt.Errorf("%s: neither the message nor the entry names a fix", e.Code)
		}
		return x, nil
	}
	return nil, fmt.Errorf("%s: the example gets no diagnostic with its code", e.Code)
}

// advice is the example of an advice code: the advice of err, the example's rejection.
func (e *Entry) advice(err error) (*Example, error) {
	var shape *normalize.ResponseShapeError
	if !errors.As(err, &shape) || shape.Advice == nil || shape.Advice.Code != e.Code {
		return nil, fmt.Errorf("%s: the example is rejected without its advice: %w", e.Code, err)
	}
	var obj struct {
		Error struct{ Advice json.RawMessage }
	}
	if err := json.Unmarshal(normalize.AppendError(nil, err), &obj); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Code, err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, obj.Error.Advice, "", "  "); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Code, err)
	}
	if shape.Advice.Fix == "" {
		return nil, fmt.Errorf("%s: the advice names no fix", e.Code)
	}
	return &Example{Severity: "advice", Diagnostic: b.Bytes(), Fix: shape.Advice.Fix}, nil
}

// Markdown is docs/codes.md.
func Markdown() ([]byte, error) {
	examples := make([]*Example, len(Entries))
	for i := range Entries {
		x, err := Entries[i].Run()
		if err != nil {
			return nil, err
		}
		examples[i] = x
	}
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("| code | severity | action |\n|---|---|---|\n")
	for i, e := range Entries {
		action := string(examples[i].Action)
		if action == "" {
			action = "rejected"
		}
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", e.Code, e.Code, examples[i].Severity, action)
	}
	section := ""
	for i, e := range Entries {
		x := examples[i]
		if x.Severity != section {
			section = x.Severity
			b.WriteString(map[string]string{"warning": warningsHeading, "note": notesHeading, "advice": adviceHeading}[section])
		}
		writeEntry(&b, &e, x)
	}
	return b.Bytes(), nil
}

func writeEntry(b *bytes.Buffer, e *Entry, x *Example) {
	fmt.Fprintf(b, "\n### `%s`\n\n", e.Code)
	if x.Severity == "advice" {
		writeAdvice(b, e, x)
		return
	}
	fmt.Fprintf(b, "A %s; action `%s`. %s\n\n", x.Severity, x.Action, e.Trigger)
	input := fence("json", e.Input)
	if e.Shown != "" {
		input = fence("", e.Shown)
	}
	fmt.Fprintf(b, "Input%s:\n\n%s", normalizedWith(e), input)
	if x.Line != "" {
		fmt.Fprintf(b, "\nIn `soft_warnings`:\n\n%s", fence("", x.Line))
	}
	fmt.Fprintf(b, "\nIn the explain view's `diagnostics`:\n\n%s", fence("json", string(x.Diagnostic)))
	switch {
	case x.FixByHand && x.Fix != "":
		fmt.Fprintf(b, "\nFix: %s\n", x.Fix)
	case x.Fix != "":
		fmt.Fprintf(b, "\nFix, as the message says: %s\n", inline(x.Fix))
	}
	if why := fix.WhyNone(e.Code); why != "" {
		fmt.Fprintf(b, "\nNo machine-applicable fix: %s.\n", why)
	} else {
		fmt.Fprintf(b, "\nMachine-applicable fix: %s.\n", fixables[e.Code])
	}
}

// writeAdvice writes an advice code's entry: the rejection's input and the advice beside its
// message, and its machine-applicable fix when the input holds the answer.
func writeAdvice(b *bytes.Buffer, e *Entry, x *Example) {
	fmt.Fprintf(b, "Advice on a rejection. %s\n\n", e.Trigger)
	fmt.Fprintf(b, "Input:\n\n%s", fence("json", e.Input))
	fmt.Fprintf(b, "\nIn the explain view's error object, as `advice`:\n\n%s", fence("json", string(x.Diagnostic)))
	fmt.Fprintf(b, "\nFix, as the message says: %s\n", inline(x.Fix))
	if how, ok := fixables[e.Code]; ok {
		fmt.Fprintf(b, "\nMachine-applicable fix: %s.\n", how)
	}
}

func normalizedWith(e *Entry) string {
	if e.MaxWarnings == 0 {
		return ""
	}
	return fmt.Sprintf(" (normalized with `normalize.WithMaxWarnings(%d)`)", e.MaxWarnings)
}

// fence is text in a fenced code block, its fence longer than any run of backticks in it.
func fence(lang, text string) string {
	f := "```"
	for strings.Contains(text, f) {
		f += "`"
	}
	return f + lang + "\n" + text + "\n" + f + "\n"
}

// inline is text as inline code.
func inline(text string) string {
	f := "`"
	for strings.Contains(text, f) {
		f += "`"
	}
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		return f + " " + text + " " + f
	}
	return f + text + f
}

const header = `# Codes

<!-- Generated by go generate ./internal/codedoc from internal/codedoc/entries.go. DO NOT EDIT. -->

Every soft warning and every note of the explain view carries a stable code: clients branch on
it (never on the message's text), and ` + "`/metrics`" + ` counts soft warnings by it. A code never
changes meaning; a new kind of problem gets a new code. Soft warnings are in every record's
` + "`soft_warnings`" + `; notes are advice for a person porting an agent, in the explain view only
(` + "`--explain`, `?explain=true`" + `), and no soft warning.

Each entry says what triggers the code and shows an example input with what the normalizer
says about it: the ` + "`soft_warnings`" + ` line for a warning, and the diagnostic of the explain
view, whose ` + "`message`" + ` is composed from the parts after it (` + "`subject`, `found`, `expected`, `problem`, `done`, `fix`" + `;
schemas/diagnostic.schema.json). The examples are the normalizer's own output, produced when
this file is generated.

Where the fix is mechanical, the diagnostic's ` + "`fix`" + ` also carries it as data, as ruff's and
rustc's do: ` + "`applicability`" + ` (` + "`safe`" + `: the meaning of every value is kept, as for a
role in another case, and ` + "`normalizer fix`" + ` applies it; ` + "`unsafe`" + `: a conversion of another
API's shape, for a porter to review, applied with ` + "`--unsafe`" + `) and ` + "`patch`" + `, RFC 6902 JSON Patch
operations against the input. Each entry says when its code has one; a fix that would need a
value the input does not hold (a role for plain text, a tool's result) is never made.

`

const warningsHeading = "\n## Soft warnings\n"

const notesHeading = "\n## Notes\n"

const adviceHeading = `
## Advice on a rejection

A rejection whose message the contract fixes byte for byte (an empty or null ` + "`final_response`" + `)
carries, in the explain view only, an ` + "`advice`" + ` object beside its message: what the input shows
of why, and the fix (with a machine-applicable one when the input holds what is missing). The
plain error object has none.
`

// fixables says, for each code that can have a machine-applicable fix (package fix), when it
// does and what it is; TestFixables keeps it in step with fix's table.
var fixables = map[softwarn.Code]string{
	softwarn.FinalResponseLoneSurrogate:    "safe, each lone surrogate escape replaced by `\\ufffd`, the character the record holds in its place",
	softwarn.MessagesNotArray:              "safe, for an object (wrapped in an array) or a string holding an array's JSON text (the array)",
	softwarn.MessageNotObject:              "safe, for a string holding an object's JSON text (the object); none for plain text, whose role only the sender knows",
	softwarn.MessageRoleMissing:            "unsafe, for a LangChain message with its content at the top: the role its `type` stands for",
	softwarn.MessageRoleInvalid:            "safe for a role in another case or with spaces (`\"User\"`); unsafe for another API's role (`developer` to `system`, `model` to `assistant`, `human` to `user`, `function` to `tool`); none for a role that is no string",
	softwarn.MessageContentInvalid:         "safe for a bare content part (wrapped in an array); unsafe for a tool message's structured output (its JSON text); none for other objects and other kinds",
	softwarn.MessageToolCallIDInvalid:      "safe, for a number (its text as a string)",
	softwarn.MessageToolCallsInvalid:       "safe, for a single tool call object (wrapped in an array)",
	softwarn.ToolCallInvalid:               "safe, for an id or a name that is a number (its text as a string); none for a missing name, which the input does not hold",
	softwarn.MessageThinkingInvalid:        "safe for a single object (wrapped in an array); unsafe for text (an Anthropic thinking block holding it)",
	softwarn.OpenAIResponsesItem:           "unsafe, for a `function_call` item (an assistant message with the call), a `function_call_output` item (a tool message) and a `reasoning` item (removed); none for hosted tools' items, whose calls have no name and arguments of the flat form",
	softwarn.AnthropicBlockMessage:         "unsafe, for a `tool_result` block (a tool message) and a `tool_use` block (an assistant message with the call); none for a bare text part, whose role only the sender knows",
	softwarn.MetadataNotObject:             "safe, for a string holding an object's JSON text (the object)",
	softwarn.MetadataKeyInvalid:            "safe, for a count or a time sent as a string of a number (`\"217\"` to `217`), a model sent as a number, and null (the key removed); none for a number that fails its check",
	softwarn.ToolResultUnmatched:           "unsafe, for Anthropic's `tool_use_id` (renamed `tool_call_id`); none for an id that matches no call, which only the sender can correct",
	softwarn.AnthropicContentBlocks:        "unsafe, for an assistant message without `tool_calls` whose content holds `tool_use` blocks (moved to `tool_calls`); none for `tool_result` blocks, which become messages of their own",
	softwarn.ToolCallArgumentsKey:          "unsafe: the key renamed `arguments`",
	softwarn.TopLevelKeyVariant:            "safe for another case or separators (`Messages`, `meta_data`); unsafe for another word (`message`)",
	softwarn.MetadataKeyVariant:            "when the note's fix is a rename: safe for another case or separators (`agentRuntimeMs`), unsafe for another SDK's name (`prompt_tokens`); none for a usage object or a count to be summed or converted, which the message says how to compute",
	softwarn.MetadataAsList:                "safe: the entries merged into one object (their keys differ, or there is no note)",
	softwarn.LegacyFunctionCall:            "unsafe, for a message without `tool_calls`: the call moved to `tool_calls` in the flat form, without an id",
	softwarn.FinalResponseSerialized:       "unsafe, for a result that holds nothing but `final_response`: the result replaced by the one its text holds",
	softwarn.MessageOtherFramework:         "unsafe, for an AutoGen AgentChat `TextMessage`, a LangChain message of `messages_to_dict` and a tool message's AI SDK output (`{\"type\": \"text\" or \"json\", \"value\"}`); none for the other frameworks' shapes, which split one message into several",
	softwarn.MessageTextInParts:            "unsafe, when every part (block) is text: `content` set to their text, the parts removed",
	softwarn.TopLevelTranscriptKey:         "unsafe, when every entry has a string `role`: the key renamed `messages`",
	softwarn.ToolCallsOtherFramework:       "unsafe, for an assistant message without `tool_calls` (Strands' `toolUse` blocks or LlamaIndex's `options.toolCall` in the flat form, LlamaIndex's `additional_kwargs.tool_calls` moved when the platform reads each of its calls), a user message whose content is one `toolResult` block of one text or json item, or whose `options.toolResult` has text (made a tool message), and LlamaIndex's `additional_kwargs.tool_call_id` (moved); none for several results in one message, which become messages of their own",
	softwarn.FinalResponseAnswerInMessages: "unsafe, when the message's content is text that is not blank: `final_response` replaced by that text (`normalizer fix --unsafe` applies it to the rejected result); none for an answer in parts",
	softwarn.FinalResponseObjectJSON:       "unsafe, when the response holds the answer's text: `final_response` replaced by that text (a chat completion's message content; the text of a Responses API response's `output_text` parts, an Anthropic message's text blocks or a Gemini candidate's parts, joined)",
}
