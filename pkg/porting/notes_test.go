package porting_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// explainNotes normalizes doc with explain and returns its notes, after checking that explain
// added diagnostics and changed nothing else.
func explainNotes(t *testing.T, doc string, opts ...normalize.Option) []softwarn.Warning {
	t.Helper()
	plain, err := porting.Normalize([]byte(doc), opts...)
	require.NoError(t, err)
	record := string(plain.AppendJSON(nil))
	res, err := porting.Normalize([]byte(doc), append(opts, normalize.WithExplain())...)
	require.NoError(t, err)
	explained := string(res.AppendJSON(nil))
	require.Equal(t, record[:len(record)-1], explained[:len(record)-1], "explain changed the record")
	return res.Notes()
}

// Rule 4 ignores unknown top-level keys without a warning; the explain view notes one that is
// messages or metadata spelled another way, when the key itself is absent, so that a porter
// learns why rich mode is off.
func TestExplainKeyVariants(t *testing.T) {
	const msgs = `[{"role":"user","content":"hi"}]`
	tests := []struct {
		name, doc string
		path      string // the note's path, "" for no note
		message   string
	}{
		{name: "Messages", doc: `{"final_response":"ok","Messages":` + msgs + `}`, path: "Messages",
			message: `found the key "Messages" holding an array, expected "messages" (keys are matched exactly, case and separators included); ` +
				`it was dropped with the other unknown keys, so the record has no messages and rich mode is off; rename it "messages"`},
		{name: "singular", doc: `{"final_response":"ok","message":` + msgs + `}`, path: "message",
			message: `found the key "message" holding an array, expected "messages" (keys are matched exactly); it was dropped`},
		{name: "upper case", doc: `{"final_response":"ok","MESSAGES":` + msgs + `}`, path: "MESSAGES", message: `"MESSAGES"`},
		{name: "meta_data", doc: `{"final_response":"ok","meta_data":{"model":"m"}}`, path: "meta_data",
			message: `found the key "meta_data" holding an object, expected "metadata" (keys are matched exactly, case and separators included); ` +
				`it was dropped with the other unknown keys, so the record has no metadata; rename it "metadata"`},
		{name: "Metadata", doc: `{"final_response":"ok","Metadata":{}}`, path: "Metadata", message: `rename it "metadata"`},
		{name: "metaData", doc: `{"final_response":"ok","metaData":{"model":"m"}}`, path: "metaData", message: `"metaData"`},
		{name: "meta-data", doc: `{"final_response":"ok","meta-data":{}}`, path: `["meta-data"]`, message: `"meta-data"`},
		{name: "metadatas", doc: `{"final_response":"ok","metadatas":{}}`, path: "metadatas", message: `(keys are matched exactly);`},
		{name: "the key itself is there", doc: `{"final_response":"ok","messages":` + msgs + `,"Messages":` + msgs + `,"metadata":null,"Metadata":{}}`},
		{name: "a status message", doc: `{"final_response":"ok","message":"done"}`},
		{name: "Messages as a string", doc: `{"final_response":"ok","Messages":"hi"}`},
		{name: "Metadata as an array", doc: `{"final_response":"ok","Metadata":[]}`},
		{name: "another key", doc: `{"final_response":"ok","meta":{},"msgs":` + msgs + `,"message_list":` + msgs + `}`},
		{name: "final_response alone", doc: `"ok"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, tt.doc)
			if tt.path == "" {
				assert.Empty(t, notes)
				return
			}
			require.Len(t, notes, 1, "notes: %+v", notes)
			assert.Equal(t, tt.path, notes[0].Path())
			assert.Equal(t, softwarn.TopLevelKeyVariant, notes[0].Code)
			assert.Equal(t, softwarn.Dropped, notes[0].Action)
			assert.Contains(t, notes[0].Message(), tt.message)
		})
	}
}

// One note per absent key, for its first variant; notes follow the input's order; a hostile
// variant key is shown cut.
func TestExplainKeyVariantsOrderAndSize(t *testing.T) {
	notes := explainNotes(t, `{"Metadata":{},"Messages":[],"final_response":"None","MESSAGES":[1],"meta_data":{}}`)
	require.Len(t, notes, 3, "notes: %+v", notes)
	assert.Equal(t, []string{"Metadata", "Messages", "final_response"}, []string{notes[0].Path(), notes[1].Path(), notes[2].Path()})

	long := "m" + strings.Repeat("_", 1<<20) + "essages"
	notes = explainNotes(t, `{"final_response":"ok","`+long+`":[]}`)
	require.Len(t, notes, 1)
	assert.Less(t, len(notes[0].Path()), softwarn.MaxKeyShown+10)
	assert.Less(t, len(notes[0].Message()), 2*softwarn.MaxKeyShown+300)
}

// A final_response that is Python's text of a result object, not the answer in it, gets a
// note saying what it is and what to send; prose that only looks a little like one does not.
func TestExplainFinalResponseRepr(t *testing.T) {
	tests := []struct {
		name, text string
		message    string // "" for no note
	}{
		{name: "str of a LangChain AIMessage",
			text:    `content='Paris is the capital.' additional_kwargs={} response_metadata={'finish_reason': 'stop'} id='run-1'`,
			message: `looks like Python's str() of a LangChain message (content='…' additional_kwargs={…}), not the text of the answer: the judge grades the whole of it; send the answer's text itself, message.content`},
		{name: "double-quoted content", text: `content="It's Paris." response_metadata={}`, message: "message.content"},
		{name: "str of a LangChain message with content blocks", text: `content=[{'text': 'Paris', 'type': 'text'}] additional_kwargs={} response_metadata={'model': 'claude-3-5-sonnet'} id='run-1'`,
			message: `looks like Python's str() of a LangChain message (content=[…] additional_kwargs={…}), not the text of the answer: the judge grades the whole of it; send the answer's text itself, the text of the text blocks in message.content`},
		{name: "RunResult repr", text: `RunResult(input='hi', new_items=[...], final_output='Paris')`,
			message: `looks like Python's repr() of an object, RunResult(…), not the text of the answer: the judge grades the whole of it; send the answer's text itself, result.final_output`},
		{name: "AIMessage repr", text: `AIMessage(content='Paris', additional_kwargs={}, response_metadata={})`, message: "repr() of an object, AIMessage(…), not the text of the answer: the judge grades the whole of it; send the answer's text itself, result.content"},
		{name: "Anthropic Message repr", text: `Message(id='msg_1', content=[TextBlock(text='Paris', type='text')], model='claude', role='assistant')`, message: "result.content"},
		{name: "str of a dict", text: `{'output': 'Paris', 'intermediate_steps': []}`,
			message: `looks like Python's str() of a dict with 'output', not the text of the answer: the judge grades the whole of it; send the answer's text itself, result["output"]`},
		{name: "LangGraph state", text: `{'messages': [HumanMessage(content='hi'), AIMessage(content='Paris')]}`, message: `result["messages"][-1].content`},
		{name: "surrounding whitespace", text: "\n  {'final_output': 'Paris'} \n", message: `result["final_output"]`},
		// A value with no answer in it is named by no note: sending it would be rejected as empty.
		{name: "Ollama dict with empty content", text: `{'model': 'llama3', 'message': {'role': 'assistant', 'content': ''}, 'done': True}`},
		{name: "Ollama tool-call turn", text: `ChatResponse(model='llama3', message=Message(role='assistant', content=None, tool_calls=[ToolCall(function=Function(name='f', arguments={}))]), done=True)`},
		{name: "Strands message with no content blocks", text: `AgentResult(stop_reason='end_turn', message={'role': 'assistant', 'content': []}, metrics=None)`},
		{name: "LangChain message with empty content", text: `content=[] additional_kwargs={} response_metadata={}`},
		{name: "LangChain message with an empty string", text: `content='' additional_kwargs={'tool_calls': []} response_metadata={}`},
		{name: "Responses dict with no output", text: `{'object': 'response', 'output': []}`},
		{name: "Responses repr with no output", text: `Response(id='resp_1', object='response', output=[], model='gpt-4o')`},
		{name: "empty output value", text: `{'output': '', 'intermediate_steps': []}`},
		{name: "chat completion of a tool-call turn", text: `ChatCompletion(id='chatcmpl-1', choices=[Choice(finish_reason='tool_calls', index=0, logprobs=None, message=ChatCompletionMessage(content=None, refusal=None, role='assistant', tool_calls=[ChatCompletionMessageToolCall(id='call_1', function=Function(arguments='{}', name='f'), type='function')]))], created=1, model='gpt-4o', object='chat.completion')`},
		{name: "Responses object with only a tool call", text: `Response(id='resp_1', created_at=1.0, model='gpt-4o', object='response', output=[ResponseFunctionToolCall(arguments='{}', call_id='call_1', name='f', type='function_call', id='fc_1', status='completed')])`},
		{name: "LangGraph state ending in a tool-call turn", text: `{'messages': [HumanMessage(content='hi'), AIMessage(content='', tool_calls=[{'name': 'f', 'args': {}, 'id': 'call_1'}])]}`},
		{name: "OpenAI ChatCompletion repr", text: chatCompletionRepr,
			message: `looks like Python's repr() of an OpenAI chat completion, ChatCompletion(…), not the text of the answer: the judge grades the whole of it; send the answer's text itself, result.choices[0].message.content`},
		{name: "str of an OpenAI chat completion's dict", text: `{'id': 'chatcmpl-1', 'choices': [{'finish_reason': 'stop', 'index': 0, 'message': {'content': 'Paris', 'role': 'assistant'}}], 'created': 1, 'model': 'gpt-4o', 'object': 'chat.completion'}`,
			message: `looks like Python's str() of an OpenAI chat completion's dict ('object': 'chat.completion'), not the text of the answer: the judge grades the whole of it; send the answer's text itself, result["choices"][0]["message"]["content"]`},
		{name: "LangGraph state of dicts", text: `{'messages': [{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': 'Paris'}]}`,
			message: `looks like Python's str() of a dict with 'messages' (a LangGraph state), not the text of the answer: the judge grades the whole of it; send the answer's text itself, the last message's content, result["messages"][-1]["content"]`},
		{name: "str of Anthropic content blocks", text: `[{'type': 'thinking', 'thinking': 'hm', 'signature': 'x'}, {'type': 'text', 'text': 'Paris'}, {'type': 'text', 'text': '.'}]`,
			message: `looks like Python's str() of a list of content blocks (an Anthropic message's content, or a chat message's content parts), not the text of the answer: the judge grades the whole of it; send the answer's text itself, the "text" of its text blocks, joined with the text of the others (here content[1]["text"])`},
		{name: "content blocks of a tool-call turn", text: `[{'type': 'text', 'text': 'Let me look.'}, {'type': 'tool_use', 'id': 't1', 'name': 'f', 'input': {}}]`},
		{name: "content blocks without text", text: `[{'type': 'text', 'text': ''}]`},
		{name: "a list of other dicts", text: `[{'name': 'a'}, {'name': 'b'}]`},
		{name: "str of a Gemini response's dict", text: `{'candidates': [{'content': {'parts': [{'text': 'hm', 'thought': True}, {'text': 'Paris'}], 'role': 'model'}, 'finishReason': 'STOP'}], 'modelVersion': 'gemini-2.5-flash'}`,
			message: `looks like Python's str() of a Gemini generateContent response's dict ('candidates'), not the text of the answer: the judge grades the whole of it; send the answer's text itself, result["candidates"][0]["content"]["parts"][1]["text"]`},
		{name: "Gemini response that calls a function", text: `{'candidates': [{'content': {'parts': [{'function_call': {'name': 'f', 'args': {}}}], 'role': 'model'}}]}`},
		{name: "Gemini response with only thoughts", text: `{'candidates': [{'content': {'parts': [{'text': 'hm', 'thought': True}], 'role': 'model'}}]}`},
		{name: "the top-level key wins over a nested one", text: `{'messages': [{'output': 'hi'}], 'content': 'Paris'}`, message: `result["content"]`},
		{name: "content blocks", text: `Message(id='msg_1', content=[TextBlock(citations=None, text='Paris', type='text')], model='claude', role='assistant', type='message')`,
			message: `send the answer's text itself, the text of the text blocks in result.content`},
		{name: "an escaped quote in a string", text: `Result(text='it\'s', output='Paris')`, message: "result.output"},
		{name: "a double-quoted string with a quote and a bracket", text: `Result(text="it's (not", final_output='Paris')`, message: "result.final_output"},
		{name: "a repr spread over lines", text: "{'intermediate_steps': [],\n 'output': 'Paris'}", message: `result["output"]`},
		{name: "an Ollama dict: the message's content", text: `{'model': 'llama3.1', 'created_at': '2024-07-01T00:00:00Z', 'message': {'role': 'assistant', 'content': 'Paris'}, 'done': True}`,
			message: `looks like Python's str() of a dict with 'message', not the text of the answer: the judge grades the whole of it; send the answer's text itself, result["message"]["content"]`},
		{name: "an Ollama ChatResponse: the message's content", text: `ChatResponse(model='llama3.1', message=Message(role='assistant', content='Paris'), done=True)`,
			message: `send the answer's text itself, result.message.content`},
		{name: "a message object in a dict", text: `{'message': Message(role='assistant', content='Paris'), 'done': True}`, message: `send the answer's text itself, result["message"].content`},
		{name: "a Strands AgentResult: text blocks in the message dict's content", text: `AgentResult(stop_reason='end_turn', message={'role': 'assistant', 'content': [{'text': 'Paris'}]}, metrics=EventLoopMetrics(cycle_count=1), state={})`,
			message: `send the answer's text itself, the text of the text blocks in result.message["content"]`},
		{name: "a message that is a string", text: `{'message': 'Paris', 'done': True}`, message: `send the answer's text itself, result["message"]`},
		{name: "an OpenAI Responses API response", text: responseRepr,
			message: `looks like Python's repr() of an OpenAI Responses API response, Response(…), not the text of the answer: the judge grades the whole of it; send the answer's text itself, result.output_text`},
		{name: "str of an OpenAI response's dict", text: `{'id': 'resp_1', 'created_at': 1.0, 'model': 'gpt-4o', 'object': 'response', 'output': [{'id': 'msg_1', 'content': [{'annotations': [], 'text': 'Paris', 'type': 'output_text'}], 'role': 'assistant', 'status': 'completed', 'type': 'message'}]}`,
			message: `looks like Python's str() of an OpenAI Responses API response's dict ('object': 'response'), not the text of the answer: the judge grades the whole of it; send the answer's text itself, the text of the 'output_text' parts of the message items in result["output"]`},
		{name: "a list under output", text: `{'input': 'q', 'output': [{'text': 'Paris', 'type': 'text', 'index': 0}]}`, message: `send the answer's text itself, the text of the items in result["output"]`},

		{name: "a nested content key", text: `{'answer': 'x', 'sources': [{'content': 'y'}]}`},
		{name: "nested keyword arguments", text: `Wrapper(inner=Inner(output='x', content='y'), kind='z')`},
		{name: "keywords inside a string", text: `Result(text='a, content=1', kind='it\'s', n=2)`},
		{name: "keys inside a string", text: `{'note': "it's, 'output': here", 'n': 1}`},
		{name: "a chat completion chunk", text: `ChatCompletionChunk(id='c', choices=[Choice(delta=ChoiceDelta(content='Par'), index=0)], created=1, model='m', object='chat.completion.chunk')`},
		{name: "choices without a chat completion", text: `Quiz(question='Capital?', choices=['Paris', 'Lyon'], kind='one')`},
		{name: "two calls in prose", text: `Note(a=1, b=2) and Other(output=3, content=4)`},
		{name: "an unclosed quote", text: `Result(text='it's', output='Paris')`},
		{name: "prose with a nested quote", text: `{'a' says "it's 'output': x"}`},
		{name: "LangChain markers inside the content", text: `content='Set additional_kwargs={} on it.'`},
		{name: "an unclosed content list", text: `content=[{'text': 'Paris' additional_kwargs={}`},
		{name: "a message without content", text: `Event(kind='x', message=Message(role='assistant', text='Paris'), done=True)`},
		{name: "an empty output list", text: `Run(id='r', output=[], status='failed')`},

		{name: "prose about content=", text: `Set content='x' and additional_kwargs={} on the message to fix it.`},
		{name: "prose starting with content=", text: `content='x' is how you set the text of a message.`},
		{name: "prose with braces", text: `The template {name} was filled in: {'a' is not a key}.`},
		{name: "a dict of the answer's own", text: `{'city': 'Paris', 'country': 'France'}`},
		{name: "JSON of a dict", text: `{"output": "Paris"}`},
		{name: "math", text: `F(x=1)`},
		{name: "one keyword", text: `Result(output=5)`},
		{name: "a call in prose", text: `Call Search(query='x', output='json') to find it, then answer.`},
		{name: "a comparison", text: `Check(a==1, output==2)`},
		{name: "a sentence in parentheses", text: `Paris (the capital, output=yes).`},
		{name: "prose about a message dict", text: `Send message={'content': 'x'} and then output=[1] to the API.`},
		{name: "prose about a content list", text: `content=[a, b] is a list; additional_kwargs={} is not needed.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := explainNotes(t, `{"final_response":`+quote(tt.text)+`}`)
			if tt.message == "" {
				assert.Empty(t, notes)
				return
			}
			require.Len(t, notes, 1, "notes: %+v", notes)
			assert.Equal(t, "final_response", notes[0].Path())
			assert.Equal(t, softwarn.FinalResponseRepr, notes[0].Code)
			assert.Equal(t, softwarn.Kept, notes[0].Action)
			assert.Contains(t, notes[0].Message(), tt.message)
		})
	}
}

// chatCompletionRepr is what print(completion) writes for an OpenAI chat completion.
const chatCompletionRepr = `ChatCompletion(id='chatcmpl-1', choices=[Choice(finish_reason='stop', index=0, logprobs=None, ` +
	`message=ChatCompletionMessage(content='Paris', refusal=None, role='assistant', annotations=[], audio=None, function_call=None, ` +
	`tool_calls=None))], created=1, model='gpt-4o', object='chat.completion', service_tier=None, system_fingerprint=None, usage=None)`

// responseRepr is what print(response) writes for an OpenAI Responses API response.
const responseRepr = `Response(id='resp_1', created_at=1.0, error=None, incomplete_details=None, instructions=None, metadata={}, ` +
	`model='gpt-4o', object='response', output=[ResponseOutputMessage(id='msg_1', content=[ResponseOutputText(annotations=[], ` +
	`text='Paris', type='output_text')], role='assistant', status='completed', type='message')], parallel_tool_calls=True, ` +
	`temperature=1.0, tool_choice='auto', tools=[], top_p=1.0, status='completed', usage=None)`

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Past the limit, the notes listed are the first in input order, whichever step found them:
// here the calls nothing answers come before the results that answer nothing.
func TestExplainNotesLimitedInInputOrder(t *testing.T) {
	doc := `{"final_response":"a","messages":[{"role":"assistant","tool_calls":[{"id":"1","name":"f"},{"id":"2","name":"f"}]},` +
		`{"role":"tool","tool_call_id":"x","content":"r"},{"role":"tool","tool_call_id":"y","content":"r"}]}`
	notes := explainNotes(t, doc, normalize.WithMaxWarnings(3))
	require.Len(t, notes, 4, "notes: %+v", notes)
	assert.Equal(t, []string{"messages[0].tool_calls[0]", "messages[0].tool_calls[1]", "messages[1].tool_call_id", "messages"},
		[]string{notes[0].Path(), notes[1].Path(), notes[2].Path(), notes[3].Path()})
	assert.Equal(t, "1 more notes were not listed: a record lists at most 3; act on the ones listed and normalize again", notes[3].Message())

	notes = explainNotes(t, doc, normalize.WithMaxWarnings(math.MaxInt))
	require.Len(t, notes, 4, "no limit: every note")
	assert.Equal(t, "messages[2].tool_call_id", notes[3].Path())
}

// The JSON text of a model API's response sent as final_response is noted with where its
// answer's text is, or, for a response that asks for tool calls, that it holds none.
func TestExplainFinalResponseObjectJSON(t *testing.T) {
	const stopped = `send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tests := []struct {
		name, text string
		fix        string // the note's fix, "" for no note
		problem    string // a part of its problem
	}{
		{name: "chat completion, compact", text: `{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"Hi."}}]}`,
			fix: "send the answer's text itself, completion.choices[0].message.content", problem: `an OpenAI chat completion`},
		{name: "chat completion, json.dumps", text: `{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "Hi."}}]}`,
			fix: `send the answer's text itself, completion.choices[0].message.content (completion["choices"][0]["message"]["content"] on a dict)`},
		{name: "chat completion, indented", text: "{\n  \"object\": \"chat.completion\",\n  \"choices\": [{\"message\": {\"content\": \"Hi.\"}}]\n}",
			fix: `send the answer's text itself, completion.choices[0].message.content (completion["choices"][0]["message"]["content"] on a dict)`},
		{name: "chat completion at a tool call", text: `{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"c1"}]}}]}`,
			fix: `send {"final_response": <the agent's answer after the tool round>}, or a sentence saying what the agent did`, problem: "the agent stopped at a tool call"},
		{name: "chat completion without text", text: `{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":null}}]}`},
		{name: "responses, with output_text", text: `{"object":"response","output":[{"type":"message","content":[{"type":"output_text","text":"Hi."}]}],"output_text":"Hi."}`,
			fix: "send the answer's text itself, response.output_text"},
		{name: "responses, after reasoning", text: `{"object":"response","output":[{"type":"reasoning","summary":[]},{"type":"message","content":[{"type":"output_text","text":"Hi."},{"type":"output_text","text":" Bye."}]}]}`,
			fix: "send the answer's text itself, response.output[1].content[0].text, joined with the text of its other output_text parts; the SDKs' Response object holds their text joined as its output_text property"},
		{name: "responses at a function call", text: `{"object":"response","output":[{"type":"message","content":[{"type":"output_text","text":"Let me look."}]},{"type":"function_call","name":"f"}]}`,
			problem: "whose output ends in a tool call: it holds no answer, and the agent stopped at a tool call", fix: stopped},
		{name: "anthropic, after thinking", text: `{"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Hi."}]}`,
			fix: "send the answer's text itself, message.content[1].text"},
		{name: "anthropic at a tool call", text: `{"type":"message","role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"f","input":{}}]}`,
			problem: "with tool_use blocks", fix: stopped},
		{name: "gemini, after a thought", text: `{"candidates":[{"content":{"role":"model","parts":[{"text":"hm","thought":true},{"text":"Hi."}]}}]}`,
			fix: "send the answer's text itself, response.text, the text of its first candidate's parts (here response.candidates[0].content.parts[1].text)"},
		{name: "gemini at a function call", text: `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]}}]}`,
			problem: "whose parts call functions", fix: stopped},
		{name: "crewai CrewOutput, model_dump_json", text: `{"raw":"Hi.","pydantic":null,"json_dict":null,"tasks_output":[{"description":"Say hi","raw":"Hi.","agent":"Greeter"}],"token_usage":{"total_tokens":12}}`,
			fix: "send the answer's text itself, crew_output.raw", problem: "a CrewAI CrewOutput"},
		{name: "crewai CrewOutput, json.dumps", text: `{"raw": "Hi.", "pydantic": null, "json_dict": null, "tasks_output": [], "token_usage": {"total_tokens": 12}}`,
			fix: `send the answer's text itself, crew_output.raw (crew_output["raw"] on a dict)`},
		{name: "crewai CrewOutput without raw text", text: `{"raw":"","pydantic":null,"json_dict":{"city":"Paris"},"tasks_output":[],"token_usage":{"total_tokens":12}}`},
		{name: "crewai CrewOutput with blank raw", text: `{"raw":"  ","pydantic":null,"json_dict":null,"tasks_output":[],"token_usage":{}}`},
		{name: "crewai LiteAgentOutput", text: `{"raw":"Hi.","pydantic":null,"agent_role":"Greeter","usage_metrics":null,"messages":[]}`,
			fix: "send the answer's text itself, result.raw", problem: "a CrewAI LiteAgentOutput"},
		{name: "crewai LiteAgentOutput without raw text", text: `{"raw":"","pydantic":{"city":"Paris"},"agent_role":"Greeter","usage_metrics":null,"messages":[]}`},
		{name: "raw beside other keys", text: `{"raw":"Hi.","status":"ok"}`},
		{name: "another object", text: `{"status":"ok","items":[]}`},
		{name: "an array", text: `[{"object":"chat.completion"}]`},
		{name: "not JSON", text: `{"object":"chat.completion", "choices": [`},
		{name: "prose after it", text: `{"object":"chat.completion","choices":[{"message":{"content":"Hi."}}]} and more`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var found []softwarn.Warning
			for _, n := range explainNotes(t, `{"final_response":`+quote(tt.text)+`}`) {
				if n.Code == softwarn.FinalResponseObjectJSON {
					found = append(found, n)
				}
			}
			if tt.fix == "" {
				require.Empty(t, found)
				return
			}
			require.Len(t, found, 1)
			assert.Equal(t, "final_response", found[0].Path())
			assert.Equal(t, tt.fix, found[0].Fix)
			assert.Contains(t, found[0].Problem, tt.problem)
		})
	}
}

// A final_response that is the text of the last assistant message, one that calls tools with
// only tool results after it, is that turn's preamble: the agent stopped at a tool call.
func TestExplainFinalResponsePreamble(t *testing.T) {
	const user = `{"role":"user","content":"Where is order 4521?"}`
	const tool = `{"role":"tool","tool_call_id":"c1","content":"shipped"}`
	tests := []struct {
		name, doc string
		at        string // the message the note names, "" for no note
	}{
		{"tool_calls", `{"final_response":"Let me look.","messages":[` + user + `,{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"c1","name":"f"}]},` + tool + `]}`, "messages[1]"},
		{"AI SDK parts", `{"final_response":"Let me look.","messages":[{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool-call","toolCallId":"c1","toolName":"f","input":{}}]},` + tool + `]}`, "messages[0]"},
		{"Anthropic blocks, no tool result yet", `{"final_response":"Let me look.","messages":[` + user + `,{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"f","input":{}}]}]}`, "messages[1]"},
		{"answered after the tool round", `{"final_response":"It shipped.","messages":[` + user + `,{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"c1","name":"f"}]},` + tool + `,{"role":"assistant","content":"It shipped."}]}`, ""},
		{"the preamble, but an answer follows", `{"final_response":"Let me look.","messages":[{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"c1","name":"f"}]},` + tool + `,{"role":"assistant","content":"It shipped."}]}`, ""},
		{"another text", `{"final_response":"It shipped.","messages":[{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"c1","name":"f"}]},` + tool + `]}`, ""},
		{"no tool calls", `{"final_response":"Hello.","messages":[` + user + `,{"role":"assistant","content":"Hello."}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var found []softwarn.Warning
			for _, n := range explainNotes(t, tt.doc) {
				if n.Code == softwarn.FinalResponsePreamble {
					found = append(found, n)
				}
			}
			if tt.at == "" {
				require.Empty(t, found)
				return
			}
			require.Len(t, found, 1)
			assert.Contains(t, found[0].Problem, "is the text of "+tt.at+", an assistant message that calls tools")
			assert.Contains(t, found[0].Problem, "the agent stopped at a tool call")
		})
	}
}
