package httpapi

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
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
