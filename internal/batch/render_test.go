package batch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// placeRender writes, for each line, where it lies in the input and what it holds: the sum of
// Raw before a line is its offset, and input[off:off+Size] its bytes.
func placeRender(dst []byte, n *normalize.Normalizer, l Line) ([]byte, Outcome) {
	class := ""
	err := l.Err
	if err == nil {
		var res *normalize.Result
		if res, err = n.Normalize(l.Bytes); err == nil {
			res.Release()
		}
	}
	if c, ok := normalize.ClassOf(err); ok {
		class = string(c)
	}
	kept := l.Err == nil && int64(len(l.Bytes)) == l.Size
	return fmt.Appendf(dst, "%d %d %t %s\n", l.Raw, l.Size, kept, class), Outcome{Class: normalize.Class(class)}
}

// Options.Render sees every line with its size and the bytes it took, so that the lines can
// be found again in the input, and the lines the pipeline rejects unread as errors; whatever
// the reads' sizes and however many workers.
func TestRenderPlaces(t *testing.T) {
	ok := `{"final_response":"a"}`
	big := `"` + strings.Repeat("x", 100) + `"`
	input := ok + "\r\n\n" + big + "\n" + ok + "\n" + strings.Repeat("y", 5000) + "\r\n" + `{"x":1}`
	want := []struct {
		line  string
		class string
	}{
		{ok, ""},
		{"", "InvalidJSON"},
		{big, "PayloadTooLarge"},
		{ok, ""},
		{strings.Repeat("y", 5000), "PayloadTooLarge"},
		{`{"x":1}`, "ResponseShapeError"},
	}
	n := normalize.New()
	for _, workers := range []int{1, 3} {
		for _, name := range []string{"whole", "one byte at a time"} {
			t.Run(fmt.Sprintf("%s/%d workers", name, workers), func(t *testing.T) {
				var r io.Reader = strings.NewReader(input)
				if name != "whole" {
					r = iotest.OneByteReader(r)
				}
				var out bytes.Buffer
				stats, err := Run(context.Background(), r, &out, n,
					Options{Workers: workers, MaxLineBytes: 40, Render: placeRender})
				require.NoError(t, err)
				assert.Equal(t, int64(len(want)), stats.Lines)
				assert.Equal(t, int64(len(input)), stats.BytesIn)
				assert.Equal(t, int64(2), stats.Records)
				lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
				require.Len(t, lines, len(want))
				var off int64
				for i, l := range lines {
					var raw, size int64
					var kept bool
					var class string
					_, _ = fmt.Sscanf(l, "%d %d %t %s", &raw, &size, &kept, &class)
					assert.Equal(t, want[i].line, input[off:off+size], "line %d", i+1)
					assert.Equal(t, want[i].class, class, "line %d", i+1)
					assert.Equal(t, want[i].class != "PayloadTooLarge", kept, "line %d: its bytes are given unless it is over the limit", i+1)
					off += raw
				}
				assert.Equal(t, int64(len(input)), off)
			})
		}
	}
}

// Without Render the output is AppendLine's and AppendError's, as before the hook.
func TestRenderNilIsRecords(t *testing.T) {
	n := normalize.New(normalize.WithMaxBytes(40))
	input := "{\"final_response\":\"a\"}\n\n" + strings.Repeat("x", 41)
	var out bytes.Buffer
	_, err := Run(context.Background(), strings.NewReader(input), &out, n, Options{MaxLineBytes: 40})
	require.NoError(t, err)
	assert.Equal(t, string(sequential(n, strings.Split(input, "\n"), 40)), out.String())
}
