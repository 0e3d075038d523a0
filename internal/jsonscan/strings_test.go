package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
)

// compactWant is AppendCompact's definition: encoding/json's Compact, which elides the same
// whitespace and copies strings unchanged.
func compactWant(t testing.TB, src []byte) []byte {
	t.Helper()
	var want bytes.Buffer
	if err := json.Compact(&want, src); err != nil {
		t.Fatalf("json.Compact(%q): %v", src, err)
	}
	return want.Bytes()
}

func TestAppendCompactAgreesWithStdlib(t *testing.T) {
	for name, doc := range compactDocs(t) {
		t.Run(name, func(t *testing.T) {
			if got, want := AppendCompact([]byte("prefix"), doc), append([]byte("prefix"), compactWant(t, doc)...); !bytes.Equal(got, want) {
				t.Fatalf("AppendCompact(%q)\n got %q\nwant %q", doc, got, want)
			}
		})
	}
}

// compactDocs are JSON texts with whitespace in every place it may be.
func compactDocs(t *testing.T) map[string][]byte {
	docs := map[string][]byte{
		"escaped quotes and backslash runs": []byte(`{ "a" : "x\"y\\" , "b\\\"" : [ "\\\\\"", "\"\\\\", "" , "\\" ] }`),
		"every kind of value":               []byte("[\n\t1 ,\r\n-2.5e+3, true , false , null , { } , [ ] , \"s p a c e s\" ]"),
		"no whitespace":                     []byte(`{"a":[1,"2",{"b":null}]}`),
		"scalar":                            []byte(` "just a string with \" and \\ inside " `),
	}
	for _, name := range []string{"small", "medium"} {
		doc := corpus.Small()
		if name == "medium" {
			doc = corpus.Medium()
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, doc, "", "  "); err != nil {
			t.Fatal(err)
		}
		docs[name+" corpus, indented"] = pretty.Bytes()
	}
	// Runs of backslashes of every length before quotes, at every distance.
	for run := range 9 {
		s := `"` + strings.Repeat(`\\`, run) + `\"` + strings.Repeat("x", run) + `"`
		docs["run of "+strings.Repeat("\\", run)] = []byte(`[ ` + s + ` , ` + s + ` ]`)
	}
	docs["medium corpus as json.dumps writes it"] = corpus.MediumPython()
	// Pieces between runs of every length, around the sixteen AppendValue copies at once, and
	// the input's end at every distance after them.
	for n := range 40 {
		piece := `"` + strings.Repeat("p", n) + `"`
		docs[fmt.Sprintf("piece of %d bytes", n+2)] = []byte(`[ ` + piece + ` , ` + piece + ` ]`)
		docs[fmt.Sprintf("piece of %d bytes, then %d bytes", n+2, n)] = []byte(`{ "k" : ` + piece + ` , "q":1}` + strings.Repeat(" ", n))
	}
	return docs
}

// The scanner's AppendValue, from the whitespace runs a recording walk noted, writes every
// value of a text as AppendCompact (and encoding/json) does.
func TestAppendValueFromRuns(t *testing.T) {
	for name, doc := range compactDocs(t) {
		t.Run(name, func(t *testing.T) {
			assert.True(t, checkAppendValue(t, doc), "recording at the end of the walk")
		})
	}
}

// Past one run per maxRunBytes of input the walk stops recording, and AppendValue scans again.
func TestAppendValueRunsBounded(t *testing.T) {
	doc := []byte("[" + strings.Repeat(" 1 ,", 5000) + " 1 ]")
	var s Scanner
	s.ResetRecordingWS(doc, 100)
	s.SkipValue()
	require.NoError(t, errOrNil(s.Err()))
	assert.False(t, s.recording, "still recording after %d runs in %d bytes", len(s.runs), len(doc))
	assert.LessOrEqual(t, len(s.runs), len(doc)/maxRunBytes+16)
	assert.False(t, checkAppendValue(t, doc), "recording at the end of the walk")
}

// checkAppendValue walks doc with a recording scanner and checks AppendValue on every value
// of it against encoding/json's Compact. It returns whether the walk kept recording to its end.
func checkAppendValue(t *testing.T, doc []byte) bool {
	t.Helper()
	var s Scanner
	s.ResetRecordingWS(doc, 100)
	var spans []Span
	walkValues(&s, &spans)
	require.NoError(t, errOrNil(s.Err()))
	for _, sp := range spans {
		want := append([]byte("prefix"), compactWant(t, doc[sp.Start:sp.End])...)
		if got := s.AppendValue([]byte("prefix"), sp, s.WS() > 0); !bytes.Equal(got, want) {
			t.Fatalf("AppendValue(%q)\n got %q\nwant %q", doc[sp.Start:sp.End], got, want)
		}
	}
	return s.recording
}

