// Package agent is the agent side of the wire contract, in Go, for agents ported to Go: the
// packages below it build the response a handler returns (response), call the per-run proxy
// (proxy, and proxy/proxytest, a fake proxy for tests), read the run context (runenv), and
// name the platform API's errors (apierror). Nothing on the ingest side (normalize, messages,
// softwarn) imports them, and they import only normalize, to check a response locally.
package agent
