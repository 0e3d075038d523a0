//go:build !linux

package benchcpu

func threadCPU() (int64, bool) { return 0, false }