// walkValues walks the value at s's position and appends the span of it and of every value in
// it, innermost first.
func walkValues(s *Scanner, spans *[]Span) {
	kind := s.Peek()
	start := s.Pos()
	switch kind {
	case Object:
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			walkValues(s, spans)
		}
	case Array:
		for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
			walkValues(s, spans)
		}
	default:
		s.SkipValue()
	}
	*spans = append(*spans, Span{start, s.Pos()})
}

func errOrNil(err *SyntaxError) error {
	if err == nil {
		return nil
	}
	return err
}

// FuzzAppendCompact checks AppendCompact against encoding/json's Compact on any valid JSON.
func FuzzAppendCompact(f *testing.F) {
	f.Add([]byte(`{ "a" : "x\"y\\" , "b" : [ 1 , true , "\\\"" ] }`))
	f.Add([]byte("[\n  \"\\\\\\\\\\\"\",\n  null\n]"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		if got, want := AppendCompact(nil, doc), compactWant(t, doc); !bytes.Equal(got, want) {
			t.Fatalf("AppendCompact(%q)\n got %q\nwant %q", doc, got, want)
		}
		var s Scanner
		if s.Reset(doc, 100); !s.SkipValue().Present() || s.Err() != nil {
			return // json.Valid takes invalid UTF-8, which the scanner refuses
		}
		if recording := checkAppendValue(t, doc); len(doc) < 16*maxRunBytes && !recording {
			t.Fatalf("stopped recording in %d bytes", len(doc))
		}
	})
}

// TestAppendCompactEndsOnInvalidInput: AppendCompact is for validated values, but a string
// without its closing quote must still end the call, not loop.
func TestAppendCompactEndsOnInvalidInput(t *testing.T) {
	for _, doc := range []string{`"a\"`, `"a`, `["x\\\"`, `"`} {
		got := AppendCompact(nil, []byte(doc))
		if string(got) != doc {
			t.Errorf("AppendCompact(%q) = %q, want the input copied", doc, got)
		}
	}
}

// AppendString writes the lone surrogates AppendUnescaped keeps back as their escapes, so that
// a key holding one round-trips; other invalid bytes become U+FFFD.
func TestAppendStringLoneSurrogates(t *testing.T) {
	for _, tt := range []struct{ escaped, want string }{
		{`\ud800`, `"\ud800"`},
		{`a\uDFFFb`, `"a\udfffb"`},
		{`\ud83d\ude00`, `"😀"`}, // a pair is a character
		{`\udc00\ud800`, `"\udc00\ud800"`},
	} {
		got := string(AppendString(nil, string(AppendUnescaped(nil, []byte(tt.escaped)))))
		if got != tt.want {
			t.Errorf("AppendString(unescaped %s) = %s, want %s", tt.escaped, got, tt.want)
		}
	}
	if got := string(AppendString(nil, "a\xffb\xed\xa0")); got != "\"a\uFFFDb\uFFFD\uFFFD\"" {
		t.Errorf("invalid bytes: got %q", got)
	}
}

// TestShortTokenKeepsEscapesWhole: a token cut to about 64 bytes is never cut inside an escape,
// which would leave a dangling backslash (reading as an escaped "…") or half a \uXXXX.
func TestShortTokenKeepsEscapesWhole(t *testing.T) {
	for _, tt := range []struct{ token, want string }{
		{`"` + strings.Repeat(`\"`, 40) + `"`, `"` + strings.Repeat(`\"`, 31) + `…"`},
		{`"` + strings.Repeat("a", 60) + `\u00e9xxxxxxxxx"`, `"` + strings.Repeat("a", 60) + `…"`},
		{`"` + strings.Repeat("a", 57) + `\u00e9xxxxxxxxx"`, `"` + strings.Repeat("a", 57) + `\u00e9…"`},
		{`"` + strings.Repeat("b", 80) + `"`, `"` + strings.Repeat("b", 63) + `…"`},
		{`"short \"one\""`, `"short \"one\""`},
	} {
		got := ShortToken(tt.token)
		if got != tt.want {
			t.Errorf("ShortToken(%s) = %s, want %s", tt.token, got, tt.want)
		}
	}
}

// TestAppendStringContentWords checks the word-at-a-time AppendStringContent against the same
// escaping a byte at a time, with each byte that ends a plain run at every offset in a word and
// at the end of the string.
func TestAppendStringContentWords(t *testing.T) {
	forEscapes(t, testAppendStringContentWords)
}

// forEscapes runs test with escapeASCII, where the CPU has it, and with the word loop alone.
func forEscapes(t *testing.T, test func(t *testing.T)) {
	saved := useEscapeASCII
	defer func() { useEscapeASCII = saved }()
	for _, on := range []bool{saved, false} {
		useEscapeASCII = on
		t.Run(fmt.Sprintf("escapeASCII=%v", on), test)
	}
}

