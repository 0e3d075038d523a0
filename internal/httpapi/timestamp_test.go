package httpapi

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a hookClock the test moves: elapsed is the monotonic clock's time since start,
// and the wall clock reads start+elapsed+step (step stands for the system clock being set).
// wallReads counts the readings of the wall clock.
type fakeClock struct {
	start     time.Time // from time.Date: no monotonic reading
	elapsed   time.Duration
	step      time.Duration
	wallReads int
}

func (c *fakeClock) hookClock() hookClock {
	return hookClock{
		now: func() time.Time {
			c.wallReads++
			return c.start.Add(c.elapsed + c.step)
		},
		since: func(t time.Time) time.Duration { return c.start.Add(c.elapsed).Sub(t) },
	}
}

var millisTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$`)

// TestTimestampHookLines: lines from a logger with the hook are zerolog's lines with the time
// as a string field, byte for byte, the time in TimeFormat, the clock's to the millisecond, over
// a second's end and a day's; the wall clock is read for the first line and at each second's
// end only, not per line.
func TestTimestampHookLines(t *testing.T) {
	clock := &fakeClock{start: time.Date(2026, 11, 30, 23, 59, 58, 990_000_000, time.UTC)}
	var ours, theirs bytes.Buffer
	hook := newTimestampHook(clock.hookClock())
	clock.wallReads = 0
	hooked := zerolog.New(&ours).Hook(hook)
	seconds := map[int64]bool{}
	for i := range 1200 { // 1.2 s of a line a millisecond, some late in their millisecond
		clock.elapsed = time.Duration(i) * time.Millisecond
		if i%7 == 3 {
			clock.elapsed += 999 * time.Microsecond
		}
		ours.Reset()
		theirs.Reset()
		hooked.Info().Str("k", "v").Int("n", i).Msg("request")
		want := clock.start.Add(clock.elapsed).Truncate(time.Millisecond).Format(TimeFormat)
		plain := zerolog.New(&theirs)
		plain.Info().Str("k", "v").Int("n", i).Str("time", want).Msg("request")
		require.Equal(t, theirs.String(), ours.String(), "line %d, %s after the start", i, clock.elapsed)
		var line map[string]any
		require.NoError(t, json.Unmarshal(ours.Bytes(), &line), ours.String())
		require.Regexp(t, millisTime, line["time"])
		got, err := time.Parse(TimeFormat, line["time"].(string))
		require.NoError(t, err)
		seconds[got.Unix()] = true
	}
	assert.Len(t, seconds, 3, "the lines span two seconds' ends, one of them a day's")
	assert.Equal(t, 3, clock.wallReads, "the wall clock is read for the first line and at each second's end, not per line")
}

// TestTimestampHookIgnoresZerologsGlobals: the hook writes TimeFormat under "time" whatever
// zerolog.TimeFieldFormat says: it reads no global another logger's set-up could be writing.
func TestTimestampHookIgnoresZerologsGlobals(t *testing.T) {
	saved := zerolog.TimeFieldFormat
	t.Cleanup(func() { zerolog.TimeFieldFormat = saved })
	clock := &fakeClock{start: time.Date(2026, 11, 30, 10, 0, 0, 123_000_000, time.UTC)}
	for _, format := range []string{zerolog.TimeFormatUnixMs, time.RFC3339, time.Kitchen} {
		zerolog.TimeFieldFormat = format
		var buf bytes.Buffer
		l := zerolog.New(&buf).Hook(newTimestampHook(clock.hookClock()))
		l.Info().Msg("m")
		assert.Equal(t, `{"level":"info","time":"2026-11-30T10:00:00.123Z","message":"m"}`+"\n", buf.String(), "TimeFieldFormat %q", format)
	}
}

// TestTimestampHookSystemClock: NewTimestampHook reads the system's clock: a line's time is
// between the wall clock's readings around it, to the second (the milliseconds come from the
// monotonic clock, which a slewing wall clock drifts from).
func TestTimestampHookSystemClock(t *testing.T) {
	var buf bytes.Buffer
	l := zerolog.New(&buf).Hook(NewTimestampHook())
	before := time.Now()
	l.Info().Msg("m")
	after := time.Now()
	var line map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &line), buf.String())
	require.Regexp(t, millisTime, line["time"])
	got, err := time.Parse(TimeFormat, line["time"].(string))
	require.NoError(t, err)
	assert.False(t, got.Before(before.Truncate(time.Second).Add(-time.Second)) || got.After(after.Add(time.Second)),
		"time %s outside [%s, %s]", got.Format(TimeFormat), before.Format(TimeFormat), after.Format(TimeFormat))
	_, offset := time.Now().Zone()
	_, gotOffset := got.Zone()
	assert.Equal(t, offset, gotOffset, "the local zone")
}

// TestTimestampHookClock drives the hook with made-up clock readings: the milliseconds are
// the monotonic reading's since the second began, the text turns over at the second's end
// (and the day's), the wall clock is read only then, not per line, and a step of the wall
// clock shows at the next second's end.
func TestTimestampHookClock(t *testing.T) {
	type line struct {
		elapsed  time.Duration // the monotonic reading, since the hook's start
		step     time.Duration // how far the wall clock was set since the start
		want     string
		readWall bool
	}
	for _, tt := range []struct {
		name  string
		start time.Time
		lines []line
	}{
		{name: "UTC over a day's end", start: time.Date(2026, 11, 30, 23, 59, 59, 400_000_000, time.UTC), lines: []line{
			{elapsed: 0, want: "2026-11-30T23:59:59.400Z", readWall: true},
			{elapsed: 1 * time.Millisecond, want: "2026-11-30T23:59:59.401Z"},
			{elapsed: 599*time.Millisecond + 999*time.Microsecond, want: "2026-11-30T23:59:59.999Z"},
			{elapsed: 600 * time.Millisecond, want: "2026-12-01T00:00:00.000Z", readWall: true},
			{elapsed: 657*time.Millisecond + 900*time.Microsecond, want: "2026-12-01T00:00:00.057Z"},
			{elapsed: 1599 * time.Millisecond, want: "2026-12-01T00:00:00.999Z"},
			{elapsed: 1601 * time.Millisecond, want: "2026-12-01T00:00:01.001Z", readWall: true},
			{elapsed: 2602 * time.Millisecond, want: "2026-12-01T00:00:02.002Z", readWall: true},
			{elapsed: 2999 * time.Millisecond, want: "2026-12-01T00:00:02.399Z"},
		}},
		{name: "a zone with a half hour", start: time.Date(2026, 11, 30, 10, 0, 0, 999_000_000, time.FixedZone("IST", 5*3600+1800)), lines: []line{
			{elapsed: 0, want: "2026-11-30T10:00:00.999+05:30", readWall: true},
			{elapsed: time.Millisecond, want: "2026-11-30T10:00:01.000+05:30", readWall: true},
			{elapsed: 1000 * time.Millisecond, want: "2026-11-30T10:00:01.999+05:30"},
		}},
		{name: "the wall clock set back and forward", start: time.Date(2026, 11, 30, 10, 0, 0, 500_000_000, time.UTC), lines: []line{
			{elapsed: 0, want: "2026-11-30T10:00:00.500Z", readWall: true},
			// Set back 10 s: unseen until the second the hook keeps is over.
			{elapsed: 100 * time.Millisecond, step: -10 * time.Second, want: "2026-11-30T10:00:00.600Z"},
			{elapsed: 500 * time.Millisecond, step: -10 * time.Second, want: "2026-11-30T09:59:51.000Z", readWall: true},
			{elapsed: 1200 * time.Millisecond, step: -10 * time.Second, want: "2026-11-30T09:59:51.700Z"},
			// Set forward an hour and a quarter second.
			{elapsed: 1600 * time.Millisecond, step: time.Hour + 250*time.Millisecond, want: "2026-11-30T11:00:02.350Z", readWall: true},
			{elapsed: 1649 * time.Millisecond, step: time.Hour + 250*time.Millisecond, want: "2026-11-30T11:00:02.399Z"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{start: tt.start}
			h := newTimestampHook(clock.hookClock())
			for _, l := range tt.lines {
				clock.elapsed, clock.step = l.elapsed, l.step
				reads := clock.wallReads
				got := string(h.appendTime(nil))
				assert.Equal(t, `"`+l.want+`"`, got, "at %s", l.elapsed)
				assert.Equal(t, l.readWall, clock.wallReads > reads, "wall clock read at %s", l.elapsed)
			}
		})
	}
}
