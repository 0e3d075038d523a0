package httpapi

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTimestampHookWritesWhatZerologDoes: a line from a logger with the hook and one from a
// logger with zerolog's Timestamp differ in nothing but the second they were written in, and
// the hook's time is the wall clock's, to the second, across second boundaries.
func TestTimestampHookWritesWhatZerologDoes(t *testing.T) {
	var ours, theirs bytes.Buffer
	hooked := zerolog.New(&ours).Hook(NewTimestampHook())
	plain := zerolog.New(&theirs).With().Timestamp().Logger()
	deadline := time.Now().Add(1200 * time.Millisecond) // past a second's end
	lines := 0
	for time.Now().Before(deadline) {
		ours.Reset()
		theirs.Reset()
		before := time.Now().Truncate(time.Second)
		hooked.Info().Str("k", "v").Int("n", 1).Msg("request")
		plain.Info().Str("k", "v").Int("n", 1).Msg("request")
		after := time.Now()
		lines++
		var line map[string]any
		require.NoError(t, json.Unmarshal(ours.Bytes(), &line), ours.String())
		got, err := time.Parse(time.RFC3339, line["time"].(string))
		require.NoError(t, err)
		require.False(t, got.Before(before) || got.After(after), "time %s outside [%s, %s]", got, before, after)
		var their map[string]any
		require.NoError(t, json.Unmarshal(theirs.Bytes(), &their), theirs.String())
		// Byte for byte zerolog's line, but for the second it was written in.
		assert.Equal(t, strings.Replace(theirs.String(), their["time"].(string), line["time"].(string), 1), ours.String())
		time.Sleep(time.Millisecond)
	}
	t.Logf("%d lines over a second's end", lines)
}

// TestTimestampHookOtherFormats: with another time format, the hook is zerolog's Timestamp.
func TestTimestampHookOtherFormats(t *testing.T) {
	saved := zerolog.TimeFieldFormat
	t.Cleanup(func() { zerolog.TimeFieldFormat = saved })
	zerolog.TimeFieldFormat = zerolog.TimeFormatUnixMs
	var buf bytes.Buffer
	l := zerolog.New(&buf).Hook(NewTimestampHook())
	l.Info().Msg("m")
	var line map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &line))
	ms, ok := line["time"].(float64)
	require.True(t, ok, "%s", buf.String())
	assert.InDelta(t, float64(time.Now().UnixMilli()), ms, 5000)
}

// TestTimestampHookTextIsZerologs: lines written within one second by the hook and by
// zerolog's Timestamp are the same bytes, time included, in a zone other than UTC (the test
// runs itself again under TZ=Asia/Kolkata when the local zone is UTC).
func TestTimestampHookTextIsZerologs(t *testing.T) {
	if _, offset := time.Now().Zone(); offset == 0 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTimestampHookTextIsZerologs$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TZ=Asia/Kolkata")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return
	}
	var ours, theirs bytes.Buffer
	hooked := zerolog.New(&ours).Hook(NewTimestampHook())
	plain := zerolog.New(&theirs).With().Timestamp().Logger()
	same := 0
	for range 100 {
		ours.Reset()
		theirs.Reset()
		before := time.Now().Unix()
		hooked.Info().Str("k", "v").Msg("request")
		plain.Info().Str("k", "v").Msg("request")
		if time.Now().Unix() != before {
			continue // straddled a second's end
		}
		require.Equal(t, theirs.String(), ours.String())
		same++
	}
	require.Greater(t, same, 90)
}

// withTimeFormat sets zerolog.TimeFieldFormat to format for the rest of t.
func withTimeFormat(t *testing.T, format string) {
	saved := zerolog.TimeFieldFormat
	t.Cleanup(func() { zerolog.TimeFieldFormat = saved })
	zerolog.TimeFieldFormat = format
}

var millisTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$`)

// TestTimestampHookMillis: with serve's TimeFormat, the time has three fractional digits, is
// the wall clock's to the millisecond, across a second's end, and the line is zerolog's but
// for the time.
func TestTimestampHookMillis(t *testing.T) {
	withTimeFormat(t, TimeFormat)
	var ours, theirs bytes.Buffer
	hooked := zerolog.New(&ours).Hook(NewTimestampHook())
	plain := zerolog.New(&theirs).With().Timestamp().Logger()
	deadline := time.Now().Add(1100 * time.Millisecond) // past a second's end
	seconds := map[int64]bool{}
	for time.Now().Before(deadline) {
		ours.Reset()
		theirs.Reset()
		before := time.Now().Truncate(time.Millisecond)
		hooked.Info().Str("k", "v").Msg("request")
		after := time.Now()
		plain.Info().Str("k", "v").Msg("request")
		var line, their map[string]any
		require.NoError(t, json.Unmarshal(ours.Bytes(), &line), ours.String())
		require.NoError(t, json.Unmarshal(theirs.Bytes(), &their), theirs.String())
		text := line["time"].(string)
		require.Regexp(t, millisTime, text)
		got, err := time.Parse(TimeFormat, text)
		require.NoError(t, err)
		// The hook's milliseconds come from the monotonic clock, the second from the wall
		// clock: within a millisecond of it (a slewing clock can drift a little more).
		require.False(t, got.Before(before.Add(-2*time.Millisecond)) || got.After(after.Add(2*time.Millisecond)),
			"time %s outside [%s, %s]", got.Format(TimeFormat), before.Format(TimeFormat), after.Format(TimeFormat))
		assert.Equal(t, strings.Replace(theirs.String(), their["time"].(string), text, 1), ours.String())
		seconds[got.Unix()] = true
		time.Sleep(time.Millisecond)
	}
	assert.GreaterOrEqual(t, len(seconds), 2, "the lines span a second's end")
}

// TestTimestampHookMillisClock drives the hook with made-up clock readings: the milliseconds
// are the monotonic reading's since the second began, the text turns over at the second's end
// (and the day's), and the wall clock is read only then, not per line. The hook's start comes
// from time.Date, with no monotonic reading, so the wall clock stands in for the monotonic one
// (a step of the wall clock cannot be made up this way).
func TestTimestampHookMillisClock(t *testing.T) {
	type line struct {
		since    time.Duration // the monotonic reading, since the hook's start
		want     string
		readWall bool
	}
	for _, tt := range []struct {
		name  string
		start time.Time
		lines []line
	}{
		{name: "UTC over a day's end", start: time.Date(2026, 11, 30, 23, 59, 59, 400_000_000, time.UTC), lines: []line{
			{since: 0, want: "2026-11-30T23:59:59.400Z", readWall: true},
			{since: 1 * time.Millisecond, want: "2026-11-30T23:59:59.401Z"},
			{since: 599*time.Millisecond + 999*time.Microsecond, want: "2026-11-30T23:59:59.999Z"},
			{since: 600 * time.Millisecond, want: "2026-12-01T00:00:00.000Z", readWall: true},
			{since: 657*time.Millisecond + 900*time.Microsecond, want: "2026-12-01T00:00:00.057Z"},
			{since: 1599 * time.Millisecond, want: "2026-12-01T00:00:00.999Z"},
			{since: 1601 * time.Millisecond, want: "2026-12-01T00:00:01.001Z", readWall: true},
			{since: 2602 * time.Millisecond, want: "2026-12-01T00:00:02.002Z", readWall: true},
			{since: 2999 * time.Millisecond, want: "2026-12-01T00:00:02.399Z"},
		}},
		{name: "a zone with a half hour", start: time.Date(2026, 11, 30, 10, 0, 0, 999_000_000, time.FixedZone("IST", 5*3600+1800)), lines: []line{
			{since: 0, want: "2026-11-30T10:00:00.999+05:30", readWall: true},
			{since: time.Millisecond, want: "2026-11-30T10:00:01.000+05:30", readWall: true},
			{since: 1000 * time.Millisecond, want: "2026-11-30T10:00:01.999+05:30"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := &TimestampHook{start: tt.start}
			for _, l := range tt.lines {
				read := false
				now := func() time.Time {
					read = true
					return tt.start.Add(l.since)
				}
				got := string(h.appendMillis(nil, l.since, now))
				assert.Equal(t, `"`+l.want+`"`, got, "at %s", l.since)
				assert.Equal(t, l.readWall, read, "wall clock read at %s", l.since)
			}
		})
	}
}
