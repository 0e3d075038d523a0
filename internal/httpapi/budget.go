package httpapi

import (
	"math"
	"strconv"
	"sync/atomic"

	"github.com/dystopic/normalizer/pkg/normalize"
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
	refusals   atomic.Int64 // requests answered 429 for want of room, for the metrics
	retryAfter string       // what a refusal tells the client to wait, in whole seconds
}

// perRequest is what a request holds whatever its body: buffers, the decoder of a gzip body
// (its 32 KiB window and tables), the core's result and the connection's share.
const perRequest = 64 << 10

// ReservationFor is what a request whose body of n bytes came with its Content-Length
// reserves of the memory budget once read, at the least (a pooled buffer may add its slack):
// the core's worst case for n bytes, with explain or without, and perRequest. Deployments size
// the budget with it.
func ReservationFor(n int64, explain bool) int64 {
	return ceilMul(ratioFor(explain), n) + perRequest
}

func ratioFor(explain bool) float64 {
	opts := []normalize.Option{}
	if explain {
		opts = append(opts, normalize.WithExplain())
	}
	return normalize.New(opts...).PeakHeapRatio()
}

func ceilMul(ratio float64, n int64) int64 { return int64(math.Ceil(ratio * float64(n))) }

// largestReservation is what a request at the body limit with explain, the costliest there
// is, reserves once read.
func (s *Server) largestReservation() int64 { return ReservationFor(s.cfg.BodyLimit, true) }

// reservation is one request's share of the budget. Without a budget (nil) every reservation
// succeeds and nothing is counted.
type reservation struct {
	budget  *memoryBudget
	ratio   float64 // the core's PeakHeapRatio for this request
	explain bool
	held    int64
}

// forRead reserves, before a buffer for the body is allocated, what the request may hold once
// it is: live is the capacity of the body's buffers then, and known the body's length when the
// client gave it, else -1. A body of unknown length may be as large as its buffers (chunks
// and the last one, copied into one at the end: live plus the copy, within the core's ratio
// times live); one of known length is no larger than known, and the rest of its buffer is
// slack. Buffers outgrown on the way are garbage, not counted: the collector takes them
// before the heap passes the soft memory limit, which the budget stays under.
func (r *reservation) forRead(known, live int64) error {
	if r.budget == nil {
		return nil
	}
	body := live
	if known >= 0 {
		body = min(known, live)
	}
	return r.reserve(ceilMul(r.ratio, body)+live-body+perRequest, body, known < 0)
}

// forBody sets the reservation to what the request holds once its body of n bytes is read,
// into a buffer of the given capacity: the core's worst case for n and the buffer's slack.
// What reading reserved beyond that is given back.
func (r *reservation) forBody(n, capacity int64) error {
	if r.budget == nil {
		return nil
	}
	need := ceilMul(r.ratio, n) + capacity - n + perRequest
	if need < r.held {
		r.budget.used.Add(need - r.held)
		r.held = need
		return nil
	}
	return r.reserve(need, n, false)
}

// shrinkTo gives back what the reservation holds beyond n bytes and perRequest: once the
// record is in its buffer, only the buffers are live.
func (r *reservation) shrinkTo(n int64) {
	if r.budget == nil {
		return
	}
	if n += perRequest; n < r.held {
		r.budget.used.Add(n - r.held)
		r.held = n
	}
}

// forWarnings reserves what a record's warnings add beyond the ratio of its body: excess
// bytes for warnings of a body of n bytes.
func (r *reservation) forWarnings(excess, n int64, warnings int) error {
	ok, others := r.growTo(r.held + excess)
	if ok {
		return nil
	}
	r.budget.refusals.Add(1)
	return &apiError{class: ClassTooManyRequests, msg: r.budget.heldBy(others) + ", and this one, its body of " + sizeText(n) +
		" normalized, needs " + sizeText(excess) + " more for the " + strconv.Itoa(warnings) +
		" warnings of its record; retry after " + r.budget.retryAfter + "s; a client needs less by fixing what the warnings report " +
		"(send the result once without that many problems to read them); the operator sizes the budget with normalizer serve --memory-budget or NORMALIZER_MEMORY_BUDGET"}
}

// add reserves n bytes more, for a buffer's slack beyond what the core counts, and says
// whether the budget had room.
func (r *reservation) add(n int64) bool {
	ok, _ := r.growTo(r.held + n)
	return ok
}

func (r *reservation) reserve(need, body int64, soFar bool) error {
	if ok, others := r.growTo(need); !ok {
		return r.overBudget(need, others, body, soFar)
	}
	return nil
}

// growTo makes the reservation n bytes if it holds less, and says whether the budget had room
// and, when it had not, what the others held at that moment.
func (r *reservation) growTo(n int64) (ok bool, others int64) {
	if r.budget == nil || n <= r.held {
		return true, 0
	}
	more := n - r.held
	for {
		used := r.budget.used.Load()
		if used+more > r.budget.limit && used > r.held { // others hold some: no room
			return false, used - r.held
		}
		if r.budget.used.CompareAndSwap(used, used+more) {
			r.held = n
			return true, 0
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

// overBudget is the 429 of a request the budget had no room for: what it needed and why, what
// the others held when it was refused, and what the client and the operator can change.
func (r *reservation) overBudget(need, others, body int64, soFar bool) error {
	r.budget.refusals.Add(1)
	of := "its body of " + sizeText(body)
	if soFar {
		of = "its body, " + sizeText(body) + " so far (its size was not given)"
	}
	msg := r.budget.heldBy(others) + ", and this one needs " + sizeText(need) + ": " + strconv.FormatFloat(r.ratio, 'f', -1, 64) + " times " + of +
		" (the record and the working memory, at worst), its buffers' slack and 64 KiB"
	if need > r.budget.limit {
		msg += ", more than the whole budget, so it is served only when no other request holds any of it"
	}
	msg += "; retry after " + r.budget.retryAfter + "s; a client needs less by sending a smaller result (trim its messages)"
	if r.explain {
		msg += " or leaving out explain=true (" + strconv.FormatFloat(ratioFor(false), 'f', -1, 64) + " times its body without it)"
	}
	return &apiError{class: ClassTooManyRequests, msg: msg +
		"; the operator sizes the budget with normalizer serve --memory-budget or NORMALIZER_MEMORY_BUDGET"}
}

// heldBy begins a refusal's message: what the other requests held of the budget.
func (b *memoryBudget) heldBy(others int64) string {
	return "the requests in flight hold " + sizeText(others) + " of the server's memory budget of " + sizeText(b.limit)
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
