package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// wideText is text as an encoder writes it in UTF-16 or UTF-32 (enc: "UTF-16LE", "UTF-16BE",
// "UTF-32LE", "UTF-32BE"), with the byte order mark first when bom is set.
func wideText(s, enc string, bom bool) []byte {
	if bom {
		s = "\uFEFF" + s
	}
	var order binary.AppendByteOrder = binary.LittleEndian
	if strings.HasSuffix(enc, "BE") {
		order = binary.BigEndian
	}
	var out []byte
	if strings.HasPrefix(enc, "UTF-16") {
		for _, u := range utf16.Encode([]rune(s)) {
			out = order.AppendUint16(out, u)
		}
		return out
	}
	for _, r := range s {
		out = order.AppendUint32(out, uint32(r))
	}
	return out
}

// strongWide is the rule that tells a stream in UTF-16 or UTF-32 from the whole of it, written
// apart from the reader's: a byte order mark; or, without one, NUL bytes around the first two
// characters and the first 0A byte the encoding's line feed, with the code unit after it (as
// far as there is one, and at least its first byte for big-endian) an ASCII character as that
// encoding writes it.
func strongWide(input []byte) bool {
	w, ok := jsonscan.DetectWide(input)
	if !ok || w.BOM() {
		return ok
	}
	enc, unit := w.Iconv(), w.Unit()
	lf := wideText("\n", enc, false)
	at := bytes.IndexByte(input, '\n') - bytes.IndexByte(lf, '\n')
	if at < 2*unit || at%unit != 0 || !bytes.HasPrefix(input[at:], lf) { // two characters before it at least
		return false
	}
	next := input[at+unit : min(at+2*unit, len(input))]
	if len(next) == 0 { // a big-endian line feed needs the NUL byte after it
		return !w.BigEndian()
	}
	low := next[0]
	if w.BigEndian() {
		low = next[len(next)-1]
		if len(next) < unit {
			low = 0 // the low byte was not read: only the NUL bytes before it are checked
		}
	}
	return bytes.HasPrefix(wideText(string(rune(low)), enc, false), next) ||
		(w.BigEndian() && len(next) < unit && bytes.Count(next, []byte{0}) == len(next))
}

// evidenceBytes is how many bytes of a wide input tell its encoding: the mark, or (without
// one) the text up to the code unit after its first line feed, and at least eight bytes. An
// encoder writes whole code units, so a reader may well get them at once.
func evidenceBytes(input []byte, w jsonscan.Wide) int {
	if w.BOM() {
		return 0
	}
	lf := bytes.Index(input, wideText("\n", w.Iconv(), false))
	return min(len(input), max(8, lf+2*w.Unit()))
}

// wideSequential is what Run must print for an input in a wide encoding, worked out the
// obvious way: cut the whole input into code units, a line at each U+000A, one U+000D before
// it dropped, no line after a final one, and a last partial code unit part of the last line.
// An empty line gets the empty-input error, a line over limit bytes PayloadTooLarge, every
// other line the input's error.
func wideSequential(n *normalize.Normalizer, input []byte, w jsonscan.Wide, limit int64) []byte {
	unit := w.Unit()
	low := 0
	if w.BigEndian() {
		low = unit - 1
	}
	is := func(u []byte, c byte) bool {
		want := make([]byte, unit)
		want[low] = c
		return bytes.Equal(u, want)
	}
	var sizes []int64
	size, open := int64(0), false
	for i := 0; i < len(input); i += unit {
		u := input[i:min(i+unit, len(input))]
		open = true
		if len(u) == unit && is(u, '\n') {
			if i >= unit && is(input[i-unit:i], '\r') && size >= int64(unit) {
				size -= int64(unit)
			}
			sizes = append(sizes, size)
			size, open = 0, false
			continue
		}
		size += int64(len(u))
	}
	if open {
		sizes = append(sizes, size)
	}
	var out []byte
	for _, s := range sizes {
		switch {
		case limit > 0 && s > limit:
			out, _ = AppendError(out, &normalize.PayloadTooLargeError{Size: s, Limit: limit})
		case s == 0:
			out, _ = AppendLine(out, n, nil)
		default:
			out, _ = AppendError(out, wideError(&w, nil))
		}
	}
	return out
}

