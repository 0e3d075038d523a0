package benchcpu

import "syscall"

// rusageThread is RUSAGE_THREAD: the calling thread only (Linux 2.6.26 on).
const rusageThread = 1

// threadCPU returns the calling thread's user and system CPU time in nanoseconds.
func threadCPU() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
