package normalize_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// lineOf is the line NormalizeLine says it normalizes: data up to its first '\n', a '\r'
// before the '\n' left out, and where the line ends.
func lineOf(data []byte) (line []byte, end int) {
	end = bytes.IndexByte(data, '\n')
	if end < 0 {
		return data, len(data)
	}
	line = data[:end]
	if end > 0 && line[end-1] == '\r' {
		line = line[:end-1]
	}
	return line, end
}

// checkLine holds NormalizeLine(data) to Normalize of the line alone: the same end, and the
// same record (plain and explained, its size hint and input too) or the same error object.
func checkLine(t *testing.T, n *normalize.Normalizer, data []byte) {
	t.Helper()
	line, wantEnd := lineOf(data)
	want, wantErr := n.Normalize(line)
	got, end, err := n.NormalizeLine(data)
	if end != wantEnd {
		t.Fatalf("end %d, want %d, in %q", end, wantEnd, data)
	}
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("error %v, want %v, line %q", err, wantErr, line)
	}
	if err != nil {
		if g, w := normalize.AppendError(nil, err), normalize.AppendError(nil, wantErr); !bytes.Equal(g, w) {
			t.Fatalf("error object\n%s\nwant\n%s\nline %q", g, w, line)
		}
		return
	}
	if g, w := got.AppendJSON(nil), want.AppendJSON(nil); !bytes.Equal(g, w) {
		t.Fatalf("record\n%s\nwant\n%s\nline %q", g, w, line)
	}
	if g, w := got.SizeHint(), want.SizeHint(); g != w {
		t.Fatalf("size hint %d, want %d, line %q", g, w, line)
	}
	if g := got.View().Input(); !bytes.Equal(g, line) {
		t.Fatalf("input %q, want the line %q", g, line)
	}
	got.Release()
	want.Release()
}

// NormalizeLine normalizes the first line of what it is given as Normalize normalizes that
// line alone, whatever follows it: every golden input (indented ones hold many lines, of
// which the first is rarely JSON), followed by nothing, "\n", "\r\n" and another result, and
// under limits just below, at and above the line's size.
func TestNormalizeLine(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(goldenDir, "*.input.json"))
	explain, _ := filepath.Glob(filepath.Join(explainDir, "*.input.json"))
	inputs = append(inputs, explain...)
	if len(inputs) < 50 {
		t.Fatalf("only %d golden inputs", len(inputs))
	}
	next := []byte(`{"final_response":"the next line"}`)
	for _, path := range inputs {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		compact := bytes.TrimRight(raw, "\r\n")
		for _, doc := range [][]byte{raw, compact, bytes.ReplaceAll(compact, []byte("\n"), nil)} {
			for _, tail := range []string{"", "\n", "\r\n", "\r", " \t\r\n", "\n\n", "x\n"} {
				for _, rest := range [][]byte{nil, next, []byte("\n")} {
					data := append(append(append([]byte{}, doc...), tail...), rest...)
					line, _ := lineOf(data)
					size := int64(len(line))
					for _, n := range []*normalize.Normalizer{
						normalize.New(),
						normalize.New(normalize.WithExplain()),
						normalize.New(normalize.WithMaxBytes(max(size-1, 1))),
						normalize.New(normalize.WithMaxBytes(max(size, 1))),
						normalize.New(normalize.WithMaxBytes(size + 1)),
					} {
						checkLine(t, n, data)
					}
				}
			}
		}
	}
}

// FuzzNormalizeLine holds NormalizeLine to Normalize of the line alone for any input, under
// no limit to speak of and under one about half the input's size.
func FuzzNormalizeLine(f *testing.F) {
	for _, s := range []string{
		"{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}",
		"{\"final_response\":\"a\",\n\"messages\":[]}",
		"{\"final_response\":\"a\"}\r\n",
		"\"bare\" \t\r\nrest",
		"{\"final_response\":\"a\"} x\n",
		"[1,\n2]",
		"\n",
		"",
		"{\"final_response\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}, {\"role\": 7}]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLine(t, normalize.New(normalize.WithExplain()), data)
		checkLine(t, normalize.New(normalize.WithMaxBytes(int64(len(data)/2+1))), data)
	})
}