func testAppendStringContentWords(t *testing.T) {
	for _, odd := range []string{"\"", "\\", "\n", "\x01", "\x1f", "é", "\u2028", "\u2029", "\xff", "\xed\xa0\x80", "東", "😀", "\x7f", " "} {
		for n := 0; n <= 20; n++ {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("a", at) + odd + strings.Repeat("b", n-at)
				if got, want := string(AppendStringContent(nil, s)), string(appendStringContentBytewise(nil, s)); got != want {
					t.Fatalf("AppendStringContent(%q) = %q, want %q", s, got, want)
				}
			}
		}
	}
}

// TestAppendStringContentMixed checks AppendStringContent against the bytewise escaping on
// texts with many characters to escape, near each other and at the ends (warnings' texts hold a
// quote every few words), appended to a dst of every spare capacity from none up, so that every
// growth of the room past dst's end is taken.
func TestAppendStringContentMixed(t *testing.T) {
	forEscapes(t, testAppendStringContentMixed)
}

func testAppendStringContentMixed(t *testing.T) {
	texts := []string{
		`one of "system", "user", "assistant", "tool"`,
		`send it as {"role": "assistant", "tool_calls": [{"id": <call_id>, "name": <name>, "arguments": <arguments>}]}`,
		`""""""""""""""""""`, `\\\\\\\\\\\\`, `"\\"\\"\\"`, "\n\r\t\x00\x1f\"\\",
		"the number 12345678901234567890123\u2026, \u2028\u2029 \xed\xa0\x80 \xff\xfe 東京 😀 \x7f",
		"a\"", "\"a", "\"", "", "é", "abcdefg\"", "abcdefgh\"", "abcdefghi\"", "\"abcdefghijklmnop\"",
	}
	// Runs of ASCII longer than escapeASCII's chunks, and other bytes after them; chunks that
	// double in size, which outgrow the room made for the text as it is.
	texts = append(texts, strings.Repeat(`"`, 100), strings.Repeat(`\`, 70)+"a")
	for n := 28; n <= 100; n += 9 {
		texts = append(texts, strings.Repeat(`ab"c\\`, n/6)+"é"+strings.Repeat(`"x`, n/3), strings.Repeat("a", n)+"\x1f"+`"`)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "bcdefgh", "\"", "\\", "\n", "\x01", "é", "\u2028", "\xff", "\xed\xbf\xbf", "😀", " "}
	for k := range 300 {
		var b strings.Builder
		for range rng.IntN(40 + k%3*40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		want := string(appendStringContentBytewise([]byte("pre"), s))
		for spare := range 3*len(s) + 20 {
			// buf's array goes on past its capacity, where nothing may be written either.
			backing := bytes.Repeat([]byte{0xaa}, 3+spare+80)
			buf := backing[: 3+spare : 3+spare]
			got := AppendStringContent(append(buf[:0], "pre"...), s)
			if bytes.Count(backing[len(buf):], []byte{0xaa}) != 80 {
				t.Fatalf("AppendStringContent(%q) with %d bytes spare wrote past its capacity", s, spare)
			}
			if string(got) != want {
				t.Fatalf("AppendStringContent(%q) with %d bytes spare = %q, want %q", s, spare, got, want)
			}
			// As append, nothing past the length returned is written: a caller's bytes there
			// are kept.
			if len(got) <= len(buf) && &got[0] == &buf[0] && bytes.Count(buf[len(got):], []byte{0xaa}) != len(buf)-len(got) {
				t.Fatalf("AppendStringContent(%q) with %d bytes spare wrote past its length: %q", s, spare, buf[len(got):])
			}
		}
	}
}

// FuzzAppendStringContent: the word-at-a-time escaping is the bytewise one, on any bytes.
func FuzzAppendStringContent(f *testing.F) {
	for _, s := range []string{"", "plain", `a "quoted" text`, "\\\"\n\x00", "\u2028\xed\xa0\x80\xff", "東京😀"} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, spare int) {
		spare = max(0, spare%64)
		saved := useEscapeASCII
		defer func() { useEscapeASCII = saved }()
		want := string(appendStringContentBytewise([]byte("x"), s))
		for _, on := range []bool{saved, false} {
			useEscapeASCII = on
			dst := append(make([]byte, 0, 1+spare), 'x')
			if got := string(AppendStringContent(dst, s)); got != want {
				t.Fatalf("AppendStringContent(%q) with escapeASCII=%v = %q, want %q", s, on, got, want)
			}
		}
	})
}

