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
})
