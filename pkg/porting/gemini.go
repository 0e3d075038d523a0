package porting

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// gemini is Google's Gemini API and its SDKs (google-genai, @google/genai). Its Content is
// {"role": "user" | "model", "parts": [{"text"}, {"function_call"}, ...]}.
var gemini = register(source{
	name: "Gemini",
	metaNames: []metaName{
		{key: "total_input_tokens", name: "prompt_token_count", rank: 6, whose: "Gemini's", in: "usage_metadata"},
		{key: "total_output_tokens", name: "candidates_token_count", rank: 6, whose: "Gemini's", in: "usage_metadata"},
	},
	responses: []responseShape{{note: geminiResponseJSON}},
	printed:   []printedShape{{rank: 4, keys: []string{"candidates"}, note: candidatesRepr}},
	factKeys:  []string{"candidates"},
	results:   []resultShape{{rank: 4, hint: generateContentResult}},
	turns:     []turnShape{{rank: 4, read: geminiTurn}},
	transcripts: []transcriptShape{
		{key: "history", code: softwarn.TopLevelTranscriptKey, lead: "a chat's history in ", origin: "Gemini's SDKs (chat.get_history())"},
	},
	usageKeys: []string{"usagemetadata"}, // usage_metadata, usageMetadata
	split: &splitShape{count: "candidatestokencount", part: "thoughtstokencount",
		reason: " (Gemini's candidatesTokenCount leaves out the thinking tokens, which thoughtsTokenCount counts and total_output_tokens includes)"},
	values: []valueShape{{rank: 2, hint: geminiPartHint}, {rank: 5, hint: contentValueHint}},
	parts: []partMember{
		{key: "text", kind: jsonscan.String, set: pkText},
		{key: "function_call", kind: jsonscan.Object, set: pkFunctionCall},
		{key: "functionCall", kind: jsonscan.Object, set: pkFunctionCall | pkCamel},
		{key: "function_response", kind: jsonscan.Object, set: pkFunctionResponse},
		{key: "functionResponse", kind: jsonscan.Object, set: pkFunctionResponse | pkCamel},
	},
	entryKeys: []string{"parts"},
	texts:     []textShape{{code: softwarn.MessageTextInParts, is: func(m *messageFacts) bool { return m.parts }, note: contentPartsNote}},
	messages: []messageShape{
		{rank: 3, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool { return string(w.shortText(f.role)) == "model" && f.parts },
			note: func(_ *messageWalk, f foreignFacts) softwarn.Parts {
				return geminiMessage(`a Gemini Content ("role": "model" with "parts")`, "assistant", f.kinds, droppedMessage)
			}},
		{rank: 5, code: softwarn.MessageOtherFramework,
			is: func(_ *messageWalk, f foreignFacts) bool { return f.noRole && f.parts && !f.kind.Present() },
			note: func(_ *messageWalk, f foreignFacts) softwarn.Parts {
				return geminiMessage(`a Gemini Content ("parts" and no "role", which Gemini reads as "user")`, "user", f.kinds, droppedMessage)
			}},
	},
})

// geminiMessage is what the note on a dropped Gemini Content, found as found, whose role is role
// on the platform, says.
func geminiMessage(found, role string, kinds partKinds, dropped string) softwarn.Parts {
	var fields, also []string
	if kinds&pkText != 0 || kinds&(pkFunctionCall|pkFunctionResponse) == 0 {
		fields = append(fields, `"content": <the text of its text parts>`)
	}
	if kinds&pkFunctionCall != 0 {
		call, _, _ := geminiWords(kinds)
		fields = append(fields, `"tool_calls": [{"id": `+geminiCallID+`, "name": <name>, "arguments": <args>}, ...] from its `+call+` parts`)
	}
	if len(fields) > 0 {
		also = append(also, `send it as {"role": "`+role+`", `+strings.Join(fields, ", ")+"}")
	}
	if kinds&pkFunctionResponse != 0 {
		also = append(also, geminiResponsesFix(kinds))
	}
	return softwarn.Parts{Found: found, Expected: `a chat message {"role", "content", ...}: the platform reads a message's text from "content", not "parts"`,
		Done: dropped, Fix: strings.Join(also, ", and ")}
}

// geminiCallID is the id of a tool call made of a Gemini function_call part. Gemini's
// FunctionCall.id is optional and often absent, so the
// porter may have to make one, which the function_response that answers it then carries.
const geminiCallID = `<its id when present, else one you generate, e.g. "call_1">`

// A Gemini Content's parts are written in camelCase (functionCall, functionResponse) by the
// REST API and the JavaScript SDK (@google/genai: chat.getHistory(), response.candidates), and in
// snake_case (function_call, function_response) by the Python SDK's model_dump(). The notes on
// them name the parts as the input spells them, and the helper that writes a response object as
// JSON text in that language.

// The kinds of Gemini's parts (a part with "text" is pkText): pkCamel is set among a message's
// partKinds when a part's call or response is in camelCase.
const (
	pkFunctionCall     partKinds = 1 << 7
	pkFunctionResponse partKinds = 1 << 8
	pkCamel            partKinds = 1 << 15
)

