package porting

// ollama is Ollama's API (/api/chat, /api/generate) and its clients. A response's counts are
// prompt_eval_count and eval_count; its durations (total_duration, load_duration,
// prompt_eval_duration, eval_duration) are in nanoseconds.
var ollama = register(source{
	name: "Ollama",
	// beside the other keys of a response, total_duration is Ollama's, in nanoseconds
	runtimes: []runtimeName{{name: "total_duration", beside: []string{"prompt_eval_count", "eval_count", "load_duration", "prompt_eval_duration", "eval_duration"},
		origin: "Ollama's time for the whole request, in nanoseconds"}},
	metaNames: []metaName{
		{key: "total_input_tokens", name: "prompt_eval_count", rank: 5, whose: "Ollama's"},
		{key: "total_output_tokens", name: "eval_count", rank: 5, whose: "Ollama's"},
	},
	factKeys:   []string{"done"},
	answerKeys: []string{"response"}, // /api/generate's text
	probes:     []resultShape{{rank: 3, hint: chatResponseProbe}},
})

// chatResponseProbe is the probe shape of an Ollama /api/chat response ("message" and
// "done"): its "message" is a chat message, whose content holds the text.
func chatResponseProbe(f *objectFacts) (shapeHint, bool) {
	if f.probe != "message" || !f.has("done") {
		return shapeHint{}, false
	}
	fix, ok := messageFix(f.message, f.maxDepth)
	if !ok {
		return shapeHint{}, false
	}
	return shapeHint{detail: `. This one looks like an Ollama /api/chat response (` + modelsResponse + ` rather than the handler's result): its "message" is a chat message, not text`,
		fix: fix}, true
}
