//go:build !unix

package batch

import (
	"errors"
	"os"
)

// Mapped is the rest of a regular file mapped into memory, for RunBytes; on this system
// mapping is not supported, and callers use Run.
type Mapped struct{}

// MapFile reports errors.ErrUnsupported on this system.
func MapFile(f *os.File) (*Mapped, error) { return nil, errors.ErrUnsupported }

// Bytes is nil.
func (mp *Mapped) Bytes() []byte { return nil }

// Drop does nothing.
func (mp *Mapped) Drop(n int64) {}

// Close does nothing.
func (mp *Mapped) Close() error { return nil }
