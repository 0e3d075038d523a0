package porting

import "github.com/dystopic/normalizer/internal/jsonscan"

// finalValueHint looks again at a final_response that is neither a string nor null, on the
// error path only, and says where the text is when the value is recognisably something that
// holds it: an object or a list in a source's shape (valueShape), or a number or boolean (its
// text, if that really is the answer).
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

// messageValueHint recognises an object sent as final_response by the sources' value shapes,
// the first by rank that holds it.
func messageValueHint(obj []byte, maxDepth int) shapeHint {
	return firstValueHint(objectValues, obj, maxDepth)
}

// partsValueHint recognises a list sent as final_response by the sources' list shapes, the
// first by rank that holds it.
func partsValueHint(list []byte, maxDepth int) shapeHint {
	return firstValueHint(listValues, list, maxDepth)
}

// A chat message ("role" and "content"), when its content holds text, and one content part or a
// list of them ("type" "text" or "output_text" and a string "text", as content[0] of a message
// or response is) are no one source's shapes: generic's (sources.go).

// chatMessageValue is the value shape of a chat message whose content holds text.
func chatMessageValue(obj []byte, maxDepth int) (shapeHint, bool) {
	content := member(obj, "content", maxDepth)
	if textKind(content) == jsonscan.None || member(obj, "role", maxDepth) == nil {
		return shapeHint{}, false
	}
	fix := `send {"final_response": <` + textOf(content, `the message's "content"`) + `>}`
	return shapeHint{detail: `. It has "role" and "content": it looks like a chat message rather than its text`, fix: fix}, true
}

// partListValue is the list shape of content parts: its first element has "type" "text" or
// "output_text" and a string "text".
func partListValue(list []byte, maxDepth int) (shapeHint, bool) {
	first := firstElement(list, maxDepth)
	typ := shortString(member(first, "type", maxDepth), 16)
	if text := member(first, "text", maxDepth); (typ != "text" && typ != "output_text") || len(text) == 0 || text[0] != '"' {
		return shapeHint{}, false
	}
	fix := `send {"final_response": <the "text" of final_response's ` + typ + ` parts, joined>}`
	return shapeHint{detail: `. Its first element has "type": "` + typ + `" and "text": it looks like a list of content parts rather than their text`, fix: fix}, true
}

// partValue is the value shape of one content part with a non-empty string "text".
func partValue(obj []byte, maxDepth int) (shapeHint, bool) {
	typ := shortString(member(obj, "type", maxDepth), 16)
	if (typ != "text" && typ != "output_text") || textKind(member(obj, "text", maxDepth)) != jsonscan.String {
		return shapeHint{}, false
	}
	const fix = `send {"final_response": <its "text">}`
	return shapeHint{detail: `. It has "type": "` + typ + `" and "text": it looks like one content part rather than its text`, fix: fix}, true
}
