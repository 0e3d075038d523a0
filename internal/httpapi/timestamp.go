package httpapi

import (
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// TimeFormat is the time format of serve's log lines (zerolog.TimeFieldFormat, which serve
// sets): RFC 3339 with exactly three fractional digits, milliseconds. A request's line is
// written when it ends; whole seconds could not order the lines of a busy second, nor line
// one up with a client's or a proxy's log.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// TimestampHook is zerolog's Timestamp for a logger that writes a line per request: the same
// "time" field in the same format, read from a clock that is read once a second. zerolog's own
// reads the wall clock and formats it for every line, about 100 ns on this machine's virtual
// clock, a visible share of a 2 KB request. This one formats the second once and, in between,
// reads only the monotonic clock (time.Since: about half of time.Now's cost here) to see when
// the second is over; with TimeFormat, that same reading gives the milliseconds past the
// second's start, appended to the second's text. The wall clock is read again at each second's
// end, so a step of the system clock shows within a second.
//
// It does so for TimeFormat and for time.RFC3339 (zerolog's default, whole seconds); with any
// other zerolog.TimeFieldFormat it does what zerolog's does. It reads time.Now, not
// zerolog.TimestampFunc (nothing here sets that), and writes the time as a JSON string, as the
// JSON encoder does (not as the CBOR encoder's time tag, under the binary_log build tag).
type TimestampHook struct {
	start time.Time // its monotonic reading is the base of the cheap clock
	stamp atomic.Pointer[timestamp]
}

// timestamp is the current second: its text in both formats, and when (by the monotonic clock,
// since the hook's start) it began and ends.
type timestamp struct {
	text   string // time.RFC3339
	millis []byte // TimeFormat with its quotes, "000" for the milliseconds: a template
	from   time.Duration
	until  time.Duration
}

// millisAt is where the three digits of the milliseconds are in timestamp.millis: after the
// quote and "2006-01-02T15:04:05.".
const millisAt = 1 + len("2006-01-02T15:04:05.")

// NewTimestampHook returns a TimestampHook; give it to zerolog.Logger.Hook in place of
// Context.Timestamp.
func NewTimestampHook() *TimestampHook { return &TimestampHook{start: time.Now()} }

// Run adds the time to e.
func (h *TimestampHook) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	switch zerolog.TimeFieldFormat {
	case TimeFormat:
		var b [48]byte
		// The text is digits, '-', ':', 'T', '.', 'Z' and '+': nothing to escape.
		e.RawJSON(zerolog.TimestampFieldName, h.appendMillis(b[:0], time.Since(h.start), time.Now))
	case time.RFC3339:
		t, _ := h.at(time.Since(h.start), time.Now)
		e.Str(zerolog.TimestampFieldName, t.text)
	default:
		e.Timestamp()
	}
}

// appendMillis appends the time, in TimeFormat and quoted, to dst; since is the monotonic
// clock's reading, since h.start, and now reads the wall clock when the second is over.
func (h *TimestampHook) appendMillis(dst []byte, since time.Duration, now func() time.Time) []byte {
	t, since := h.at(since, now)
	ms := min(max(since-t.from, 0)/time.Millisecond, 999)
	n := len(dst)
	dst = append(dst, t.millis...)
	dst[n+millisAt], dst[n+millisAt+1], dst[n+millisAt+2] = byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10)
	return dst
}

// at returns the stamp of the second the monotonic reading since falls in, and the reading:
// the stamp's own (a new second is read from the wall clock by now) when since is past the
// stored one's end.
func (h *TimestampHook) at(since time.Duration, now func() time.Time) (*timestamp, time.Duration) {
	if t := h.stamp.Load(); t != nil && since < t.until {
		return t, since
	}
	return h.next(now())
}

// next makes the stamp of now's second and stores it; it returns it with now's reading.
func (h *TimestampHook) next(now time.Time) (*timestamp, time.Duration) {
	// Truncate drops the monotonic reading: the second's start and end are on the wall clock.
	second := now.Truncate(time.Second)
	since := now.Sub(h.start)
	from := since - now.Sub(second)
	millis := make([]byte, 0, len(TimeFormat)+2)
	millis = append(second.AppendFormat(append(millis, '"'), TimeFormat), '"')
	t := &timestamp{text: second.Format(time.RFC3339), millis: millis, from: from, until: from + time.Second}
	h.stamp.Store(t)
	return t, since
}
