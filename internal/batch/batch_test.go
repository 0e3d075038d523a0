package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/jsonlgen"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// sequential is what Run must print: AppendLine on each line, one after the other.
func sequential(n *normalize.Normalizer, lines []string, limit int64) []byte {
	var out []byte
	for _, l := range lines {
		if limit > 0 && int64(len(l)) > limit {
			out, _ = AppendError(out, &normalize.PayloadTooLargeError{Size: int64(len(l)), Limit: limit})
			continue
		}
		out, _ = AppendLine(out, n, []byte(l))
	}
	return out
}

func TestRunLines(t *testing.T) {
	n := normalize.New(normalize.WithMaxBytes(40))
	ok := `{"final_response":"a"}`
	tests := []struct {
		name  string
		input string
		lines []string // the lines Run must see, terminators removed
	}{
		{"empty input", "", nil},
		{"one line, no terminator", ok, []string{ok}},
		{"one line", ok + "\n", []string{ok}},
		{"crlf", ok + "\r\n" + ok + "\r\n", []string{ok, ok}},
		{"lone cr stays in the line", ok + "\r" + ok + "\n", []string{ok + "\r" + ok}},
		{"empty lines stay aligned", "\n" + ok + "\n\n", []string{"", ok, ""}},
		{"blank line", " \t\n", []string{" \t"}},
		{"just a newline", "\n", []string{""}},
		{"line at the limit", `"` + strings.Repeat("x", 38) + `"` + "\n", []string{`"` + strings.Repeat("x", 38) + `"`}},
		{"line at the limit, crlf", `"` + strings.Repeat("x", 38) + `"` + "\r\n", []string{`"` + strings.Repeat("x", 38) + `"`}},
		{"line one over the limit", `"` + strings.Repeat("x", 39) + `"` + "\n" + ok, []string{`"` + strings.Repeat("x", 39) + `"`, ok}},
		{"long line between good ones", ok + "\n" + strings.Repeat("y", 5000) + "\r\n" + ok, []string{ok, strings.Repeat("y", 5000), ok}},
		{"long last line without terminator", ok + "\n" + strings.Repeat("y", 5000), []string{ok, strings.Repeat("y", 5000)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			stats, err := Run(context.Background(), strings.NewReader(tt.input), &out, n, Options{Workers: 2, MaxLineBytes: 40})
			require.NoError(t, err)
			assert.Equal(t, string(sequential(n, tt.lines, 40)), out.String())
			assert.Equal(t, int64(len(tt.lines)), stats.Lines)
			assert.Equal(t, int64(len(tt.input)), stats.BytesIn)
			assert.Equal(t, int64(out.Len()), stats.BytesOut)
		})
	}
}

// A line far longer than the read buffer is read past in pieces, and its exact size reported.
func TestRunHugeLine(t *testing.T) {
	const size = 3*readBufferBytes + 17
	n := normalize.New(normalize.WithMaxBytes(1000))
	input := `"a"` + "\n" + strings.Repeat("z", size) + "\n" + `"b"`
	var out bytes.Buffer
	stats, err := Run(context.Background(), strings.NewReader(input), &out, n, Options{MaxLineBytes: 1000})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, fmt.Sprintf(`{"error":{"class":"PayloadTooLarge","message":"payload of %d bytes is over the limit of 1000 bytes; send a smaller result or raise the limit","limit":1000}}`, size), lines[1])
	assert.Equal(t, int64(1), stats.Rejected.PayloadTooLarge)
	assert.Equal(t, int64(2), stats.Records)
}

// Without a limit a line longer than the read buffer is put together whole.
func TestRunNoLimit(t *testing.T) {
	n := normalize.New(normalize.WithMaxBytes(math.MaxInt64))
	long := `"` + strings.Repeat("é", readBufferBytes) + `"`
	var out bytes.Buffer
	_, err := Run(context.Background(), strings.NewReader(long+"\n"+long), &out, n, Options{Workers: 3})
	require.NoError(t, err)
	assert.Equal(t, string(sequential(n, []string{long, long}, 0)), out.String())
}

