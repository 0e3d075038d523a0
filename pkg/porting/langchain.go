package porting

import "github.com/dystopic/normalizer/pkg/softwarn"

// langChain is LangChain (langchain_core, @langchain/core) and LangGraph. Its messages_to_dict
// writes {"type": message.type, "data": message.model_dump()}, type one of human, ai, system,
// tool, data holding "content" and, by type, "tool_calls" ([{"name", "args", "id"}]) or
// "tool_call_id".
var langChain = register(source{
	name: "LangChain",
	transcripts: []transcriptShape{
		{key: "history", code: softwarn.TopLevelTranscriptKey, lead: "a chat's history in ", origin: `in LangChain (MessagesPlaceholder("history"))`},
		{key: "chat_history", code: softwarn.TopLevelTranscriptKey, origin: "LangChain's usual name for one"},
	},
	messages: []messageShape{
		{rank: 8, code: softwarn.MessageOtherFramework,
			is: func(w *messageWalk, f foreignFacts) bool {
				return f.noRole && !f.parts && f.data && langChainRole(w.shortText(f.typ)) != ""
			},
			note: func(w *messageWalk, f foreignFacts) softwarn.Parts {
				return langChainNote(w.text(f.typ), droppedMessage)
			}},
	},
})

// langChainRole is the platform's role for a LangChain message type, "" for another type.
func langChainRole(typ []byte) string {
	switch string(typ) {
	case "human":
		return "user"
	case "ai":
		return "assistant"
	case "system", "tool":
		return string(typ)
	}
	return ""
}

// langChainNote is what the note on a message as LangChain's messages_to_dict writes it, of
// type typ (human, ai, system or tool), says: the message its data converts to, or the list
// converted whole.
func langChainNote(typ, dropped string) softwarn.Parts {
	var send string
	switch typ {
	case "ai":
		send = `{"role": "assistant", "content": <data.content>, "tool_calls": [{"id": <id>, "name": <name>, "arguments": <args>}, ...] from data.tool_calls}`
	case "tool":
		send = `{"role": "tool", "tool_call_id": <data.tool_call_id>, "content": <data.content>}`
	default:
		send = `{"role": "` + langChainRole([]byte(typ)) + `", "content": <data.content>}`
	}
	return softwarn.Parts{Found: `a LangChain message as ` + langChainStoredWriters + ` writes it ({"type": "` + typ + `", "data": {...}}, no "role")`,
		Expected: `a chat message {"role", "content", ...}`, Done: dropped,
		Fix: `send it as ` + send + `, or ` + langChainStoredFix}
}

// LangChain's stored form of a message, {"type", "data": {...}}, is written by messages_to_dict
// in Python (langchain_core.messages) and by mapChatMessagesToStoredMessages in JavaScript
// (@langchain/core/messages); the two are the same JSON, so the note cannot tell the language
// and names each language's helper by its language.
const (
	langChainStoredWriters = "messages_to_dict (Python) or mapChatMessagesToStoredMessages (JavaScript)"
	langChainStoredFix     = "convert the list back with LangChain's helpers: in Python messages_from_dict(<the list>), then convert_to_openai_messages (langchain_core.messages); " +
		"in JavaScript mapStoredMessagesToChatMessages(<the list>) (@langchain/core/messages), then each message's content and tool_calls as above"
)
