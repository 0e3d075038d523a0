package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// gemini is Google's Gemini API and its SDKs (google-genai, @google/genai).
var gemini = register(source{
	name: "Gemini",
	transcripts: []transcriptShape{
		{key: "history", code: softwarn.TopLevelTranscriptKey, lead: "a chat's history in ", origin: "Gemini's SDKs (chat.get_history())"},
	},
})
