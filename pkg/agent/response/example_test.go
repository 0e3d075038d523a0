package response_test

import (
	"fmt"

	"github.com/dystopic/normalizer/pkg/agent/response"
)

func ExampleBuild() {
	out, _ := response.Build("The refund has been issued.")
	fmt.Println(string(out))

	out, _ = response.Build(map[string]any{
		"final_response": "The refund has been issued.",
		"metadata":       map[string]any{"model": "claude-sonnet-4-5"},
	})
	fmt.Println(string(out))

	_, err := response.Build("")
	fmt.Println(err)
	// Output:
	// {"final_response":"The refund has been issued."}
	// {"final_response":"The refund has been issued.","metadata":{"model":"claude-sonnet-4-5"}}
	// Handler returned an empty string for final_response. The platform rejects empty responses (the LLM judge has nothing to grade against). Return at least a one-sentence summary of what the agent did or why it failed.
}

// RunResult stands for an agent SDK's result type.
type RunResult struct {
	FinalOutput string
	Turns       int
}

func ExampleBuild_probe() {
	out, err := response.Build(RunResult{FinalOutput: "Order 4521 ships tomorrow.", Turns: 3})
	fmt.Println(string(out), err)
	// Output:
	// {"final_response":"Order 4521 ships tomorrow."} <nil>
}

func ExampleCheck() {
	res, err := response.Check(map[string]any{
		"final_response": "Done.",
		"messages": []map[string]any{
			{"role": "user", "content": "Refund order #4521"},
			{"role": "assistant", "content": map[string]any{"type": "text", "text": "Done."}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.RichMode())
	// The texts (res.SoftWarnings()) may be reworded; paths and codes are stable.
	for _, w := range res.Warnings() {
		fmt.Println(w.Path(), w.Code)
	}
	// Output:
	// true
	// messages[1].content message_content_invalid
}
