package batch

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
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
			out, _ = AppendError(out, wideError(&w))
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
		{"UTF-16LE, an empty line first and between", "\n" + ok + "\n\n" + ok + "\n", "UTF-16LE", false, 4},
		{"UTF-16LE, characters with a 0A byte (U+010A, U+0A05)", `{"final_response":"Ċ ਅ"}` + "\n" + ok + "\n", "UTF-16LE", false, 2},
		{"UTF-16LE, a character beyond the BMP", `"😀 ok"` + "\n" + ok, "UTF-16LE", true, 2},
		{"UTF-16LE, a lone CR stays in the line", ok + "\r" + ok + "\n", "UTF-16LE", true, 1},
		{"UTF-16LE, a line over the limit", ok + "\n" + long + "\r\n" + ok + "\n", "UTF-16LE", true, 3},
		{"UTF-16BE with a mark", ok + "\n" + ok + "\n", "UTF-16BE", true, 2},
		{"UTF-16BE, no mark, CRLF", ok + "\r\n\r\n" + ok + "\r\n", "UTF-16BE", false, 3},
		{"UTF-32LE with a mark", ok + "\n" + ok + "\n" + ok, "UTF-32LE", true, 3},
		{"UTF-32LE, no mark", ok + "\r\n" + ok + "\n", "UTF-32LE", false, 2},
		{"UTF-32BE, no mark", "\n" + ok + "\n", "UTF-32BE", false, 2},
	}
	n := normalize.New(normalize.WithMaxBytes(limit))
	for _, tt := range tests {
		input := wideText(tt.text, tt.enc, tt.bom)
		w, detected := jsonscan.DetectWide(input)
		require.True(t, detected, tt.name)
		want := wideSequential(n, input, w, limit)
		require.Equal(t, tt.lines, bytes.Count(want, []byte("\n")), "%s: the oracle's lines", tt.name)
		for _, workers := range []int{1, 3} {
			for _, chunk := range []int{1, 0} {
				t.Run(fmt.Sprintf("%s/workers=%d,chunk=%d", tt.name, workers, chunk), func(t *testing.T) {
					r := io.Reader(bytes.NewReader(input))
					if chunk == 1 {
						r = iotest.OneByteReader(r) // every code unit split across reads
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

// UTF-8 input, and input whose first bytes are not evidence enough, is cut at "\n" as ever.
func TestRunNotWide(t *testing.T) {
	n := normalize.New()
	tests := []struct{ name, input string }{
		{"UTF-8", `{"final_response":"a"}` + "\n" + `"b"`},
		{"one character and NUL padding", "1\x00\x00\x00\n" + `"b"` + "\n"},
		{"one character of UTF-16LE, then a line of UTF-8", "1\x00\n" + `"b"`},
		{"a first line of one byte", "1"},
		{"empty", ""},
		{"a NUL first", "\x00\n" + `"b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			stats, err := Run(context.Background(), iotest.OneByteReader(strings.NewReader(tt.input)), &out, n, Options{})
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
