package porting

// The token counts' names that several SDKs share, for metaKeys: a note says that the name is
// shared before it names any SDK, so that a porter of one of them is not told first that the
// key is another's. input_tokens and output_tokens are in Anthropic's, OpenAI Responses' and
// Pydantic AI's usage and in LangChain's usage_metadata (UsageMetadata, in Python and in
// JavaScript); inputTokens and outputTokens are in the AI SDK's usage and totalUsage
// (generateText, streamText) and in Strands' accumulated_usage (Bedrock's names). Each of
// those counts is the total of its kind: the AI SDK's and LangChain's output counts include the
// reasoning tokens, which they also break out (outputTokenDetails.reasoningTokens,
// output_token_details.reasoning).
const (
	sharedInputTokens       = "a name several SDKs share for the count: Anthropic's, OpenAI Responses' and Pydantic AI's usage, LangChain's usage_metadata"
	sharedOutputTokens      = sharedInputTokens
	sharedInputTokensCamel  = "a name several SDKs share for the count: the AI SDK's usage and totalUsage, Strands' accumulated_usage"
	sharedOutputTokensCamel = sharedInputTokensCamel
)
