package porting

// A Gemini Content's parts are written in camelCase (functionCall, functionResponse) by the
// REST API and the JavaScript SDK (@google/genai: chat.getHistory(), response.candidates), and in
// snake_case (function_call, function_response) by the Python SDK's model_dump(). The notes on
// them name the parts as the input spells them, and the helper that writes a response object as
// JSON text in that language.

// pkCamel is set among a message's partKinds when a part's call or response is in camelCase.
const pkCamel partKinds = 1 << 15

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

// camelPart is pkCamel when a part's key is in camelCase.
func camelPart(key []byte) partKinds {
	if string(key) == "functionCall" || string(key) == "functionResponse" {
		return pkCamel
	}
	return 0
}
