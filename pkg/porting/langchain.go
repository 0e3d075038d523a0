package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// langChain is LangChain (langchain_core, @langchain/core) and LangGraph.
var langChain = register(source{
	name: "LangChain",
	transcripts: []transcriptShape{
		{key: "history", code: softwarn.TopLevelTranscriptKey, lead: "a chat's history in ", origin: `in LangChain (MessagesPlaceholder("history"))`},
		{key: "chat_history", code: softwarn.TopLevelTranscriptKey, origin: "LangChain's usual name for one"},
	},
})
