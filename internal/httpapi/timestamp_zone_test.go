package httpapi

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

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
