package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewLoggerConcurrently: serves starting at once in one process (as the tests of serve
// do) each build their logger and write with it. Under -race nothing they share is written
// unsynchronised: newLogger once set zerolog.TimeFieldFormat on every call, while the other
// loggers' timestamp hooks and console writers read it.
func TestNewLoggerConcurrently(t *testing.T) {
	const loggers = 4
	outs := make([]bytes.Buffer, loggers)
	var wg sync.WaitGroup
	for i := range loggers {
		wg.Go(func() {
			console := i%2 == 1
			l := newLogger(zerolog.InfoLevel, console, &outs[i], false)
			for range 100 {
				l.Info().Str("component", "serve").Msg("listening")
			}
		})
	}
	wg.Wait()
	for i := range loggers {
		lines := strings.Split(strings.TrimSuffix(outs[i].String(), "\n"), "\n")
		require.Len(t, lines, 100)
		if i%2 == 1 { // console: the time comes first, as time.RFC3339 writes it
			assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d) INF listening component=serve$`, lines[0])
			continue
		}
		var line map[string]any
		require.NoError(t, json.Unmarshal([]byte(lines[0]), &line), lines[0])
		assert.Regexp(t, millisTime, line["time"])
		assert.Equal(t, "listening", line["message"])
	}
}
