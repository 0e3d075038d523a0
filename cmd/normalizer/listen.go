package main

import (
	"context"
	"net"
)

// listenerKey is the context key of a listener handed to serve.
type listenerKey struct{}

// withListener returns a ctx under which serve serves on ln instead of listening on --addr.
// It is for tests: one opens 127.0.0.1:0 itself and so knows the address before serve logs
// anything (at --log-level warn it logs nothing), without closing a port and hoping that no
// other process takes it before serve listens on it again.
func withListener(ctx context.Context, ln net.Listener) context.Context {
	return context.WithValue(ctx, listenerKey{}, ln)
}

// listen returns the listener handed over in ctx by withListener, else one on addr.
func listen(ctx context.Context, addr string) (net.Listener, error) {
	if ln, ok := ctx.Value(listenerKey{}).(net.Listener); ok {
		return ln, nil
	}
	return net.Listen("tcp", addr)
}
