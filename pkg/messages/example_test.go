package messages_test

import (
	"errors"
	"fmt"

	"github.com/dystopic/normalizer/pkg/messages"
)

// Check applies the message rules to one message, as the platform would to messages[0]: a
// dropped message has the one warning that drops it, a kept one the warnings about what was
// kept (a duplicate key), and malformed JSON is a *messages.SyntaxError that says where.
func ExampleCheck() {
	for _, raw := range []string{
		`{"role": "user", "content": "Where is my order?"}`,
		`{"role": "developer", "content": "Be brief."}`,
		`{"role": "user", "content": "a", "content": "b"}`,
		"{\"role\": \"user\",\n \"content\": 'hi'}",
	} {
		kept, warnings, err := messages.Check([]byte(raw))
		var syn *messages.SyntaxError
		if errors.As(err, &syn) {
			fmt.Printf("invalid JSON at line %d, column %d\n", syn.Line, syn.Column)
			continue
		}
		fmt.Println("kept:", kept)
		for _, w := range warnings {
			fmt.Println(" ", w.Code, w.Path())
		}
	}
	// Output:
	// kept: true
	// kept: false
	//   message_role_invalid messages[0].role
	// kept: true
	//   duplicate_key messages[0].content
	// invalid JSON at line 2, column 13
}
