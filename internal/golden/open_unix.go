//go:build unix

package golden

import "syscall"

// openNonBlock makes the open of a named pipe return at once rather than wait for a writer;
// a regular file is read as usual.
const openNonBlock = syscall.O_NONBLOCK