// Input in UTF-16 or UTF-32 is cut where its encoding ends a line, not at every 0A byte: one
// output line per line of the text, each naming the input's encoding, however the input is
// read and handed out.
func TestRunWide(t *testing.T) {
	const limit = 200
	ok := `{"final_response":"a"}`
	long := `{"final_response":"` + strings.Repeat("x", 90) + `"}` // 110 characters: 220 bytes in UTF-16
	tests := []struct {
		name, text, enc string
		bom             bool
		lines           int
	}{
		{"UTF-16LE with a mark, as Python's .encode('utf-16') writes it", ok + "\n" + ok + "\n", "UTF-16LE", true, 2},
		{"UTF-16LE with a mark, CRLF, as PowerShell writes it", ok + "\r\n" + ok + "\r\n", "UTF-16LE", true, 2},
		{"UTF-16LE, no mark, no final newline", ok + "\n" + ok, "UTF-16LE", false, 2},
		{"UTF-16LE, an empty line first and between", "\n" + ok + "\n\n" + ok + "\n", "UTF-16LE", true, 4},
		{"UTF-16LE, characters with a 0A byte (U+010A, U+0A05)", `{"final_response":"Ċ ਅ"}` + "\n" + ok + "\n", "UTF-16LE", true, 2},
		{"UTF-16LE, no mark, U+0A05 in the second line", ok + "\n" + `{"final_response":"ਅ"}` + "\n" + ok + "\n", "UTF-16LE", false, 3},
		{"UTF-16LE, a character beyond the BMP", `"😀 ok"` + "\n" + ok, "UTF-16LE", true, 2},
		{"UTF-16LE, a lone CR stays in the line", ok + "\r" + ok + "\n", "UTF-16LE", true, 1},
		{"UTF-16LE, a line over the limit", ok + "\n" + long + "\r\n" + ok + "\n", "UTF-16LE", true, 3},
		{"UTF-16BE with a mark", ok + "\n" + ok + "\n", "UTF-16BE", true, 2},
		{"UTF-16BE, no mark, CRLF", ok + "\r\n\r\n" + ok + "\r\n", "UTF-16BE", false, 3},
		{"UTF-32LE with a mark", ok + "\n" + ok + "\n" + ok, "UTF-32LE", true, 3},
		{"UTF-32LE, no mark", ok + "\r\n" + ok + "\n", "UTF-32LE", false, 2},
		{"UTF-32BE, no mark", ok + "\n" + ok + "\n", "UTF-32BE", false, 2},
	}
	n := normalize.New(normalize.WithMaxBytes(limit))
	for _, tt := range tests {
		input := wideText(tt.text, tt.enc, tt.bom)
		w, detected := jsonscan.DetectWide(input)
		require.True(t, detected, tt.name)
		require.True(t, strongWide(input), tt.name)
		want := wideSequential(n, input, w, limit)
		require.Equal(t, tt.lines, bytes.Count(want, []byte("\n")), "%s: the oracle's lines", tt.name)
		for _, workers := range []int{1, 3} {
			for _, chunk := range []int{1, 0} {
				t.Run(fmt.Sprintf("%s/workers=%d,chunk=%d", tt.name, workers, chunk), func(t *testing.T) {
					r := io.Reader(bytes.NewReader(input))
					if chunk == 1 { // every code unit split across reads, past what tells the encoding
						k := evidenceBytes(input, w)
						r = io.MultiReader(bytes.NewReader(input[:k]), iotest.OneByteReader(bytes.NewReader(input[k:])))
					}
					var out bytes.Buffer
					stats, err := Run(context.Background(), r, &out, n, Options{Workers: workers, ChunkBytes: chunk, MaxLineBytes: limit})
					require.NoError(t, err)
					assert.Equal(t, string(want), out.String())
					assert.NotContains(t, out.String(), map[bool]string{true: "little-endian", false: "big-endian"}[w.BigEndian()])
					assert.Equal(t, int64(tt.lines), stats.Lines)
					assert.Equal(t, int64(len(input)), stats.BytesIn)
					if assert.NotNil(t, stats.NotUTF8) {
						assert.Equal(t, w, *stats.NotUTF8)
					}
				})
			}
		}
	}
}

// The exact lines of a UTF-16LE input: every one names UTF-16LE, the byte order of the input,
// including the lines after the first (whose bytes, cut at 0A, would start 00 7B: UTF-16BE).
func TestRunWideLines(t *testing.T) {
	n := normalize.New()
	mark := "the input is not UTF-8, so neither is this line: the input starts with the bytes FF FE, the byte order mark of UTF-16 (little-endian"
	noMark := "the input is not UTF-8, so neither is this line: the input starts with the bytes 7B 00 22 00, a NUL byte after each of its first two characters: it looks like UTF-16 (little-endian) without a byte order mark"
	tests := []struct {
		name  string
		input []byte
		want  []string // what each output line holds
	}{
		{"with a mark", wideText("{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n", "UTF-16LE", true),
			[]string{mark, mark}},
		{"without a mark", wideText("{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n", "UTF-16LE", false),
			[]string{noMark, noMark}},
		{"an empty line", wideText("{\"final_response\":\"a\"}\n\n{\"final_response\":\"b\"}", "UTF-16LE", true),
			[]string{mark, "no JSON value in the input", mark}},
		{"a last odd byte is a line of its own", append(wideText("{\"final_response\":\"a\"}\n", "UTF-16LE", true), 'x'),
			[]string{mark, mark}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := Run(context.Background(), bytes.NewReader(tt.input), &out, n, Options{})
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			require.Len(t, lines, len(tt.want), out.String())
			for i, l := range lines {
				assert.Contains(t, l, `"class":"InvalidJSON"`)
				assert.Contains(t, l, tt.want[i], "line %d", i+1)
				assert.NotContains(t, l, "big-endian", "line %d", i+1)
			}
		})
	}
}