// geminiWords are the names of a Gemini Content's call and response parts as kinds says the
// input spells them, and the helper that makes JSON text of an object in its language.
func geminiWords(kinds partKinds) (call, response, toJSON string) {
	if kinds&pkCamel != 0 {
		return "functionCall", "functionResponse", "JSON.stringify"
	}
	return "function_call", "function_response", "json.dumps"
}

// geminiResponsesFix is what a Gemini Content's function_response parts convert to.
// Its response is an object, which a tool message's content cannot be (rule 8): the fix sends it as
// JSON text, as the warning on a tool message's object content says. Its id, like its call's, is
// often absent: it is paired with its call by order and name, as Gemini pairs them.
func geminiResponsesFix(kinds partKinds) string {
	call, response, toJSON := geminiWords(kinds)
	return `send each ` + response + ` part as a message of its own: ` +
		`{"role": "tool", "tool_call_id": <its id when present, else the id you generated for the ` + call + ` it answers (the next of the same name, in order)>, "content": ` + toJSON + `(<response>)} ` +
		`(its response is an object, and a tool message's content is text)`
}

// contentPartsNote is what the note on a kept message with a Content's "parts" and no
// "content" says.
func contentPartsNote(m *messageFacts) softwarn.Parts {
	var fixes []string
	if m.partKinds&pkText != 0 || m.partKinds&(pkFunctionCall|pkFunctionResponse) == 0 {
		fixes = append(fixes, `move the text of its text parts to "content": <the text>`)
	}
	if m.partKinds&pkFunctionCall != 0 {
		call, _, _ := geminiWords(m.partKinds)
		fixes = append(fixes, `move its `+call+` parts to "tool_calls": [{"id": `+geminiCallID+`, "name": <name>, "arguments": <args>}, ...]`)
	}
	if m.partKinds&pkFunctionResponse != 0 {
		fixes = append(fixes, geminiResponsesFix(m.partKinds))
	}
	return softwarn.Parts{
		Found:    `"parts" (Gemini's Content shape) and no "content"`,
		Expected: `the message's text in "content": the platform reads a message's text only from "content", not "parts"`,
		Done:     textNotShown,
		Fix:      strings.Join(fixes, ", and ")}
}

// Gemini's usage metadata counts a thinking model's output in two parts: candidatesTokenCount
// (candidates_token_count in Python) is the response's text, and thoughtsTokenCount
// (thoughts_token_count) the model's thoughts, billed as output. The run's output is their sum;
// a rename of candidatesTokenCount alone would show a fraction of it (10 of 490 tokens).

// geminiResponseJSON is the note's for a Gemini generateContent response's JSON text sent as
// final_response: its answer is the text of its first candidate's parts (not those with
// "thought": true), which the SDKs' response.text joins, unless the parts call functions.
func geminiResponseJSON(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool) {
	parts := member(member(firstElement(member(obj, "candidates", maxDepth), maxDepth), "content", maxDepth), "parts", maxDepth)
	if !isList(parts) {
		return "", "", false
	}
	const what0 = `a Gemini generateContent response ("candidates")`
	if _, calls := partsHold(parts, maxDepth); calls {
		return what0 + " whose parts call functions", "", true
	}
	first, n := textParts(parts, "", maxDepth)
	if first < 0 {
		return "", "", false
	}
	return what0, "response.text, the text of its first candidate's parts (here " +
		codePath(dict, "response", "candidates", "0", "content", "parts", strconv.Itoa(first), "text") + joinedWith(n, "parts") + ")", true
}

// contentValueHint is finalValueHint's for a Gemini Content sent as final_response, {"role":
// "model", "parts": [...]} (a response's candidates[0].content): its text is that of its parts
// without "thought": true, which the SDKs' response.text joins, unless its parts call
// functions.
func contentValueHint(obj []byte, maxDepth int) (shapeHint, bool) {
	parts := member(obj, "parts", maxDepth)
	if shortString(member(obj, "role", maxDepth), 16) != "model" || !isList(parts) || member(obj, "content", maxDepth) != nil {
		return shapeHint{}, false
	}
	const detail = `. It has "role": "model" and "parts": it looks like a Gemini Content (a response's candidates[0].content)`
	if _, calls := partsHold(parts, maxDepth); calls {
		return shapeHint{detail: detail + ` whose parts call functions: the agent stopped at a tool call`, fix: stoppedFix}, true
	}
	first, n := textParts(parts, "", maxDepth)
	if first < 0 {
		return shapeHint{}, false
	}
	return shapeHint{detail: detail + ` rather than its text`,
		fix: `send {"final_response": response.text}, the text of its parts (here parts[` + strconv.Itoa(first) + `].text` + joinedWith(n, "parts") + `)`}, true
}

