package softwarn_test

import (
	"fmt"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// A warning is built at a location, which gives both its dotted path and its JSON Pointer, from
// its parts; its String is the line the record's soft_warnings holds, composed from them.
func ExampleLoc_Warning() {
	w := softwarn.At("messages").Index(3).Key("tool_calls").Index(0).
		Warning(softwarn.ToolCallInvalid, softwarn.Dropped, softwarn.Parts{
			Subject:  "name",
			Found:    "missing",
			Expected: "the tool's name as a string",
			Done:     "the message was dropped",
			Fix:      `add "name"`,
		})
	fmt.Println(w.Pointer(), w.Code, w.Action)
	fmt.Println(w.Found, "|", w.Fix)
	fmt.Println(w)
	// Output:
	// /messages/3/tool_calls/0 tool_call_invalid dropped
	// missing | add "name"
	// messages[3].tool_calls[0]: name is missing, expected the tool's name as a string; the message was dropped; add "name"
}

// A Collector keeps warnings in order up to its limit; past it they are counted (callers check
// Full and Skip without building them), and Close adds one warning that says how many.
func ExampleCollector() {
	var c softwarn.Collector
	c.SetLimit(2)
	for i := range 5 {
		if c.Full() {
			c.Skip("messages")
			continue
		}
		c.Add(softwarn.At("messages").Index(i).Warning(softwarn.MessageNotObject, softwarn.Dropped, softwarn.Parts{Found: "a number"}))
	}
	c.Close()
	for _, w := range c.Warnings() {
		fmt.Println(w.Code, w.Path())
	}
	fmt.Println(c.Skipped(), "not listed")
	// Output:
	// message_not_object messages[0]
	// message_not_object messages[1]
	// warnings_limited messages
	// 3 not listed
}
