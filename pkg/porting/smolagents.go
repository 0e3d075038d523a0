package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// smolagents is Hugging Face's smolagents.
var smolagents = register(source{
	name: "smolagents",
	transcripts: []transcriptShape{
		{key: "steps", code: softwarn.TopLevelTranscriptKey, origin: "smolagents' name for an agent's memory steps (agent.memory.steps)"},
	},
})
