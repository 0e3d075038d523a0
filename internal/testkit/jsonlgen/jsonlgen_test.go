package jsonlgen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name      string
		malformed bool
	}{
		{"valid only", false},
		{"with malformed lines", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a, b bytes.Buffer
			n, err := Write(&a, 2<<20, 5, tt.malformed)
			require.NoError(t, err)
			_, err = Write(&b, 2<<20, 5, tt.malformed)
			require.NoError(t, err)
			assert.Equal(t, a.String(), b.String(), "the same seed gives the same bytes")
			assert.GreaterOrEqual(t, a.Len(), 2<<20)

			lines := strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n")
			assert.Equal(t, int(n), len(lines))
			var invalid, blank, lone int
			for _, l := range lines {
				switch {
				case strings.TrimSpace(l) == "":
					blank++
				case !json.Valid([]byte(l)):
					invalid++
				}
				if strings.Contains(l, `\ud800`) {
					lone++
				}
			}
			assert.Positive(t, blank)
			if tt.malformed {
				assert.Positive(t, invalid)
				assert.Positive(t, lone)
			} else {
				assert.Zero(t, invalid, "every line is JSON, so jq reads the whole file")
				assert.Zero(t, lone, "no lone surrogates, which jq rejects")
			}
		})
	}
}
