package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// pipeBytes is the size standard input's pipe is given for the batch path: a pipe holds 64
// KiB by default, so a reader that keeps up with its writer wakes for every 64 KiB (a read,
// a thread woken, a goroutine handed the bytes); 1 MiB is the most an unprivileged process
// may set by default (/proc/sys/fs/pipe-max-size).
const pipeBytes = 1 << 20

// growPipe gives r, when it is a pipe, room for pipeBytes, so that fewer and larger reads
// drain it. It does nothing when r is anything else or the kernel refuses.
func growPipe(r io.Reader) {
	f, ok := r.(*os.File)
	if !ok {
		return
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	if n, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0); err == nil && n < pipeBytes {
		_, _ = unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, pipeBytes)
	}
}
