package httpapi

import (
	"math"
	"strconv"
	"sync/atomic"
)

// memoryBudget is the heap that the normalize requests in flight may hold together, in bytes.
// Each request reserves its worst case before the memory is taken: the core's PeakHeapRatio
// times its body (input, record and scratch), plus perRequest. A request that would take the
// total past the limit is answered 429 with Retry-After, before its body is read when its
// Content-Length says how big it is, else as soon as the bytes read say so.
//
// The count cap (MaxInFlight) cannot do this alone: sized for bodies at the limit, it turns
// away bursts of small results that would fit many times over; sized for small ones, a few
// requests at the limit run the process out of memory. The budget admits thousands of small
// results and only as many large ones as fit. A request is always admitted when no other holds
// any of the budget, so that one that needs more than all of it still runs, alone.
type memoryBudget struct {
	limit      int64
	used       atomic.Int64
	retryAfter string // what a refusal tells the client to wait, in whole seconds
}

// perRequest is what a request holds whatever its body: buffers, the decoder of a gzip body
// (its 32 KiB window and tables), the core's result and the connection's share.
const perRequest = 64 << 10

// largestReservation is what a request at the body limit with explain, the costliest there
// is, reserves once read.
func (s *Server) largestReservation() int64 {
	r := reservation{ratio: s.explain.PeakHeapRatio()}
	return r.need(s.cfg.BodyLimit, 0)
}

// reservation is one request's share of the budget. Its zero budget is no budget: every
// reservation succeeds.
type reservation struct {
	budget *memoryBudget
	ratio  float64 // the core's PeakHeapRatio for this request (explain costs more)
	held   int64
}

// forBody reserves what normalizing a body of n bytes costs at most, with dead bytes already
// allocated for it (the chunks of a body of unknown length, until the collector takes them),
// or returns the 429 that says why it could not.
func (r *reservation) forBody(n, dead int64) error {
	need := r.need(n, dead)
	if r.growTo(need) {
		return nil
	}
	return r.overBudget(need)
}

// need is what normalizing a body of n bytes costs at most, with dead bytes besides.
func (r *reservation) need(n, dead int64) int64 {
	return int64(math.Ceil(r.ratio*float64(n))) + dead + perRequest
}

// forRead reserves what reading a body of unknown length holds so far: the allocated bytes,
// twice (a body read in chunks is copied into one buffer at the end).
func (r *reservation) forRead(allocated int64) error {
	need := 2*allocated + perRequest
	if r.growTo(need) {
		return nil
	}
	return r.overBudget(need)
}

// growTo makes the reservation n bytes if it holds less, and says whether the budget had room.
func (r *reservation) growTo(n int64) bool {
	if r.budget == nil || n <= r.held {
		return true
	}
	more := n - r.held
	for {
		used := r.budget.used.Load()
		if used+more > r.budget.limit && used > r.held { // others hold some: no room
			return false
		}
		if r.budget.used.CompareAndSwap(used, used+more) {
			r.held = n
			return true
		}
	}
}

// release gives the reservation back.
func (r *reservation) release() {
	if r.budget != nil && r.held > 0 {
		r.budget.used.Add(-r.held)
		r.held = 0
	}
}

// overBudget is the 429 of a request the budget had no room for: what it needed, what the
// others held at that moment, and who can change what.
func (r *reservation) overBudget(need int64) error {
	others := r.budget.used.Load() - r.held
	return &apiError{class: ClassTooManyRequests, msg: "the requests in flight hold " + sizeText(others) +
		" of the server's memory budget of " + sizeText(r.budget.limit) + ", and this one needs " + sizeText(need) +
		" (up to " + strconv.FormatFloat(r.ratio, 'f', -1, 64) + " times its body, for the record and its working memory); retry after " +
		r.budget.retryAfter + "s; the operator sizes the budget with normalizer serve --memory-budget or NORMALIZER_MEMORY_BUDGET"}
}

// sizeText is a byte count for people: whole bytes below 1 KiB, else KiB, MiB or GiB with one
// decimal.
func sizeText(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