// The order of the output is the order of the input, whatever the workers and chunk sizes.
func TestRunOrder(t *testing.T) {
	n := normalize.New(normalize.WithMaxBytes(4096))
	g := jsonlgen.New(7, true)
	var (
		input bytes.Buffer
		lines []string
	)
	for range 3000 {
		l := string(g.Line(nil))
		lines = append(lines, l)
		input.WriteString(l + "\n")
	}
	want := sequential(n, lines, 4096)
	for _, workers := range []int{1, 2, 4, 8} {
		for _, chunk := range []int{1, 1000, 64 << 10} {
			t.Run(fmt.Sprintf("workers=%d,chunk=%d", workers, chunk), func(t *testing.T) {
				var out bytes.Buffer
				// OneByteReader makes the reader hand over a chunk at nearly every line.
				r := io.Reader(bytes.NewReader(input.Bytes()))
				if chunk == 1 {
					r = iotest.HalfReader(r)
				}
				stats, err := Run(context.Background(), r, &out, n, Options{Workers: workers, ChunkBytes: chunk, MaxLineBytes: 4096})
				require.NoError(t, err)
				require.Equal(t, string(want), out.String())
				assert.Equal(t, int64(len(lines)), stats.Lines)
				assert.Equal(t, stats.Lines, stats.Records+stats.Rejected.Total())
				assert.Positive(t, stats.Rejected.InvalidJSON)
				assert.Positive(t, stats.Rejected.PayloadTooLarge)
				assert.Positive(t, stats.Rejected.ResponseShape)
				assert.Positive(t, stats.Warnings)
				assert.Zero(t, stats.Rejected.Other)
			})
		}
	}
}

func TestRunCounts(t *testing.T) {
	n := normalize.New()
	input := strings.Join([]string{
		`{"final_response":"ok"}`,
		`{"final_response":"` + strings.Repeat("x", normalize.MaxChars+1) + `"}`,
		`{"final_response":"a","messages":[{"role":"developer"},{"role":"model"}]}`,
		`{"final_response":""}`,
		`{`,
		``, // an empty line: InvalidJSON
		``, // the input ends with "\n", which ends the line before and starts none
	}, "\n")
	stats, err := Run(context.Background(), strings.NewReader(input), io.Discard, n, Options{})
	require.NoError(t, err)
	assert.Equal(t, Stats{
		Lines: 6, BytesIn: int64(len(input)), BytesOut: stats.BytesOut,
		Records: 3, Warnings: 3, WithWarnings: 2, Truncated: 1,
		Rejected: Rejections{ResponseShape: 1, InvalidJSON: 2},
	}, stats)
	assert.Equal(t, []ClassCount{{normalize.ClassInvalidJSON, 2}, {normalize.ClassResponseShape, 1}}, stats.Rejected.ByClass())
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errors.New("disk full")
	}
	w.after--
	return len(p), nil
}

