package batch

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// splitLines is the line rule of the package, written the obvious way: cut at "\n", drop one
// "\r" before it, and no line after a final "\n".
func splitLines(input string) []string {
	if input == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(input, "\n"), "\n")
	for i, l := range lines {
		if i < len(lines)-1 || strings.HasSuffix(input, "\n") {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	return lines
}

// FuzzRun checks that Run prints, for any input, what normalizing its lines one by one
// prints, with a limit small enough that many lines go over it; for input that strongWide
// finds in UTF-16 or UTF-32, what wideSequential works out. RunBytes, on the input in memory,
// must print the same.
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"", "\n", "\r\n", "\n\n", `"a"`, `"a"` + "\r\n" + `{"final_response":"b"}`,
		`{"final_response":"x","messages":[{"role":"developer"}]}` + "\n\n" + `"` + strings.Repeat("y", 70) + "\"\r",
		"\r\r\n\r", "{\n}\n",
		string(wideText("{\"final_response\":\"a\"}\r\n\n\"b\"", "UTF-16LE", true)),
		string(wideText("\"a\"\n\"b\"\n", "UTF-16BE", false)),
		string(wideText("\"a\"\r\n\"b\"", "UTF-32LE", false)) + "\x00",
		"1\x002\x00\n\"a\"\n\"b\"\n", "\x001\x00\n\"a\"\n", "\x01\x00\x02\x00\n\x00",
	} {
		f.Add(seed, uint8(2), uint8(16))
	}
	f.Fuzz(func(t *testing.T, input string, workers, chunk uint8) {
		const limit = 48
		n := normalize.New(normalize.WithMaxBytes(limit))
		want := sequential(n, splitLines(input), limit)
		w, _ := jsonscan.DetectWide([]byte(input))
		wide := strongWide([]byte(input))
		if wide {
			want = wideSequential(n, []byte(input), w, limit)
		}
		var out bytes.Buffer
		stats, err := Run(context.Background(), iotest.HalfReader(strings.NewReader(input)), &out, n,
			Options{Workers: int(workers%8) + 1, ChunkBytes: int(chunk) + 1, MaxLineBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, out.Bytes()) {
			t.Fatalf("Run(%q) mismatch:\nwant %s\ngot  %s", input, want, out.Bytes())
		}
		if (stats.NotUTF8 != nil) != wide {
			t.Fatalf("Run(%q): NotUTF8 = %v, want it set: %v", input, stats.NotUTF8, wide)
		}
		if stats.BytesIn != int64(len(input)) {
			t.Fatalf("Run(%q): BytesIn = %d, want %d", input, stats.BytesIn, len(input))
		}
		out.Reset()
		bstats, err := RunBytes(context.Background(), []byte(input), &out, n,
			Options{Workers: int(workers%8) + 1, ChunkBytes: int(chunk) + 1, MaxLineBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, out.Bytes()) {
			t.Fatalf("RunBytes(%q) mismatch:\nwant %s\ngot  %s", input, want, out.Bytes())
		}
		if (bstats.NotUTF8 == nil) != (stats.NotUTF8 == nil) || bstats.NotUTF8 != nil && *bstats.NotUTF8 != *stats.NotUTF8 {
			t.Fatalf("RunBytes(%q): NotUTF8 %v, Run's %v", input, bstats.NotUTF8, stats.NotUTF8)
		}
		if bstats.NotUTF8, stats.NotUTF8 = nil, nil; bstats != stats {
			t.Fatalf("RunBytes(%q): stats %+v, Run's %+v", input, bstats, stats)
		}
	})
}