// geminiPartHint recognises one Gemini Part sent as final_response, as a part of
// candidates[0].content.parts is dumped: a non-empty string "text", no "type", and no key that
// is not a Part's field (to_json_dict() writes {"text"}, model_dump() adds the other fields as
// null, the REST API writes them in camelCase). A part with "thought": true holds the model's
// thoughts, not its answer: the answer is in the parts without it. Another object with "text"
// keeps the general fix.
func geminiPartHint(obj []byte, maxDepth int) (shapeHint, bool) {
	var s jsonscan.Scanner
	s.Reset(obj, maxDepth)
	if s.Peek() != jsonscan.Object {
		return shapeHint{}, false
	}
	keys := 0
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		if !isPartField(s.KeyName()) {
			return shapeHint{}, false
		}
		keys++
		s.SkipValue()
	}
	if s.Err() != nil || textKind(member(obj, "text", maxDepth)) != jsonscan.String {
		return shapeHint{}, false
	}
	if string(member(obj, "thought", maxDepth)) == "true" {
		const fix = `send {"final_response": <the "text" of the response's parts without "thought": true, joined>}`
		return shapeHint{detail: `. It has "text" and "thought": true: it looks like a Gemini Part that holds the model's thoughts, not its answer`, fix: fix}, true
	}
	const fix = `send {"final_response": <its "text">}`
	if keys == 1 { // a lone {"text"} is a Gemini Part's shape, but other frameworks' too
		return shapeHint{detail: `. It has only "text": it looks like a message part (as a Gemini Part of candidates[0].content.parts is written) rather than its text`, fix: fix}, true
	}
	return shapeHint{detail: `. It has "text" and no "type": it looks like a Gemini Part (one of candidates[0].content.parts) rather than its text`, fix: fix}, true
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

// candidatesRepr is the note's for str() of a Gemini generateContent response's dict, whose
// 'candidates' is a list: the answer is the text of its first candidate's parts without
// 'thought': True. Parts that call functions hold no answer, and no note names them.
func candidatesRepr(p printedText) (what, answer string, is bool) {
	list := p.value("candidates")
	if p.form != printedDict || len(list) == 0 || list[0] != '[' {
		return "", "", false
	}
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
		return "", "", true
	}
	return "Python's str() of a Gemini generateContent response's dict ('candidates')",
		`result["candidates"][0]["content"]["parts"][` + strconv.Itoa(first) + `]["text"]` + joined(n), true
}

// generateContentResult is the result shape of a Gemini generateContent response: its first
// candidate holds content. One whose parts call a function stopped at a tool call
// (stopped_tool_call.go): its text, if any, is a preamble.
func generateContentResult(f *objectFacts) (shapeHint, bool) {
	candidates := f.value("candidates")
	if !isList(candidates) || member(firstElement(candidates, f.maxDepth), "content", f.maxDepth) == nil {
		return shapeHint{}, false
	}
	const has, what = `"candidates"`, "a Gemini generateContent response"
	parts := member(member(firstElement(candidates, f.maxDepth), "content", f.maxDepth), "parts", f.maxDepth)
	if text, calls := partsHold(parts, f.maxDepth); calls {
		return stoppedResponse(has, what, "function_call parts", text), true
	}
	return sentInstead(has, what, modelsResponse, "<candidates[0].content.parts[*].text, joined>"), true
}

// geminiTurn is a Gemini Content in a transcript: role "model", or "parts". With a functionCall
// (function_call, as Python's SDK writes it) part it asks for calls; with functionResponse
// parts it is their results.
func geminiTurn(e turnFacts) (turn, bool) {
	maxDepth := e.maxDepth
	parts := member(e.v, "parts", maxDepth)
	if string(e.role) != "model" && parts == nil {
		return turn{}, false
	}
	var call, response, camel, text bool
	eachElement(parts, maxDepth, func(_ int, part []byte) bool {
		c, cc := member(part, "function_call", maxDepth), member(part, "functionCall", maxDepth)
		call = call || isObject(c) || isObject(cc)
		camel = camel || isObject(cc) || isObject(member(part, "functionResponse", maxDepth))
		response = response || isObject(member(part, "function_response", maxDepth)) || isObject(member(part, "functionResponse", maxDepth))
		t := member(part, "text", maxDepth)
		text = text || textKind(t) == jsonscan.String && !blank(t) && string(member(part, "thought", maxDepth)) != "true"
		return true
	})
	switch {
	case response && !call:
		return turn{result: true}, true
	case call && camel:
		return turn{kind: turnCall, text: text, what: "a Gemini Content with a functionCall part", answer: "that response's text",
			loop: "call models.generateContent again with a functionResponse part for each functionCall, until the response has no functionCall part"}, true
	case call:
		return turn{kind: turnCall, text: text, what: "a Gemini Content with a function_call part", answer: "that response's text",
			loop: "call models.generate_content again with a function_response part, types.Part.from_function_response(name=..., response=...), " +
				"for each function_call, until the response has no function_call part"}, true
	case text && string(e.role) == "model":
		return turn{kind: turnAnswer, what: "a Gemini Content of the model with text", in: ".parts", joined: true}, true
	}
	return turn{other: true}, true
}
