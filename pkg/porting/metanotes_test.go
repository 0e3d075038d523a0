package porting_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Metadata keys other than the recognised ones are kept as sent, unchecked and without a
// warning, so a porter who sends input_tokens (Anthropic's name) or totalInputTokens never
// learns that the run shows no token count. The explain view notes another SDK's name for a
// recognised key, the key spelled another way, and counts under a usage object, when the
// recognised key itself is absent; the record never changes (explainNotes checks).
func TestExplainMetadataKeyVariants(t *testing.T) {
	type note struct{ path, message string } // message: the whole message, or a part of it
	const (
		inputTokens = `found the key "input_tokens" holding a number, expected "total_input_tokens" (a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata); ` +
			`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an input token count; rename it "total_input_tokens"`
		openAIUsage = `found "prompt_tokens" and "completion_tokens" under "usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself ` +
			`(the platform reads no counts inside "usage"); "usage" was kept as an ordinary key, stored as sent, so the run is shown without token counts; ` +
			`copy the run's totals to metadata's own keys: "prompt_tokens" to "total_input_tokens", "completion_tokens" to "total_output_tokens"`
	)
	tests := []struct {
		name, metadata string
		notes          []note // nil: no note
	}{
		// Another SDK's name for a recognised key.
		{name: "input_tokens", metadata: `{"input_tokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "the AI SDK's totalUsage, spread", metadata: `{"inputTokens":140,"outputTokens":160,"totalTokens":300,"reasoningTokens":128}`, notes: []note{
			{"metadata.inputTokens", `found the key "inputTokens" holding a number, expected "total_input_tokens" (a name several SDKs share for the count: the AI SDK's usage and totalUsage, Strands' accumulated_usage); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an input token count; rename it "total_input_tokens"`},
			{"metadata.outputTokens", `found the key "outputTokens" holding a number, expected "total_output_tokens" (a name several SDKs share for the count: the AI SDK's usage and totalUsage, Strands' accumulated_usage); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an output token count; rename it "total_output_tokens"`}}},
		{name: "a spelling of input_tokens", metadata: `{"Input_Tokens":140}`, notes: []note{
			{"metadata.Input_Tokens", `found the key "Input_Tokens" holding a number, expected "total_input_tokens" (a spelling of input_tokens, a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata)`}}},
		{name: "prompt_tokens", metadata: `{"prompt_tokens":12}`, notes: []note{{"metadata.prompt_tokens",
			`found the key "prompt_tokens" holding a number, expected "total_input_tokens" (OpenAI Chat Completions' name for the count); it was kept`}}},
		{name: "output_tokens whose value would fail the check", metadata: `{"output_tokens":-1}`, notes: []note{{"metadata.output_tokens",
			`found the key "output_tokens" holding a number, expected "total_output_tokens" (a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an output token count; rename it "total_output_tokens"; ` +
				`its value would then be dropped: found -1, expected a whole, non-negative number of tokens`}}},
		{name: "completion_tokens", metadata: `{"completion_tokens":3}`, notes: []note{{"metadata.completion_tokens", `expected "total_output_tokens" (OpenAI Chat Completions' name`}}},
		{name: "model_name", metadata: `{"model_name":"gpt-4o"}`, notes: []note{{"metadata.model_name",
			`found the key "model_name" holding a string, expected "model" (LangChain's name for the model, in response_metadata, and Pydantic AI's, in a ModelResponse); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without a model; rename it "model"`}}},
		{name: "promptTokens", metadata: `{"promptTokens":12}`, notes: []note{{"metadata.promptTokens",
			`expected "total_input_tokens" (a spelling of prompt_tokens, OpenAI Chat Completions' name for the count)`}}},
		// The recognised key spelled another way.
		{name: "Total_Input_Tokens", metadata: `{"Total_Input_Tokens":12}`, notes: []note{{"metadata.Total_Input_Tokens",
			`found the key "Total_Input_Tokens" holding a number, expected "total_input_tokens" (keys are matched exactly, case and separators included); it was kept`}}},
		{name: "totalInputTokens", metadata: `{"totalInputTokens":12}`, notes: []note{{"metadata.totalInputTokens", `rename it "total_input_tokens"`}}},
		{name: "agent-runtime-ms", metadata: `{"agent-runtime-ms":1.5}`, notes: []note{{`metadata["agent-runtime-ms"]`,
			`found the key "agent-runtime-ms" holding a number, expected "agent_runtime_ms" (keys are matched exactly, case and separators included); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an agent runtime; rename it "agent_runtime_ms"`}}},
		{name: "Model", metadata: `{"Model":"gpt-4o"}`, notes: []note{{"metadata.Model", `so the run is shown without a model; rename it "model"`}}},
		{name: "systemPromptId", metadata: `{"systemPromptId":"p1"}`, notes: []note{{"metadata.systemPromptId", `so the run is shown without a system prompt id; rename it "system_prompt_id"`}}},
		// Counts under a usage object.
		{name: "OpenAI usage", metadata: `{"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`, notes: []note{{"metadata.usage", openAIUsage}}},
		{name: "usage with one total already sent", metadata: `{"usage":{"prompt_tokens":12,"completion_tokens":3},"total_output_tokens":3}`, notes: []note{{"metadata.usage",
			`found "prompt_tokens" under "usage", expected "total_input_tokens" in metadata itself (the platform reads no counts inside "usage"); ` +
				`"usage" was kept as an ordinary key, stored as sent, so the run is shown without an input token count; ` +
				`copy the run's total to metadata's own key: "prompt_tokens" to "total_input_tokens"`}}},
		{name: "Strands accumulated_usage", metadata: `{"accumulated_usage":{"inputTokens":900,"outputTokens":120,"totalTokens":1020}}`, notes: []note{{"metadata.accumulated_usage",
			`found "inputTokens" and "outputTokens" under "accumulated_usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself`}}},
		{name: "LangChain usage_metadata", metadata: `{"usage_metadata":{"input_tokens":12,"output_tokens":3,"total_tokens":15}}`, notes: []note{{"metadata.usage_metadata", `under "usage_metadata"`}}},
		{name: "usage with a repeated count, the last a number", metadata: `{"usage":{"prompt_tokens":"x","prompt_tokens":12}}`, notes: []note{{"metadata.usage", `found "prompt_tokens" under "usage"`}}},
		// Ollama's, Pydantic AI's and Gemini's names, at metadata's top or under a usage object.
		{name: "Ollama's counts", metadata: `{"model":"llama3.2","prompt_eval_count":26,"eval_count":298}`, notes: []note{
			{"metadata.prompt_eval_count", `found the key "prompt_eval_count" holding a number, expected "total_input_tokens" (Ollama's name for the count); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an input token count; rename it "total_input_tokens"`},
			{"metadata.eval_count", `expected "total_output_tokens" (Ollama's name for the count)`}}},
		{name: "Pydantic AI's older names", metadata: `{"requests":1,"request_tokens":57,"response_tokens":8,"total_tokens":65}`, notes: []note{
			{"metadata.request_tokens", `expected "total_input_tokens" (Pydantic AI's older name for the count)`},
			{"metadata.response_tokens", `expected "total_output_tokens" (Pydantic AI's older name for the count); it was kept`}}},
		{name: "Pydantic AI's older usage", metadata: `{"usage":{"requests":1,"request_tokens":57,"response_tokens":8,"total_tokens":65,"details":null}}`, notes: []note{{"metadata.usage",
			`copy the run's totals to metadata's own keys: "request_tokens" to "total_input_tokens", "response_tokens" to "total_output_tokens"`}}},
		{name: "Pydantic AI's usage", metadata: `{"usage":{"input_tokens":57,"cache_write_tokens":0,"cache_read_tokens":0,"output_tokens":8,"requests":1}}`, notes: []note{{"metadata.usage",
			`copy the run's totals to metadata's own keys: "input_tokens" to "total_input_tokens", "output_tokens" to "total_output_tokens"`}}},
		{name: "Gemini's usageMetadata of a thinking model, spread", metadata: `{"total_input_tokens":95,"candidatesTokenCount":10,"thoughtsTokenCount":480,"totalTokenCount":585}`, notes: []note{
			{"metadata.candidatesTokenCount", `set "total_output_tokens" to the sum "candidatesTokenCount" + "thoughtsTokenCount", 10 + 480 = 490 (Gemini's candidatesTokenCount leaves out the thinking tokens, which thoughtsTokenCount counts and total_output_tokens includes)`}}},
		{name: "Gemini's usage_metadata of a thinking model", metadata: `{"usage_metadata":{"prompt_token_count":95,"candidates_token_count":10,"thoughts_token_count":480}}`, notes: []note{
			{"metadata.usage_metadata", `"prompt_token_count" to "total_input_tokens", "candidates_token_count" + "thoughts_token_count" (10 + 480 = 490) to "total_output_tokens" (Gemini's candidatesTokenCount leaves out`}}},
		{name: "Gemini's thoughts count not plain digits", metadata: `{"candidatesTokenCount":10,"thoughtsTokenCount":4.8e2}`, notes: []note{
			{"metadata.candidatesTokenCount", `set "total_output_tokens" to the sum "candidatesTokenCount" + "thoughtsTokenCount" (Gemini's`}}},
		{name: "Gemini's usageMetadata without thoughts", metadata: `{"candidatesTokenCount":10}`, notes: []note{
			{"metadata.candidatesTokenCount", `rename it "total_output_tokens"`}}},
		{name: "Gemini's usage_metadata", metadata: `{"usage_metadata":{"prompt_token_count":12,"candidates_token_count":3,"total_token_count":15}}`, notes: []note{{"metadata.usage_metadata",
			`found "prompt_token_count" and "candidates_token_count" under "usage_metadata", expected "total_input_tokens" and "total_output_tokens" in metadata itself ` +
				`(the platform reads no counts inside "usage_metadata"); "usage_metadata" was kept as an ordinary key, stored as sent, so the run is shown without token counts; ` +
				`copy the run's totals to metadata's own keys: "prompt_token_count" to "total_input_tokens", "candidates_token_count" to "total_output_tokens"`}}},
		{name: "Gemini's usageMetadata", metadata: `{"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3,"totalTokenCount":15}}`, notes: []note{{"metadata.usageMetadata",
			`copy the run's totals to metadata's own keys: "promptTokenCount" to "total_input_tokens", "candidatesTokenCount" to "total_output_tokens"`}}},
		{name: "Gemini's count at the top", metadata: `{"prompt_token_count":12}`, notes: []note{{"metadata.prompt_token_count",
			`expected "total_input_tokens" (Gemini's name for the count, in usage_metadata)`}}},
		// Ollama's total_duration is nanoseconds: beside the other keys of an Ollama response, it
		// is noted for agent_runtime_ms with the conversion; alone it may be another unit.
		{name: "Ollama's total_duration", metadata: `{"total_duration":4353619900,"load_duration":63915300,"eval_count":17,"total_output_tokens":17}`, notes: []note{{"metadata.total_duration",
			`found the key "total_duration" holding a number, expected "agent_runtime_ms" (Ollama's time for the whole request, in nanoseconds); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an agent runtime; ` +
				`set "agent_runtime_ms" to the run's time in milliseconds, total_duration / 1e6 (4353619900 ns is 4353.6199 ms)`}}},
		{name: "Ollama's total_duration not in digits", metadata: `{"total_duration":4.35e9,"eval_duration":1,"total_output_tokens":17}`, notes: []note{{"metadata.total_duration",
			`set "agent_runtime_ms" to the run's time in milliseconds, total_duration / 1e6`}}},
		// Anthropic's input_tokens leaves out the cached input: beside the cache counts, the
		// total is their sum (docs/contract.md), at metadata's top or under a usage object.
		{name: "Anthropic usage", metadata: `{"usage":{"input_tokens":12,"output_tokens":3,"cache_read_input_tokens":0}}`, notes: []note{{"metadata.usage",
			`found "input_tokens" and "output_tokens" under "usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself`}}},
		{name: "Anthropic usage with cache", metadata: `{"usage":{"input_tokens":12,"cache_creation_input_tokens":1500,"cache_read_input_tokens":0,"output_tokens":3}}`, notes: []note{{"metadata.usage",
			`found "input_tokens" and "output_tokens" under "usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself (the platform reads no counts inside "usage"); ` +
				`"usage" was kept as an ordinary key, stored as sent, so the run is shown without token counts; copy the run's totals to metadata's own keys: ` +
				`"input_tokens" + "cache_creation_input_tokens" + "cache_read_input_tokens" (12 + 1500 + 0 = 1512) to "total_input_tokens", "output_tokens" to "total_output_tokens" ` +
				`(Anthropic's input_tokens leaves out the cached input, which total_input_tokens counts)`}}},
		{name: "Anthropic usage with one cache count, output sent", metadata: `{"usage":{"input_tokens":12,"cache_read_input_tokens":900,"output_tokens":3},"total_output_tokens":3}`, notes: []note{{"metadata.usage",
			`copy the run's total to metadata's own key: "input_tokens" + "cache_read_input_tokens" (12 + 900 = 912) to "total_input_tokens" (Anthropic's input_tokens leaves out the cached input, which total_input_tokens counts)`}}},
		{name: "Anthropic counts at the top", metadata: `{"input_tokens":12,"cache_read_input_tokens":900,"output_tokens":3}`, notes: []note{
			{"metadata.input_tokens", `found the key "input_tokens" holding a number, expected "total_input_tokens" (a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata); ` +
				`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an input token count; ` +
				`set "total_input_tokens" to the sum "input_tokens" + "cache_read_input_tokens", 12 + 900 = 912 (Anthropic's input_tokens leaves out the cached input, which total_input_tokens counts)`},
			{"metadata.output_tokens", `rename it "total_output_tokens"`}}},
		{name: "Anthropic counts in camelCase", metadata: `{"inputTokens":12,"cacheCreationInputTokens":5}`, notes: []note{{"metadata.inputTokens",
			`set "total_input_tokens" to the sum "inputTokens" + "cacheCreationInputTokens", 12 + 5 = 17 (Anthropic's`}}},
		// Anthropic's input_tokens copied to metadata's top, its cache counts left in usage: the
		// sum names them where they are.
		{name: "Anthropic input_tokens at the top, cache counts in usage", metadata: `{"input_tokens":42,"output_tokens":217,"usage":{"input_tokens":42,"cache_creation_input_tokens":0,"cache_read_input_tokens":1800,"output_tokens":217}}`,
			notes: []note{
				{"metadata.input_tokens", `found the key "input_tokens" holding a number, expected "total_input_tokens" (a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata); ` +
					`it was kept as an ordinary key, stored as sent and not checked, so the run is shown without an input token count; ` +
					`set "total_input_tokens" to the sum "input_tokens" + "cache_creation_input_tokens" + "cache_read_input_tokens" (the cache counts under "usage"), 42 + 0 + 1800 = 1842 ` +
					`(Anthropic's input_tokens leaves out the cached input, which total_input_tokens counts)`},
				{"metadata.output_tokens", `rename it "total_output_tokens"`}}},
		// The reverse: the cache counts copied to metadata's top, input_tokens left in usage.
		{name: "Anthropic cache counts at the top, input_tokens in usage", metadata: `{"cache_creation_input_tokens":0,"cache_read_input_tokens":1800,"usage":{"input_tokens":42,"output_tokens":217}}`,
			notes: []note{{"metadata.usage", `found "input_tokens" and "output_tokens" under "usage", expected "total_input_tokens" and "total_output_tokens" in metadata itself (the platform reads no counts inside "usage"); ` +
				`"usage" was kept as an ordinary key, stored as sent, so the run is shown without token counts; ` +
				`copy the run's totals to metadata's own keys: "input_tokens" + "cache_creation_input_tokens" + "cache_read_input_tokens" (the cache counts in metadata itself, 42 + 0 + 1800 = 1842) to "total_input_tokens", "output_tokens" to "total_output_tokens" ` +
				`(Anthropic's input_tokens leaves out the cached input, which total_input_tokens counts)`}}},
		{name: "one cache count at the top, input_tokens in usage", metadata: `{"cache_read_input_tokens":900,"usage":{"input_tokens":12},"total_output_tokens":3}`,
			notes: []note{{"metadata.usage", `copy the run's total to metadata's own key: "input_tokens" + "cache_read_input_tokens" (the cache count in metadata itself, 12 + 900 = 912) to "total_input_tokens" (Anthropic's`}}},
		{name: "cache counts in usage win over those at the top", metadata: `{"cache_read_input_tokens":900,"usage":{"input_tokens":12,"cache_creation_input_tokens":5}}`,
			notes: []note{{"metadata.usage", `"input_tokens" + "cache_creation_input_tokens" (12 + 5 = 17) to "total_input_tokens"`}}},
		{name: "one cache count in usage_metadata", metadata: `{"usage_metadata":{"cache_read_input_tokens":900},"input_tokens":12}`, notes: []note{{"metadata.input_tokens",
			`set "total_input_tokens" to the sum "input_tokens" + "cache_read_input_tokens" (the cache count under "usage_metadata"), 12 + 900 = 912 (Anthropic's`}}},
		{name: "cache counts beside the count win", metadata: `{"input_tokens":12,"usage":{"cache_read_input_tokens":900},"cache_creation_input_tokens":5}`, notes: []note{{"metadata.input_tokens",
			`set "total_input_tokens" to the sum "input_tokens" + "cache_creation_input_tokens", 12 + 5 = 17 (Anthropic's`}}},
		{name: "a count not in plain digits is named, not added", metadata: `{"input_tokens":12,"usage":{"cache_read_input_tokens":9E+2}}`, notes: []note{{"metadata.input_tokens",
			`set "total_input_tokens" to the sum "input_tokens" + "cache_read_input_tokens" (the cache count under "usage") (Anthropic's`}}},
		{name: "a count too long to add", metadata: `{"input_tokens":1234567890123456789,"cache_read_input_tokens":1}`, notes: []note{{"metadata.input_tokens",
			`set "total_input_tokens" to the sum "input_tokens" + "cache_read_input_tokens" (Anthropic's`}}},
		{name: "a repeated usage cache count, the last not a number", metadata: `{"input_tokens":12,"usage":{"cache_read_input_tokens":9,"cache_read_input_tokens":null}}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		// Strands' accumulated_usage (Bedrock's names): inputTokens leaves out cacheReadInputTokens
		// and cacheWriteInputTokens, as Anthropic's input_tokens does.
		{name: "Strands accumulated_usage with cache", metadata: `{"accumulated_usage":{"inputTokens":900,"outputTokens":120,"totalTokens":1020,"cacheReadInputTokens":300,"cacheWriteInputTokens":1500}}`, notes: []note{{"metadata.accumulated_usage",
			`copy the run's totals to metadata's own keys: "inputTokens" + "cacheReadInputTokens" + "cacheWriteInputTokens" (900 + 300 + 1500 = 2700) to "total_input_tokens", "outputTokens" to "total_output_tokens" ` +
				`(Strands' inputTokens leaves out the cached input, which total_input_tokens counts)`}}},
		{name: "Strands accumulated_usage with a cache write only", metadata: `{"accumulated_usage":{"inputTokens":900,"outputTokens":120,"cacheWriteInputTokens":1500},"total_output_tokens":120}`, notes: []note{{"metadata.accumulated_usage",
			`copy the run's total to metadata's own key: "inputTokens" + "cacheWriteInputTokens" (900 + 1500 = 2400) to "total_input_tokens" (Strands' inputTokens`}}},
		{name: "Strands accumulated_usage with a cache read only", metadata: `{"accumulated_usage":{"inputTokens":900,"cacheReadInputTokens":300}}`, notes: []note{{"metadata.accumulated_usage",
			`"inputTokens" + "cacheReadInputTokens" (900 + 300 = 1200) to "total_input_tokens" (Strands' inputTokens`}}},
		{name: "Strands read count at the top", metadata: `{"inputTokens":900,"cacheReadInputTokens":300}`, notes: []note{{"metadata.inputTokens",
			`set "total_input_tokens" to the sum "inputTokens" + "cacheReadInputTokens", 900 + 300 = 1200 (Strands' inputTokens`}}},
		{name: "Strands counts at the top", metadata: `{"inputTokens":900,"cacheWriteInputTokens":1500}`, notes: []note{{"metadata.inputTokens",
			`set "total_input_tokens" to the sum "inputTokens" + "cacheWriteInputTokens", 900 + 1500 = 2400 (Strands' inputTokens`}}},
		{name: "Strands inputTokens at the top, cache counts in accumulated_usage", metadata: `{"inputTokens":900,"accumulated_usage":{"inputTokens":900,"cacheReadInputTokens":300}}`, notes: []note{{"metadata.inputTokens",
			`set "total_input_tokens" to the sum "inputTokens" + "cacheReadInputTokens" (the cache count under "accumulated_usage"), 900 + 300 = 1200 (Strands' inputTokens`}}},
		{name: "a cache count not a number", metadata: `{"input_tokens":12,"cache_read_input_tokens":null}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "a repeated cache count, the last not a number", metadata: `{"usage":{"input_tokens":12,"cache_read_input_tokens":9,"cache_read_input_tokens":"x"}}`, notes: []note{{"metadata.usage",
			`copy the run's total to metadata's own key: "input_tokens" to "total_input_tokens"`}}},
		{name: "a cache count beside another SDK's name", metadata: `{"prompt_tokens":12,"cache_read_input_tokens":9}`, notes: []note{{"metadata.prompt_tokens", `; rename it "total_input_tokens"`}}},
		// Keys as the record has them: a repeated key's last value, an escaped key unescaped.
		{name: "a repeated key, the last a number", metadata: `{"input_tokens":"12","input_tokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "an escaped key", metadata: `{"input\u005ftokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "an escaped key in usage", metadata: `{"usage":{"prompt\u005ftokens":12,"completion_tokens":3}}`, notes: []note{{"metadata.usage", openAIUsage}}},
		// Several other names for one key: one note, on the first; a usage object supplies only
		// what no other name did; notes in input order.
		{name: "two names for one count", metadata: `{"input_tokens":12,"prompt_tokens":12}`, notes: []note{{"metadata.input_tokens", inputTokens}}},
		{name: "in input order", metadata: `{"prompt_tokens":12,"Model":"m","input_tokens":12,"model_name":"m"}`,
			notes: []note{{"metadata.prompt_tokens", `"prompt_tokens"`}, {"metadata.Model", `"Model"`}}},
		{name: "usage and another name", metadata: `{"usage":{"prompt_tokens":12,"completion_tokens":3},"input_tokens":12}`,
			notes: []note{{"metadata.usage", `found "completion_tokens" under "usage", expected "total_output_tokens"`}, {"metadata.input_tokens", inputTokens}}},

		// No note: the recognised key is sent (even when it fails its check, which warns).
		{name: "the key and another name", metadata: `{"total_input_tokens":12,"input_tokens":12}`},
		{name: "the key, failing its check", metadata: `{"total_input_tokens":"12","input_tokens":12}`},
		{name: "the key, escaped", metadata: `{"total\u005finput_tokens":12,"input_tokens":12}`},
		{name: "model and Model", metadata: `{"Model":"a","model":"b","model_name":"c"}`},
		{name: "usage and both totals", metadata: `{"total_input_tokens":1,"total_output_tokens":2,"usage":{"prompt_tokens":1,"completion_tokens":2}}`},
		{name: "the total and Anthropic's counts", metadata: `{"total_input_tokens":912,"input_tokens":12,"cache_read_input_tokens":900}`},
		{name: "agent_runtime_ms and total_duration", metadata: `{"agent_runtime_ms":4353.6,"total_duration":4353619900,"eval_count":17,"total_output_tokens":17}`},
		// No note: the value is not what the key would hold, so it is something else by that name.
		{name: "a count as a string", metadata: `{"input_tokens":"12"}`},
		{name: "a count as null", metadata: `{"prompt_tokens":null}`},
		{name: "a model object", metadata: `{"Model":{"name":"gpt-4o"}}`},
		{name: "a numeric model name", metadata: `{"model_name":4}`},
		{name: "usage not an object", metadata: `{"usage":[{"prompt_tokens":1}]}`},
		{name: "usage counts as strings", metadata: `{"usage":{"prompt_tokens":"12","completion_tokens":null}}`},
		{name: "usage with a repeated count, the last not a number", metadata: `{"usage":{"prompt_tokens":12,"prompt_tokens":"x"}}`},
		{name: "total_duration without Ollama's other keys", metadata: `{"total_duration":4353619900}`},
		{name: "total_duration as a string", metadata: `{"total_duration":"4s","eval_count":17,"total_output_tokens":17}`},
		{name: "totalDuration", metadata: `{"totalDuration":4353619900,"evalCount":17,"total_output_tokens":17}`},
		// No note: names that are not a recognised key's.
		{name: "other keys", metadata: `{"tokens":5,"input":3,"total_tokens":15,"model_version":"v","runtime_ms":4,"system_prompt":"s","usage":{"total_tokens":15}}`},
		{name: "counts nested deeper", metadata: `{"response":{"usage":{"prompt_tokens":1}},"run":{"input_tokens":1}}`},
		// No note: no metadata object (dropped with a warning, null, or under another key).
		{name: "metadata an array", metadata: `[{"input_tokens":12},3]`},
		{name: "metadata serialized twice", metadata: `"{\"input_tokens\":12}"`},
		{name: "metadata null", metadata: `null`},
		{name: "empty metadata", metadata: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, `{"final_response":"ok","metadata":`+tt.metadata+`}`)
			require.Len(t, notes, len(tt.notes), "notes: %+v", notes)
			for i, want := range tt.notes {
				assert.Equal(t, want.path, notes[i].Path())
				assert.Equal(t, softwarn.MetadataKeyVariant, notes[i].Code)
				assert.Equal(t, softwarn.Kept, notes[i].Action, "the key is kept as sent")
				assert.Contains(t, notes[i].Message(), want.message)
			}
		})
	}
}

// The notes are about the metadata the record keeps: of a repeated top-level metadata, the
// last; metadata under another key gets the note on that key alone; a variant of the top-level
// key and a metadata key's other name are noted in input order with the rest.
func TestExplainMetadataKeyVariantsInTheResult(t *testing.T) {
	tests := []struct {
		name, doc string
		paths     []string
	}{
		{name: "the last metadata counts", doc: `{"final_response":"ok","metadata":{"input_tokens":1},"metadata":{"model":"m"}}`},
		{name: "the last metadata has one", doc: `{"final_response":"ok","metadata":{"model":"m"},"metadata":{"input_tokens":1}}`, paths: []string{"metadata.input_tokens"}},
		{name: "metadata under another key", doc: `{"final_response":"ok","meta_data":{"input_tokens":1}}`, paths: []string{"meta_data"}},
		{name: "among other notes", doc: `{"metadata":{"Model":"m"},"final_response":"None","messages":[{"role":"tool","content":"x"}],"Metadata":{}}`,
			paths: []string{"metadata.Model", "final_response", "messages[0]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, tt.doc)
			var paths []string
			for _, n := range notes {
				paths = append(paths, n.Path())
			}
			assert.Equal(t, tt.paths, paths)
		})
	}
}

// The notes keep to the notes cap, and a hostile key is shown cut, in a note of bounded size.
func TestExplainMetadataKeyVariantsBounded(t *testing.T) {
	doc := `{"final_response":"ok","metadata":{"input_tokens":1,"output_tokens":2,"Model":"m","agentRuntimeMs":3}}`
	notes := explainNotes(t, doc, normalize.WithMaxWarnings(2))
	require.Len(t, notes, 3, "notes: %+v", notes)
	assert.Equal(t, []string{"metadata.input_tokens", "metadata.output_tokens", "messages"}, []string{notes[0].Path(), notes[1].Path(), notes[2].Path()})
	assert.Equal(t, softwarn.NotesLimited, notes[2].Code)
	assert.Contains(t, notes[2].Message(), "2 more notes were not listed")

	long := "m" + strings.Repeat("_", 1<<20) + "odel"
	for _, metadata := range []string{`{"` + long + `":"m"}`, `{"u` + strings.Repeat("-", 1<<20) + `sage":{"` + strings.Repeat("_", 1<<20) + `prompt_tokens":1}}`} {
		notes = explainNotes(t, `{"final_response":"ok","metadata":`+metadata+`}`)
		require.Len(t, notes, 1)
		assert.Less(t, len(notes[0].Path()), softwarn.MaxKeyShown+20)
		assert.Less(t, len(notes[0].Pointer()), softwarn.MaxKeyShown+20)
		assert.Less(t, len(notes[0].Message()), 5*(softwarn.MaxKeyShown+10)+400, "the usage note names its key three times, the count twice")
	}
}

// Metadata sent as a list of one-key objects or of {"key", "value"} pairs (a dict's items, a
// map's entries) is dropped with the contract's warning, which says only that an object was
// expected; the explain view notes which object: the entries merged into one. The warning and
// the record stay as they are (explainNotes checks the record).
func TestExplainMetadataAsList(t *testing.T) {
	tests := []struct {
		name, metadata string
		message        string // "": no note
	}{
		{name: "one-key objects", metadata: `[{"model":"claude-sonnet-4-5"},{"total_input_tokens":3}]`,
			message: `found a list of 2 objects of one key each, expected one object; metadata was dropped, as its warning says, so the run is shown without it; ` +
				`merge them into one object: {"model": ..., "total_input_tokens": ...}`},
		{name: "one object", metadata: `[{"model":"m"}]`,
			message: `found a list of 1 object of one key, expected one object; metadata was dropped, as its warning says, so the run is shown without it; send that object itself, not a list of it: {"model": ...}`},
		{name: "key/value pairs", metadata: `[{"key":"model","value":"m"},{"value":3,"key":"total_input_tokens"}]`,
			message: `found a list of 2 {"key": ..., "value": ...} pairs, expected one object; metadata was dropped, as its warning says, so the run is shown without it; ` +
				`send one object, each pair's key a member holding its value: {"model": ..., "total_input_tokens": ...}`},
		{name: "more keys than are shown", metadata: `[{"a":1},{"b":2},{"c":3},{"d":4},{"e":5}]`,
			message: `found a list of 5 objects of one key each, expected one object; metadata was dropped, as its warning says, so the run is shown without it; ` +
				`merge them into one object: {"a": ..., "b": ..., "c": ..., ...}`},
		{name: "escaped keys", metadata: `[{"mod\u0065l":"m"},{"k\u0065y":1}]`,
			message: `merge them into one object: {"model": ..., "key": ...}`},
		{name: "pairs whose keys are escaped", metadata: `[{"key":"mod\u0065l","value":"m"}]`, message: `each pair's key a member holding its value: {"model": ...}`},
		// No note: not every entry has the shape, or the shapes are mixed.
		{name: "an empty list", metadata: `[]`},
		{name: "objects of two keys", metadata: `[{"a":1,"b":2}]`},
		{name: "an empty object", metadata: `[{"a":1},{}]`},
		{name: "not only objects", metadata: `[{"a":1},"b"]`},
		{name: "pairs and one-key objects", metadata: `[{"key":"a","value":1},{"b":2}]`},
		{name: "one-key objects and pairs", metadata: `[{"b":2},{"key":"a","value":1}]`},
		{name: "a pair whose key is not a string", metadata: `[{"key":1,"value":1}]`},
		{name: "name and value", metadata: `[{"name":"model","value":"m"}]`},
		{name: "a list of lists", metadata: `[["model","m"]]`},
		// No note: a key repeats, so the list holds records, not a dict's items; merged, only the
		// last would be left, with a warning about the duplicated key.
		{name: "records of one key", metadata: `[{"name":"env"},{"name":"team"}]`},
		{name: "usage records", metadata: `[{"usage":{"input_tokens":10}},{"usage":{"input_tokens":12}}]`},
		{name: "a key repeated later", metadata: `[{"a":1},{"b":2},{"c":3},{"d":4},{"a":5}]`},
		{name: "pairs whose key repeats", metadata: `[{"key":"tag","value":"a"},{"key":"tag","value":"b"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := `{"final_response":"ok","metadata":` + tt.metadata + `}`
			res, err := porting.Normalize([]byte(doc))
			require.NoError(t, err)
			require.Equal(t, []string{"metadata: found an array, expected an object; metadata was dropped"}, res.SoftWarnings())
			notes := explainNotes(t, doc)
			if tt.message == "" {
				assert.Empty(t, notes)
				return
			}
			require.Len(t, notes, 1, "notes: %+v", notes)
			assert.Equal(t, "metadata", notes[0].Path())
			assert.Equal(t, "/metadata", notes[0].Pointer())
			assert.Equal(t, softwarn.MetadataAsList, notes[0].Code)
			assert.Equal(t, softwarn.Dropped, notes[0].Action, "the contract's warning dropped it")
			assert.Contains(t, notes[0].Message(), tt.message)
		})
	}
	t.Run("keys past those remembered", func(t *testing.T) {
		var b strings.Builder
		for i := range 3000 {
			fmt.Fprintf(&b, `{"k%d":1},`, i)
		}
		distinct := b.String()
		notes := explainNotes(t, `{"final_response":"ok","metadata":[`+distinct+`{"k3000":1}]}`)
		require.Len(t, notes, 1)
		assert.Contains(t, notes[0].Message(), "found a list of 3001 objects of one key each")
		assert.Empty(t, explainNotes(t, `{"final_response":"ok","metadata":[`+distinct+`{"k5":1}]}`), "a repeat of a remembered key")
	})
	t.Run("the last metadata counts", func(t *testing.T) {
		assert.Empty(t, explainNotes(t, `{"final_response":"ok","metadata":[{"a":1}],"metadata":{"model":"m"}}`))
		notes := explainNotes(t, `{"final_response":"ok","metadata":{"model":"m"},"metadata":[{"a":1}]}`)
		require.Len(t, notes, 1)
		assert.Equal(t, softwarn.MetadataAsList, notes[0].Code)
	})
	t.Run("hostile keys are shown cut", func(t *testing.T) {
		long := strings.Repeat("k", 1<<20)
		notes := explainNotes(t, `{"final_response":"ok","metadata":[{"`+long+`":1},{"key":"`+long+`","value":1}]}`)
		assert.Empty(t, notes, "mixed shapes")
		notes = explainNotes(t, `{"final_response":"ok","metadata":[{"`+long+`a":1},{"`+long+`b":2},{"`+long+`c":3},{"`+long+`d":4}]}`)
		require.Len(t, notes, 1)
		assert.Less(t, len(notes[0].Message()), 3*(softwarn.MaxKeyShown+10)+300)
	})
}