// UTF-8 input, and input whose first bytes are not evidence enough, is cut at "\n" as ever:
// NUL bytes around the first two characters are a guess, and a guess about the whole stream
// must not cost the valid UTF-8 lines after them.
func TestRunNotWide(t *testing.T) {
	n := normalize.New()
	tests := []struct{ name, input string }{
		{"UTF-8", `{"final_response":"a"}` + "\n" + `"b"`},
		{"one character and NUL padding", "1\x00\x00\x00\n" + `"b"` + "\n"},
		{"one character of UTF-16LE, then a line of UTF-8", "1\x00\n" + `"b"`},
		{"a first line of one byte", "1"},
		{"empty", ""},
		{"a NUL first", "\x00\n" + `"b"`},
		{"two characters of UTF-16LE, then lines of UTF-8", "1\x002\x00\n\"a\"\n\"b\"\n\"c\"\n"},
		{"two characters of UTF-16BE, then a line of UTF-8", "\x001\x002\n\"a\"\n"},
		{"UTF-16BE's line feed, then a line of UTF-8", "\x001\x00\n\"a\"\n\"b\""},
		{"UTF-16LE's line feed, then a line of UTF-8", "1\x002\x00\n\x00\"a\"\n\"b\""},
		{"two characters of UTF-32LE, then a line of UTF-8", "1\x00\x00\x002\x00\x00\x00\n\"a\"\n"},
		{"two characters of UTF-32BE, then a line of UTF-8", "\x00\x00\x001\x00\x00\x002\n\"a\"\n"},
		{"UTF-32LE's line feed short of a code unit", "1\x00\x00\x002\x00\x00\x00\n\x00\"a\"\n"},
		{"UTF-16LE without a mark, its first 0A byte inside U+010A", string(wideText("\"Ċ\"\n\"b\"\n", "UTF-16LE", false)) + "\n\"c\"\n"},
		{"binary data shaped as UTF-32LE", "\x01\x00\x00\x00\x02\x00\x00\x00\n\x00\x00\x00"},
		{"binary data shaped as UTF-16LE", "\x01\x00\x02\x00\n\x00\n\"a\"\n"},
		// Line feeds in NUL bytes first are no evidence: the lines after them may be valid UTF-8.
		{"UTF-16BE line feeds first, then lines of UTF-8", "\x00\n\x00\n\"\x00\n\"a\"\n\"b\"\n"},
		{"UTF-32LE line feeds first, then a line of UTF-8", "\n\x00\x00\x00\n\x00\x00\x00\"a\"\n"},
		{"UTF-16LE without a mark, an empty line first", string(wideText("\n\"a\"\n\"b\"\n", "UTF-16LE", false))},
		{"a first line over the read buffer, no line feed in it", "{\x00\"\x00" + strings.Repeat("x\x00", readBufferBytes) + "\n\x00\"a\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			require.False(t, strongWide([]byte(tt.input)) && len(tt.input) < readBufferBytes, "not evidence enough")
			r := io.Reader(strings.NewReader(tt.input))
			if len(tt.input) < 1<<16 {
				r = iotest.OneByteReader(r)
			}
			stats, err := Run(context.Background(), r, &out, n, Options{})
			require.NoError(t, err)
			assert.Equal(t, string(sequential(n, splitLines(tt.input), 0)), out.String())
			assert.Nil(t, stats.NotUTF8)
		})
	}
}

// A read error among the first bytes, while they are looked at, is the run's read error.
func TestRunWideReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("{"), iotest.ErrReader(fmt.Errorf("bad sector")))
	_, err := Run(context.Background(), r, io.Discard, normalize.New(), Options{})
	require.ErrorContains(t, err, "read input: bad sector")
}