func TestRunErrors(t *testing.T) {
	n := normalize.New()
	var input bytes.Buffer
	g := jsonlgen.New(3, true)
	for range 5000 {
		input.Write(append(g.Line(nil), '\n'))
	}
	t.Run("write error stops the run", func(t *testing.T) {
		_, err := Run(context.Background(), bytes.NewReader(input.Bytes()), &failingWriter{after: 2}, n, Options{Workers: 4, ChunkBytes: 4096})
		require.ErrorContains(t, err, "write output: disk full")
	})
	t.Run("read error is reported after the lines before it", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader(`"a"`+"\n"), iotest.ErrReader(errors.New("bad sector")))
		var out bytes.Buffer
		_, err := Run(context.Background(), r, &out, n, Options{})
		require.ErrorContains(t, err, "read input: bad sector")
	})
	t.Run("cancel stops reading", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Run(ctx, bytes.NewReader(input.Bytes()), io.Discard, n, Options{Workers: 2})
		require.ErrorIs(t, err, context.Canceled)
	})
	// A chunk of more than maxChunkLines lines is written in parts, its worker waiting for
	// each to be written: a write error ends the run there, as it does between chunks.
	empty := strings.Repeat("\n", 5*maxChunkLines+3)
	for _, after := range []int{0, 1, 3} {
		for _, workers := range []int{1, 2, 3} {
			opts := Options{Workers: workers, ChunkBytes: len(empty) / 2}
			t.Run(fmt.Sprintf("write error %d parts in, -j %d", after, workers), func(t *testing.T) {
				_, err := RunBytes(context.Background(), []byte(empty+empty), &failingWriter{after: after}, n, opts)
				require.ErrorContains(t, err, "write output: disk full")
				_, err = Run(context.Background(), strings.NewReader(empty+empty), &failingWriter{after: after}, n, opts)
				require.ErrorContains(t, err, "write output: disk full")
			})
		}
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("RunBytes -j %d: write error stops the run", workers), func(t *testing.T) {
			w := &failingWriter{after: 2}
			stats, err := RunBytes(context.Background(), input.Bytes(), w, n, Options{Workers: workers, ChunkBytes: 4096})
			require.ErrorContains(t, err, "write output: disk full")
			assert.Less(t, stats.Lines, int64(5000))
		})
		t.Run(fmt.Sprintf("RunBytes -j %d: cancel stops reading", workers), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var out bytes.Buffer
			_, err := RunBytes(ctx, input.Bytes(), &out, n, Options{Workers: workers})
			require.ErrorIs(t, err, context.Canceled)
			assert.Zero(t, out.Len())
		})
	}
}

func TestProgress(t *testing.T) {
	var calls []Stats
	input := strings.Repeat(`"a"`+"\n", 100)
	_, err := Run(context.Background(), iotest.HalfReader(strings.NewReader(input)), io.Discard, normalize.New(),
		Options{ChunkBytes: 16, Progress: func(s Stats) { calls = append(calls, s) }})
	require.NoError(t, err)
	require.NotEmpty(t, calls)
	for i := 1; i < len(calls); i++ {
		assert.Greater(t, calls[i].Lines, calls[i-1].Lines)
	}
	assert.Equal(t, int64(100), calls[len(calls)-1].Lines)
}

// RunBytes at -j 1 and -j 2 writes the same parts of the same chunks: the same progress,
// chunk by chunk (a chunk of more than maxChunkLines lines in parts), and the same bytes.
func TestProgressBytesChunks(t *testing.T) {
	var input bytes.Buffer
	g := jsonlgen.New(5, true)
	for range 3000 {
		input.Write(append(g.Line(nil), '\n'))
	}
	input.WriteString(strings.Repeat("\n", 2*maxChunkLines) + `"no final newline"`)
	for _, chunk := range []int{1, 4096, 64 << 10} {
		var calls [2][]Stats
		var outs [2]bytes.Buffer
		for i, workers := range []int{1, 2} {
			_, err := RunBytes(context.Background(), input.Bytes(), &outs[i], normalize.New(),
				Options{Workers: workers, ChunkBytes: chunk, Progress: func(s Stats) { calls[i] = append(calls[i], s) }})
			require.NoError(t, err)
		}
		require.Len(t, calls[0], len(calls[1]), "chunk %d", chunk)
		assert.True(t, slices.Equal(calls[1], calls[0]), "chunk %d: other totals after a chunk", chunk)
		assert.Greater(t, len(calls[0]), 2, "chunk %d", chunk)
		assert.True(t, bytes.Equal(outs[1].Bytes(), outs[0].Bytes()), "chunk %d", chunk)
	}
}

// BenchmarkRun measures the pipeline on the benchmark's mix of lines, in MB/s of input.
