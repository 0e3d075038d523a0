package normalize_test

import (
	"errors"
	"fmt"

	"github.com/dystopic/normalizer/pkg/normalize"
)

func Example() {
	raw := []byte(`{
	  "final_response": "The refund has been issued.",
	  "messages": [
	    {"role": "developer", "content": "Be brief."},
	    {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
	      "function": {"name": "get_order", "arguments": "{\"order_id\":\"4521\"}"}}]}
	  ],
	  "metadata": {"model": "claude-sonnet-4-5", "total_input_tokens": "1842"}
	}`)
	res, err := normalize.Normalize(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res.AppendJSON(nil)))
	// Output:
	// {"final_response":"The refund has been issued.","messages":[{"role":"assistant","tool_calls":[{"id":"c1","name":"get_order","arguments":"{\"order_id\":\"4521\"}"}]}],"metadata":{"model":"claude-sonnet-4-5"},"soft_warnings":["messages[0].role: found \"developer\", expected one of \"system\", \"user\", \"assistant\", \"tool\"; the message was dropped; OpenAI's \"developer\" role is the platform's \"system\": use \"system\"","metadata.total_input_tokens: found \"1842\" (a string), expected a whole, non-negative number of tokens; the key was dropped; send it as a number: 1842"],"rich_mode":true}
}

// A Normalizer is built once and shared; Release hands each Result back for reuse, once the
// caller is done with it: a result that needs no warning then allocates nothing.
func ExampleNormalizer_Normalize() {
	n := normalize.New(normalize.WithMaxBytes(1 << 20))
	var out []byte
	for _, raw := range []string{`"Done."`, `{"final_response":"Shipped.","metadata":{"agent_runtime_ms":12.5}}`} {
		res, err := n.Normalize([]byte(raw))
		if err != nil {
			fmt.Println(err)
			continue
		}
		out = append(res.AppendJSON(out[:0]), '\n')
		fmt.Print(string(out))
		res.Release()
	}
	// Output:
	// {"final_response":"Done.","messages":null,"metadata":null,"soft_warnings":[],"rich_mode":false}
	// {"final_response":"Shipped.","messages":null,"metadata":{"agent_runtime_ms":12.5},"soft_warnings":[],"rich_mode":false}
}

// Rejections are typed: branch on the class or with errors.As, never on the message text.
func ExampleAppendError() {
	for _, raw := range []string{`{"final_response":""}`, `{"final_response": "a",}`, `{"output":"x"}`} {
		_, err := normalize.Normalize([]byte(raw))
		var syn *normalize.InvalidJSONError
		if errors.As(err, &syn) {
			fmt.Printf("InvalidJSON at line %d, column %d\n", syn.Line, syn.Column)
		}
		class, _ := normalize.ClassOf(err)
		fmt.Println(class, errors.Is(err, normalize.ErrResponseShape))
	}
	_, err := normalize.Normalize([]byte(`[1]`))
	fmt.Println(string(normalize.AppendError(nil, err)))
	// Output:
	// ResponseShapeError true
	// InvalidJSON at line 1, column 23
	// InvalidJSON false
	// ResponseShapeError true
	// {"error":{"class":"ResponseShapeError","message":"the result is an array; expected a non-empty string or an object with \"final_response\""}}
}

// The kept messages and metadata, decoded: built from the record when asked for, so a caller
// that only forwards the record (AppendJSON) pays nothing for them.
func ExampleResult_Messages() {
	raw := []byte(`{"final_response": "Issued.",
	  "messages": [
	    {"role": "user", "content": "Refund order 4521"},
	    {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
	      "function": {"name": "refund", "arguments": "{\"order\":4521}"}}]},
	    {"role": "tool", "tool_call_id": "c1", "content": "issued"}
	  ],
	  "metadata": {"model": "claude-sonnet-4-5", "total_input_tokens": 1842, "team": "billing"}}`)
	res, err := normalize.Normalize(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range res.Messages() {
		text, _ := m.Text()
		fmt.Printf("%s %q", m.Role, text)
		for _, c := range m.ToolCalls {
			fmt.Printf(" call %s %s(%s)", c.ID, c.Name, c.Arguments)
		}
		if m.ToolCallID != "" {
			fmt.Printf(" answers %s", m.ToolCallID)
		}
		fmt.Println()
	}
	md := res.Metadata()
	tokens, _ := md.TotalInputTokens.Int64()
	fmt.Println(md.Model, tokens, string(md.Extra["team"]))
	// Output:
	// user "Refund order 4521"
	// assistant "" call c1 refund("{\"order\":4521}")
	// tool "issued" answers c1
	// claude-sonnet-4-5 1842 "billing"
}
