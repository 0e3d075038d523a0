package porting

// LangChain's stored form of a message, {"type", "data": {...}}, is written by messages_to_dict
// in Python (langchain_core.messages) and by mapChatMessagesToStoredMessages in JavaScript
// (@langchain/core/messages); the two are the same JSON, so the note cannot tell the language
// and names each language's helper by its language.
const (
	langChainStoredWriters = "messages_to_dict (Python) or mapChatMessagesToStoredMessages (JavaScript)"
	langChainStoredFix     = "convert the list back with LangChain's helpers: in Python messages_from_dict(<the list>), then convert_to_openai_messages (langchain_core.messages); " +
		"in JavaScript mapStoredMessagesToChatMessages(<the list>) (@langchain/core/messages), then each message's content and tool_calls as above"
)
