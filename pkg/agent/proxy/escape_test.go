package proxy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolNameEscapedAsPythonQuote(t *testing.T) {
	for name, want := range map[string]string{
		"get_order":   "get_order",
		"ns:tool@x":   "ns%3Atool%40x",
		"a b/c":       "a%20b%2Fc",
		"é":           "%C3%A9",
		"v1.2-beta~x": "v1.2-beta~x",
	} {
		assert.Equal(t, want, escapeTool(name), name)
	}
}

func TestNilMapArgumentsSendEmptyObject(t *testing.T) {
	var args map[string]any
	body, err := encodeArgs(args)
	require.NoError(t, err)
	assert.Equal(t, "{}", string(body))
	var p *struct{ X int }
	body, err = encodeArgs(p)
	require.NoError(t, err)
	assert.Equal(t, "{}", string(body))
}
