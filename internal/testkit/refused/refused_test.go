package refused_test

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/dystopic/normalizer/internal/testkit/refused"
)

func TestAddrRefusesAndStaysTaken(t *testing.T) {
	addr := refused.Addr(t)
	for range 3 {
		conn, err := net.DialTimeout("tcp", addr, 30*time.Second)
		if err == nil {
			conn.Close()
			t.Fatalf("dial %s: connected, want connection refused", addr)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("dial %s: %v, want connection refused", addr, err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		ln.Close()
		t.Fatalf("listen %s: succeeded, want the port taken", addr)
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("listen %s: %v, want address in use", addr, err)
	}
}
