package porting_test

import (
	"fmt"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/porting"
)

// New adds this package's advice to a Normalizer: with WithExplain, the record's diagnostics
// are each warning with its JSON Pointer, stable code and action, then the notes for a person
// porting an agent, each list in input order.
func ExampleNew() {
	raw := []byte(`{"final_response":"ok","messages":[
	  {"role":"assistant","tool_calls":[{"id":"c1","name":"get_order","arguments":{}}]},
	  {"role":"tool","tool_call_id":"c9","content":"shipped"},
	  {"role":"user","content":{"type":"text","text":"hi"}}]}`)
	res, _ := porting.New(normalize.WithExplain()).Normalize(raw)
	for _, w := range res.Warnings() {
		fmt.Println("warning", w.Pointer(), w.Code, w.Action)
	}
	for _, n := range res.Notes() {
		fmt.Println("note", n.Pointer(), n.Code)
	}
	// Output:
	// warning /messages/2/content message_content_invalid dropped
	// note /messages/0/tool_calls/0 tool_call_unanswered
	// note /messages/1/tool_call_id tool_result_unmatched
}

// A rejection gets a hint that names what was sent and the fix; the contract alone says what
// is wrong.
func ExampleNormalize_hint() {
	raw := []byte(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"message":{"role":"assistant","content":"Done."}}]}`)
	_, err := porting.Normalize(raw)
	fmt.Println(err)
	_, err = normalize.Normalize(raw)
	fmt.Println(err)
	// Output:
	// the result object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}. It has "choices": it looks like an OpenAI chat completion, the model's response rather than the handler's result; send {"final_response": choices[0].message.content}
	// the result object has no "final_response" key; expected {"final_response": "<the agent's answer>", ...}
}