// The first line is answered as soon as it is read, whatever the first bytes are: looking at
// them never waits for input that a program on the other end of a pipe sends only after it
// has its answer.
func TestRunFirstLineNotDelayed(t *testing.T) {
	tests := []struct{ name, first string }{
		{"an empty line", "\n"},
		{"a CRLF", "\r\n"},
		{"a record", `"a"` + "\n"},
		{"a NUL and a line feed", "\x00\n"},
		{"one character of UTF-16LE", "1\x00\n"},
		{"a line of UTF-16LE", string(wideText("12\n", "UTF-16LE", false))},
		{"a line of UTF-16BE", string(wideText("1\n", "UTF-16BE", false))},
		{"a line of UTF-16LE with a mark", string(wideText("1\n", "UTF-16LE", true))},
		{"an empty line of UTF-32BE", string(wideText("\n", "UTF-32BE", false))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			out := &lineNotifier{line: make(chan struct{}, 1)}
			done := make(chan error, 1)
			go func() {
				_, err := Run(context.Background(), pr, out, normalize.New(), Options{Workers: 1})
				done <- err
			}()
			go func() { _, _ = pw.Write([]byte(tt.first)) }() // and nothing more until answered
			select {
			case <-out.line:
			case <-time.After(30 * time.Second):
				t.Fatalf("Run(%q then nothing): no output line; it waits for input it does not need", tt.first)
			}
			require.NoError(t, pw.Close())
			require.NoError(t, <-done)
		})
	}
}

// lineNotifier is an output that says when a line has been written.
type lineNotifier struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	line chan struct{}
}

func (l *lineNotifier) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if bytes.IndexByte(b, '\n') >= 0 {
		select {
		case l.line <- struct{}{}:
		default:
		}
	}
	return l.buf.Write(b)
}

// Any input that strongWide does not find in UTF-16 or UTF-32 gives exactly what cutting at
// "\n" gave before wide input was told apart: random lines of JSON, NUL and control bytes,
// CRs and Latin-1, read in pieces of any size.
func TestRunNotWideDifferential(t *testing.T) {
	pieces := []string{`"a"`, `{"final_response":"b"}`, "1", "2", "\x00", "\x00\x00", "\x00\x00\x00",
		"\x01", "\x02", "\x1b", "\r", "\n", "\n", "\n", " ", "\t", "é", "{", "\"", "\xff", "\xfe"}
	rng := rand.New(rand.NewPCG(1, 2))
	n := normalize.New(normalize.WithMaxBytes(48))
	var narrow, wide int
	for i := range 3000 {
		var b strings.Builder
		for range rng.IntN(12) + 1 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		input := b.String()
		want := sequential(n, splitLines(input), 48) // the rule before wide input
		isWide := strongWide([]byte(input))
		if isWide {
			w, _ := jsonscan.DetectWide([]byte(input))
			want, wide = wideSequential(n, []byte(input), w, 48), wide+1
		} else {
			narrow++
		}
		r := io.Reader(strings.NewReader(input))
		if i%2 == 1 {
			r = iotest.HalfReader(r)
		}
		var out bytes.Buffer
		stats, err := Run(context.Background(), r, &out, n, Options{Workers: 2, ChunkBytes: 7, MaxLineBytes: 48})
		require.NoError(t, err)
		require.Equal(t, string(want), out.String(), "Run(%q), strongly wide: %v", input, isWide)
		require.Equal(t, isWide, stats.NotUTF8 != nil, "Run(%q)", input)
	}
	t.Logf("%d inputs cut at \"\\n\", %d strongly wide", narrow, wide)
	require.Greater(t, narrow, 2500)
}

// The lines of a wide input are read past, never kept: the chunk holds no input byte, only
// each line's size and whether it is empty, with or without a limit.
func TestWideReaderKeepsNoBytes(t *testing.T) {
	long := `"` + strings.Repeat("x", 3<<20) + `"` // 6 MiB in UTF-16, more than the read buffer
	tests := []struct {
		name, text, enc string
		max             int64
		want            []line
	}{
		{"a long line, no limit", long + "\n", "UTF-16LE", 0,
			[]line{{end: 1, raw: int64(2*len(long) + 2)}}},
		{"a long line over the limit", long + "\r\n\"a\"", "UTF-16BE", 100,
			[]line{{tooLarge: int64(2 * len(long)), raw: int64(2*len(long) + 4)}, {end: 1, raw: 6}}},
		{"an empty line and a CRLF", "\n\r\n\"a\"\n", "UTF-32LE", 0,
			[]line{{raw: 4}, {raw: 8}, {end: 1, raw: 16}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := wideText(tt.text, tt.enc, false)
			w, ok := jsonscan.DetectWide(input)
			require.True(t, ok)
			wr := newWideReader(bufio.NewReaderSize(bytes.NewReader(input), readBufferBytes), &w, tt.max)
			var c chunk
			for {
				more, err := wr.next(&c)
				require.NoError(t, err)
				if !more {
					break
				}
			}
			assert.Empty(t, c.in, "bytes kept")
			assert.Equal(t, tt.want, c.lines)
		})
	}
}