// appendStringContentBytewise is AppendStringContent one byte at a time, as it was written first.
func appendStringContentBytewise(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
			i += 3
			start = i
			continue
		}
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i += n
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += n
			start = i
			continue
		}
		i += n
	}
	return append(dst, s[start:]...)
}

// TestSpecialLowestByte pins what the word-at-a-time scans rely on: special(x) is zero when
// no byte of x ends a plain run, and else its lowest marked byte is the first that does,
// whatever the bytes above it hold (they may be marked by borrows, or not).
func TestSpecialLowestByte(t *testing.T) {
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xa2, 0xdc, 0xff, 'a'}
	ends := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
	check := func(w [8]byte) {
		t.Helper()
		want := -1
		for i, c := range w {
			if ends(c) {
				want = i
				break
			}
		}
		m := special(binary.LittleEndian.Uint64(w[:]))
		got := -1
		if m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if got != want {
			t.Fatalf("special(% x): first marked byte %d, want %d", w, got, want)
		}
	}
	// Every edge byte at every position over plain bytes, and every pair of edge bytes at
	// every two positions: a borrow from one into the other is where such tests go wrong.
	for i := range 8 {
		for j := i; j < 8; j++ {
			for _, a := range edges {
				for _, b := range edges {
					w := [8]byte{'k', 'e', 'y', '_', 'n', 'a', 'm', 'e'}
					w[i], w[j] = a, b
					check(w)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w [8]byte
		for k := range w {
			w[k] = edges[rng.IntN(len(edges))]
		}
		check(w)
	}
}

// TestKeyEveryLength walks objects whose key has every length up to 40, with an escape, a
// non-ASCII character, a quote, a control character or a raw byte at every place in it, and
// the object cut short after every byte: the key must read as encoding/json reads it, and a
// key json rejects must be an error, whichever of the key's scans (the words member reads
// itself, in one or two words, memberLong's, or scanString) settles it. The members that
// follow have whitespace after ':' or before it, and a long value after them leaves member
// room for its words however short the key.
func TestKeyEveryLength(t *testing.T) {
	inserts := []string{``, `\n`, `\"`, `\u00e9`, `é`, `東`, "\x01", "\xff", `"`, `\`}
	tails := []string{`:1 , "b" :2}`, `: 1,"b":"` + strings.Repeat("v", 24) + `"}`, ":\n\t1,\"b\":  \"" + strings.Repeat("v", 24) + `"}`}
	for n := range 41 {
		for at := 0; at <= n; at++ {
			for _, ins := range inserts {
				for _, tail := range tails {
					key := strings.Repeat("k", at) + ins + strings.Repeat("k", n-at)
					doc := []byte(`{"` + key + tail)
					for cut := len(doc); cut >= len(doc)-12 && cut > 0; cut-- {
						in := doc[:cut]
						var want map[string]any
						wantErr := json.Unmarshal(in, &want) != nil || !utf8.Valid(in)
						var s Scanner
						s.Reset(in, DefaultMaxDepth)
						got := map[string]bool{}
						for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
							got[string(s.KeyName())] = true
							s.SkipValue()
						}
						if ok := s.AtEnd(); ok == wantErr {
							t.Fatalf("%q: walk ok %v, json.Unmarshal error %v (%v)", in, ok, wantErr, s.Err())
						}
						if !wantErr {
							for k := range want {
								if _, ok := got[k]; !ok {
									t.Fatalf("%q: key %q missing from %v", in, k, got)
								}
							}
							require.Len(t, got, len(want), "%q", in)
						}
					}
				}
			}
		}
	}
}

// TestPeekEveryByte pins Peek's table: a number for '-' and digits, the byte itself for any
// other, after whitespace or not, and None at the end of input.
func TestPeekEveryByte(t *testing.T) {
	for c := range 256 {
		want := Kind(c)
		if c == '-' || (c >= '0' && c <= '9') {
			want = Number
		}
		for _, in := range [][]byte{{byte(c)}, {' ', byte(c)}, {'\n', '\t', byte(c)}} {
			var s Scanner
			s.Reset(in, DefaultMaxDepth)
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				want = None
			}
			assert.Equal(t, want, s.Peek(), "%q", in)
		}
	}
}

// An empty string appends nothing and, as append, allocates nothing: a nil dst stays nil.
func TestAppendStringContentEmpty(t *testing.T) {
	if got := AppendStringContent(nil, ""); got != nil {
		t.Errorf("AppendStringContent(nil, \"\") = %#v, want nil", got)
	}
	dst := make([]byte, 3)
	if got := AppendStringContent(dst, ""); len(got) != 3 || cap(got) != 3 {
		t.Errorf("AppendStringContent(3 bytes full, \"\") has len %d, cap %d, want 3, 3", len(got), cap(got))
	}
}
