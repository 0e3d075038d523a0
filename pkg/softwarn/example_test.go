package softwarn_test

import (
	"fmt"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// A warning is built at a location, which gives both its dotted path and its JSON Pointer; its
// String is the line the record's soft_warnings holds.
func ExampleLoc_Warn() {
	w := softwarn.At("messages").Index(3).Key("tool_calls").Index(0).
		Warn(softwarn.ToolCallInvalid, softwarn.Dropped, "name is missing; the message was dropped")
	fmt.Println(w.Pointer, w.Code, w.Action)
	fmt.Println(w)
	// Output:
	// /messages/3/tool_calls/0 tool_call_invalid dropped
	// messages[3].tool_calls[0]: name is missing; the message was dropped
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
		c.Add(softwarn.At("messages").Index(i).Warn(softwarn.MessageNotObject, softwarn.Dropped, "found a number"))
	}
	c.Close()
	for _, w := range c.Warnings() {
		fmt.Println(w.Code, w.Path)
	}
	fmt.Println(c.Skipped(), "not listed")
	// Output:
	// message_not_object messages[0]
	// message_not_object messages[1]
	// warnings_limited messages
	// 3 not listed
}
