package httpapi

import (
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// TimeFormat is the time format of serve's log lines: RFC 3339 with exactly three fractional
// digits, milliseconds. A request's line is written when it ends; whole seconds could not
// order the lines of a busy second, nor line one up with a client's or a proxy's log.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// TimestampHook is zerolog's Timestamp for a logger that writes a line per request: a "time"
// field in TimeFormat, read from a clock that is read once a second. zerolog's own reads the
// wall clock and formats it for every line, about 100 ns on this machine's virtual clock, a
// visible share of a 2 KB request. This one formats the second once and, in between, reads
// only the monotonic clock (time.Since: about half of time.Now's cost here) to see when the
// second is over; that same reading gives the milliseconds past the second's start, appended
// to the second's text. The wall clock is read again at each second's end, so a step of the
// system clock shows within a second.
//
// It writes TimeFormat whatever zerolog.TimeFieldFormat says, and the key "time" whatever
// zerolog.TimestampFieldName says: it reads none of zerolog's globals, which a process that
// builds several loggers (tests of serve do) could be writing while another logs. It writes
// the time as a JSON string, as the JSON encoder does (not as the CBOR encoder's time tag,
// under the binary_log build tag).
type TimestampHook struct {
	clock hookClock
	start time.Time // the clock's reading when the hook was made: the base of the cheap clock
	stamp atomic.Pointer[timestamp]
}

// hookClock is what the hook reads: now the wall clock, once a second, and since the
// monotonic clock's time since an earlier reading of now, for every line. Tests give their
// own.
type hookClock struct {
	now   func() time.Time
	since func(time.Time) time.Duration
}

// realClock is the system's: time.Now and time.Since.
var realClock = hookClock{now: time.Now, since: time.Since}

// timestamp is the current second: its text, and when (by the monotonic clock, since the
// hook's start) it began and ends.
type timestamp struct {
	millis []byte // TimeFormat with its quotes, "000" for the milliseconds: a template
	from   time.Duration
	until  time.Duration
}

// timeKey is the field the hook writes: zerolog's default TimestampFieldName.
const timeKey = "time"

// millisAt is where the three digits of the milliseconds are in timestamp.millis: after the
// quote and "2006-01-02T15:04:05.".
const millisAt = 1 + len("2006-01-02T15:04:05.")

// NewTimestampHook returns a TimestampHook on the system's clock; give it to
// zerolog.Logger.Hook in place of Context.Timestamp.
func NewTimestampHook() *TimestampHook { return newTimestampHook(realClock) }

func newTimestampHook(c hookClock) *TimestampHook {
	return &TimestampHook{clock: c, start: c.now()}
}

// Run adds the time to e.
func (h *TimestampHook) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	var b [48]byte
	// The text is digits, '-', ':', 'T', '.', 'Z' and '+': nothing to escape.
	e.RawJSON(timeKey, h.appendTime(b[:0]))
}

// appendTime appends the time, in TimeFormat and quoted, to dst.
func (h *TimestampHook) appendTime(dst []byte) []byte {
	since := h.clock.since(h.start)
	t := h.stamp.Load()
	if t == nil || since >= t.until {
		t = h.next(since)
	}
	ms := min(max(since-t.from, 0)/time.Millisecond, 999)
	n := len(dst)
	dst = append(dst, t.millis...)
	dst[n+millisAt], dst[n+millisAt+1], dst[n+millisAt+2] = byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10)
	return dst
}

// next reads the wall clock, makes the stamp of its second and stores it; since is the
// monotonic reading, since the hook's start, taken just before.
func (h *TimestampHook) next(since time.Duration) *timestamp {
	now := h.clock.now()
	// Truncate drops the monotonic reading: the second's start and end are on the wall clock.
	second := now.Truncate(time.Second)
	from := since - now.Sub(second)
	millis := make([]byte, 0, len(TimeFormat)+2)
	millis = append(second.AppendFormat(append(millis, '"'), TimeFormat), '"')
	t := &timestamp{millis: millis, from: from, until: from + time.Second}
	h.stamp.Store(t)
	return t
}
