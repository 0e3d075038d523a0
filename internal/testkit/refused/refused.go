// Package refused gives tests an address on the loopback where a connection is refused, and
// stays refused for the whole test.
//
// Listening on 127.0.0.1:0 and closing the listener leaves a port that nothing listens on
// only until another process, or another test, is given it: on a machine shared with other
// work that happens. Addr instead keeps the port bound, without listening, until the test
// ends: no one else can bind it, and the kernel answers each connection with a reset.
package refused

import (
	"net"
	"strconv"
	"syscall"
	"testing"
)

// Addr returns "127.0.0.1:PORT" where connecting fails with "connection refused" until t
// ends. It fails t if the socket cannot be made.
func Addr(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("refused: socket: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	// No SO_REUSEADDR, and no listen: the port is taken, and nothing accepts on it.
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("refused: bind 127.0.0.1:0: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("refused: getsockname: %v", err)
	}
	in4, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		t.Fatalf("refused: getsockname gave %T, not an IPv4 address", sa)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(in4.Port))
}
