//go:build !(amd64 || arm64)

package normalize_test

import "testing"

// benchReaders runs nothing where sonic does not build.
func benchReaders(b *testing.B, name string, doc []byte) {}
