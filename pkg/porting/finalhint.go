package porting

import (
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// finalValueHint looks again at a final_response that is neither a string nor null, on the
// error path only, and says where the text is when the value is recognisably something that
// holds it: a chat message or a LangChain AIMessage (its content), one content part or a list of
// them (the text of its text parts), or a number or boolean (its text, if that really is the answer).
// data is the result object; the last final_response counts (rule 12).
func finalValueHint(data []byte, maxDepth int) shapeHint {
	v := member(data, "final_response", maxDepth)
	if len(v) == 0 {
		return shapeHint{}
	}
	switch v[0] {
	case '{':
		return messageValueHint(v, maxDepth)
	case '[':
		return partsValueHint(v, maxDepth)
	case 't', 'f':
		fix := `send the value as text, {"final_response": "` + string(v) + `"}, if it really is the answer`
		return shapeHint{fix: fix}
	case 'n':
		return shapeHint{}
	}
	if len(v) > 32 {
		const fix = `send the number as text, {"final_response": "<the number>"}, if it really is the answer`
		return shapeHint{fix: fix}
	}
	fix := `send the number as text, {"final_response": "` + string(v) + `"}, if it really is the answer`
	return shapeHint{fix: fix}
}

// messageValueHint recognises a chat message ("role" and "content") or a LangChain AIMessage
// ("type": "ai" and "content") sent as final_response, when its content holds text, or one
// content part (partValueHint) or Gemini Part (geminiPartHint).
func messageValueHint(obj []byte, maxDepth int) shapeHint {
	if h := partValueHint(obj, maxDepth); h.detail != "" {
		return h
	}
	if h := geminiPartHint(obj, maxDepth); h.detail != "" {
		return h
	}
	if h, ok := messageStopped(obj, maxDepth); ok {
		return h
	}
	if h, ok := serializedMessageHint(obj, maxDepth); ok {
		return h
	}
	if h, ok := contentValueHint(obj, maxDepth); ok {
		return h
	}
	content := member(obj, "content", maxDepth)
	switch {
	case textKind(content) == jsonscan.None:
		return shapeHint{}
	case shortString(member(obj, "type", maxDepth), 16) == "ai":
		fix := `send {"final_response": <` + textOf(content, `the AIMessage's "content"`) + `>}`
		return shapeHint{detail: `. It has "type": "ai" and "content": it looks like a LangChain AIMessage rather than its text`, fix: fix}
	case member(obj, "role", maxDepth) != nil:
		fix := `send {"final_response": <` + textOf(content, `the message's "content"`) + `>}`
		return shapeHint{detail: `. It has "role" and "content": it looks like a chat message rather than its text`, fix: fix}
	}
	return shapeHint{}
}

// partsValueHint recognises a list of content parts sent as final_response: its first element
// has "type" "text" (OpenAI, Anthropic) or "output_text" (OpenAI Responses) and a string "text".
func partsValueHint(list []byte, maxDepth int) shapeHint {
	first := firstElement(list, maxDepth)
	typ := shortString(member(first, "type", maxDepth), 16)
	if text := member(first, "text", maxDepth); (typ != "text" && typ != "output_text") || len(text) == 0 || text[0] != '"' {
		return blocksValueHint(list, typ, maxDepth)
	}
	fix := `send {"final_response": <the "text" of final_response's ` + typ + ` parts, joined>}`
	return shapeHint{detail: `. Its first element has "type": "` + typ + `" and "text": it looks like a list of content parts rather than their text`, fix: fix}
}

// partValueHint recognises one content part sent as final_response: "type" "text" (OpenAI,
// Anthropic) or "output_text" (OpenAI Responses) and a non-empty string "text", as
// content[0] of a message or response is.
func partValueHint(obj []byte, maxDepth int) shapeHint {
	typ := shortString(member(obj, "type", maxDepth), 16)
	if (typ != "text" && typ != "output_text") || textKind(member(obj, "text", maxDepth)) != jsonscan.String {
		return shapeHint{}
	}
	const fix = `send {"final_response": <its "text">}`
	return shapeHint{detail: `. It has "type": "` + typ + `" and "text": it looks like one content part rather than its text`, fix: fix}
}

// geminiPartHint recognises one Gemini Part sent as final_response, as a part of
// candidates[0].content.parts is dumped: a non-empty string "text", no "type", and no key that
// is not a Part's field (to_json_dict() writes {"text"}, model_dump() adds the other fields as
// null, the REST API writes them in camelCase). A part with "thought": true holds the model's
// thoughts, not its answer: the answer is in the parts without it. Another object with "text"
// keeps the general fix.
func geminiPartHint(obj []byte, maxDepth int) shapeHint {
	var s jsonscan.Scanner
	s.Reset(obj, maxDepth)
	if s.Peek() != jsonscan.Object {
		return shapeHint{}
	}
	keys := 0
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		if !isPartField(s.KeyName()) {
			return shapeHint{}
		}
		keys++
		s.SkipValue()
	}
	if s.Err() != nil || textKind(member(obj, "text", maxDepth)) != jsonscan.String {
		return shapeHint{}
	}
	if string(member(obj, "thought", maxDepth)) == "true" {
		const fix = `send {"final_response": <the "text" of the response's parts without "thought": true, joined>}`
		return shapeHint{detail: `. It has "text" and "thought": true: it looks like a Gemini Part that holds the model's thoughts, not its answer`, fix: fix}
	}
	const fix = `send {"final_response": <its "text">}`
	if keys == 1 { // a lone {"text"} is a Gemini Part's shape, but other frameworks' too
		return shapeHint{detail: `. It has only "text": it looks like a message part (as a Gemini Part of candidates[0].content.parts is written) rather than its text`, fix: fix}
	}
	return shapeHint{detail: `. It has "text" and no "type": it looks like a Gemini Part (one of candidates[0].content.parts) rather than its text`, fix: fix}
}

// isPartField reports whether name is a field of Gemini's Part, as the Python SDK (snake_case)
// or the REST API and the JavaScript SDK (camelCase) write it.
func isPartField(name []byte) bool {
	switch string(name) {
	case "text", "thought", "thought_signature", "thoughtSignature", "video_metadata", "videoMetadata",
		"inline_data", "inlineData", "file_data", "fileData", "function_call", "functionCall",
		"function_response", "functionResponse", "executable_code", "executableCode",
		"code_execution_result", "codeExecutionResult":
		return true
	}
	return false
}

// blocksValueHint is partsValueHint's for a list of content blocks whose first is not text, of
// type firstType: an Anthropic message's content with a thinking block before its text. Its
// text is that of its text blocks; with a tool_use block, it is a preamble.
func blocksValueHint(list []byte, firstType string, maxDepth int) shapeHint {
	i, n := textParts(list, "text", maxDepth)
	if firstType == "" || i < 0 {
		return shapeHint{}
	}
	detail := `. Its elements are content blocks, "type": "` + firstType + `" first, then "text": it looks like an Anthropic message's content rather than its text`
	if _, calls := partsHold(list, maxDepth); calls {
		return shapeHint{detail: detail + `, with a tool_use block: its text is the preamble the model wrote before the call, and the agent stopped at a tool call`, fix: stoppedFix}
	}
	return shapeHint{detail: detail, fix: `send {"final_response": <the "text" of final_response's text blocks, joined>} (here content[` +
		strconv.Itoa(i) + `].text` + joinedWith(n, "text blocks") + `), not its ` + firstType + ` blocks`}
}
