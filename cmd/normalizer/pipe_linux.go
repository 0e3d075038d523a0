package main

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// pipeBytes is the size the batch path gives a pipe on standard input or output: a pipe holds
// 64 KiB by default, so a reader that keeps up with its writer wakes for every 64 KiB (a read,
// a thread woken, a goroutine handed the bytes), and a writer for every 64 KiB drained; 1 MiB
// is the most an unprivileged process may set by default (/proc/sys/fs/pipe-max-size).
const pipeBytes = 1 << 20

// growPipe gives f, when it is a pipe, room for pipeBytes, or for pipe-max-size when that is
// less, so that fewer and larger reads drain it. It does nothing when f is anything else or
// the kernel refuses (a user past its share of pipe memory, pipe-user-pages-soft). The
// descriptor's blocking mode is left as it is: Fd would make a non-blocking one blocking for
// every process that shares it.
func growPipe(f any) {
	file, ok := f.(*os.File)
	if !ok {
		return
	}
	if st, err := file.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	rc, err := file.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		n, err := unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0)
		if err != nil || n >= pipeBytes {
			return
		}
		if _, err := unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeBytes); err == nil {
			return
		}
		if limit := pipeMaxSize(); limit > n && limit < pipeBytes { // lowered by the system
			_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, limit)
		}
	})
}

// pipeMaxSize is the most an unprivileged process may give a pipe, or 0 when unknown.
func pipeMaxSize() int {
	b, err := os.ReadFile("/proc/sys/fs/pipe-max-size")
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return n
}
