package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A body of several results, one per line (a JSON Lines file sent whole), is a 400 whose
// message is the core's, which says to send one result per input, then what that means over
// HTTP. Other bodies with data after the value keep the core's message alone, and the error
// object keeps the core's location.
func TestJSONLinesBodyGetsAHint(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	const core = "invalid JSON at line 2, column 1 (byte offset 23): unexpected character '{' after the top-level value; " +
		"expected exactly one JSON value; another JSON value starts on this line, as in JSON Lines (one result per line): send one result per input"
	tests := []struct {
		name, body, want string
	}{
		{"JSON Lines", "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n", core + "; " + jsonLinesHint},
		{"JSON Lines called a form (curl --data-binary with no type)", "{\"final_response\":\"a\"}\n{\"final_response\":\"b\"}\n", core + "; " + jsonLinesHint},
		{"two values on one line", `{"final_response":"a"} {"final_response":"b"}`,
			"invalid JSON at line 1, column 24 (byte offset 23): unexpected character '{' after the top-level value; expected exactly one JSON value"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := map[string]string{"Content-Type": "application/json"}
			if i == 1 {
				header["Content-Type"] = "application/x-www-form-urlencoded"
			}
			w := do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(tt.body), header: header})
			require.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
			class, message := errorOf(t, w.Body.Bytes())
			assert.Equal(t, "InvalidJSON", class)
			assert.Equal(t, tt.want, message)
			assert.NotContains(t, message, "--jsonl", "a command-line flag means nothing to an HTTP client")
			var e struct {
				Error struct{ Line, Column, Offset int } `json:"error"`
			}
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e))
			assert.NotZero(t, e.Error.Line, "the location is still there")
		})
	}
}
