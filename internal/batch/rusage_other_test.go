//go:build !unix

package batch

import "testing"

// measureCPU reports nothing where getrusage is missing.
func measureCPU(b *testing.B) func() { return func() {} }
