package main

import (
	"bufio"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listeningOn reports whether process pid holds a TCP socket listening on port, from its file
// descriptors and the kernel's socket tables (Linux's /proc). It looks at the listener itself:
// a probe of the port could, once the listener is closed, reach whatever else is then given
// the port on a shared machine. A process that has exited holds none.
func listeningOn(t *testing.T, pid, port int) bool {
	t.Helper()
	listeners := map[string]bool{} // "socket:[inode]" of every socket listening on port
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if errors.Is(err, fs.ErrNotExist) {
			continue // no IPv6
		}
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Scan() // the heading
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" { // 0A: TCP_LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); err == nil && int(p) == port {
				listeners["socket:["+fields[9]+"]"] = true
			}
		}
		require.NoError(t, sc.Err())
		f.Close()
	}
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	require.NoError(t, err)
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && listeners[target] {
			return true
		}
	}
	return false
}

// TestListeningOn: the check sees this process's listener, and no longer once it is closed.
func TestListeningOn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	assert.True(t, listeningOn(t, os.Getpid(), port))
	require.NoError(t, ln.Close())
	assert.False(t, listeningOn(t, os.Getpid(), port))
}
