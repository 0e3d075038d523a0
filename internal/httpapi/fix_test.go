package httpapi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFix(t *testing.T) {
	s, logs := newTestServer(t, Config{BodyLimit: 1024, MemoryBudget: 1 << 30})
	s.SetReady(true)
	const doc = "{\"final_response\": \"ok\",\n \"messages\": [{\"role\": \"User\", \"content\": \"hi\"}, {\"role\": \"developer\", \"content\": \"x\"}]}"
	const safe = "{\"final_response\": \"ok\",\n \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"developer\", \"content\": \"x\"}]}"
	const all = "{\"final_response\": \"ok\",\n \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"system\", \"content\": \"x\"}]}"
	for _, tc := range []struct {
		target, body string
		status       int
		want, ctype  string
		applied      string
	}{
		{"/v1/fix", doc, 200, safe, "application/json", "1"},
		{"/v1/fix?unsafe=true", doc, 200, all, "application/json", "2"},
		{"/v1/fix?unsafe=false&diff=1", doc, 200, "--- a/result.json\n+++ b/result.json\n@@ -1,2 +1,2 @@\n {\"final_response\": \"ok\",\n- \"messages\": [{\"role\": \"User\", \"content\": \"hi\"}, {\"role\": \"developer\", \"content\": \"x\"}]}\n\\ No newline at end of file\n+ \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"developer\", \"content\": \"x\"}]}\n\\ No newline at end of file\n", "text/x-diff; charset=utf-8", "1"},
		{"/v1/fix?diff=true", `{"final_response": "fine"}`, 200, "", "text/x-diff; charset=utf-8", "0"},
		{"/v1/fix", `{"final_response": "fine"}`, 200, `{"final_response": "fine"}`, "application/json", "0"},
		{"/v1/fix", `{"final_response": ""}`, 422, "", "application/json", ""},
		{"/v1/fix", `{"final_response": "` + strings.Repeat("a", 2000) + `"}`, 413, "", "application/json", ""},
		{"/v1/fix?unsafe=maybe", doc, 400, "", "application/json", ""},
		{"/v1/fix?diff=true&diff=false", doc, 400, "", "application/json", ""},
	} {
		w := do(t, s, call{method: "POST", target: tc.target, body: strings.NewReader(tc.body)})
		require.Equal(t, tc.status, w.Code, "%s: %s", tc.target, w.Body)
		require.Equal(t, tc.ctype, w.Header().Get("Content-Type"), tc.target)
		require.Equal(t, tc.applied, w.Header().Get("Normalizer-Fixes-Applied"), tc.target)
		if tc.status == 200 {
			require.Equal(t, tc.want, w.Body.String(), tc.target)
		} else {
			errorClass(t, w.Body.Bytes())
		}
	}
	require.Contains(t, logs.String(), `"route":"/v1/fix"`)
	w := do(t, s, call{method: "OPTIONS", target: "/v1/fix"})
	require.Equal(t, "OPTIONS, POST", w.Header().Get("Allow"))
}
