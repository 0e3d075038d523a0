package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// pydanticAI is Pydantic AI (pydantic_ai).
var pydanticAI = register(source{
	name: "Pydantic AI",
	transcripts: []transcriptShape{
		{key: "message_history", code: softwarn.TopLevelTranscriptKey, origin: "Pydantic AI's name for one (Agent.run's message_history)"},
	},
})
