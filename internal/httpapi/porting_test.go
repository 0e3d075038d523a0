package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// Tests from a review by someone porting an agent (2026-11-30): a misspelt explain was
// ignored, the 413 named no way out, and a form sent instead of JSON got only the parser's
// message.

// A misspelt explain is a 400 that names it as sent: ignored, ?explian=true answered 200
// without the diagnostics the client asked for. Other parameters are ignored (a gateway's key,
// a cache-buster): the answer is the record, as before.
func TestMisspeltExplainIsBadRequest(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	const tail = ": did you mean explain? Names are case-sensitive; POST /v1/normalize reads only explain (explain=true or explain=false, or 1, 0) and ignores other parameters"
	tests := []struct {
		name    string
		query   string
		message string // the whole message, when set
		has     []string
		hasNot  []string
	}{
		{name: "transposed", query: "explian=true", message: `query parameter "explian"` + tail},
		{name: "capitalised", query: "Explain=true", message: `query parameter "Explain"` + tail},
		{name: "upper case", query: "EXPLAIN=1", has: []string{`"EXPLAIN"`}},
		{name: "letter dropped", query: "explan=true", has: []string{`"explan"`}},
		{name: "plural", query: "explains=true", has: []string{`"explains"`}},
		{name: "next to a good explain", query: "explain=true&Explain=1", has: []string{`"Explain"`}},
		{name: "among others", query: "_=1700000000&explian=1&code=abc", message: `query parameter "explian"` + tail},
		{name: "as sent, percent-encoded", query: "ex%20plain=1", has: []string{`"ex%20plain"`}},
		{name: "two, each once, in order", query: "Explain=1&explian=2&Explain=3", message: `query parameters "Explain", "explian"` + tail},
		{name: "many", query: "Explain=1&explian=1&explan=1&explains=1&EXPLAIN=1", has: []string{`query parameters "Explain", "explian", "explan" and 2 more: did you mean explain?`}},
		{name: "before a bad explain value", query: "explian=1&explain=maybe", has: []string{`"explian"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, s, call{method: "POST", target: "/v1/normalize?" + tt.query, body: strings.NewReader(okResult)})
			require.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
			class, message := errorOf(t, w.Body.Bytes())
			assert.Equal(t, ClassBadRequest, class)
			if tt.message != "" {
				assert.Equal(t, tt.message, message)
			}
			assert.Contains(t, message, tail)
			for _, want := range tt.has {
				assert.Contains(t, message, want)
			}
		})
	}
}

// Parameters that are not explain, nor near it, change nothing: the record comes back, with
// diagnostics only when explain asks.
func TestOtherQueryParametersAreIgnored(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, tt := range []struct {
		query string
		diag  bool
	}{
		{"verbose=1", false}, {"_=1700000000", false}, {"code=abc%3D%3D", false}, {"=1", false},
		{"explanation=true", false}, {strings.Repeat("n", 500) + "=1", false},
		{"explain=true&debug=1", true}, {"api-key=x&explain=1", true},
	} {
		t.Run(tt.query[:min(len(tt.query), 20)], func(t *testing.T) {
			w := do(t, s, call{method: "POST", target: "/v1/normalize?" + tt.query, body: strings.NewReader(okResult)})
			require.Equal(t, http.StatusOK, w.Code, w.Body.String())
			assert.Equal(t, tt.diag, strings.Contains(w.Body.String(), `"diagnostics"`))
		})
	}
}

// explain itself is taken however it is sent; other routes keep ignoring query strings (a
// probe or a cache-buster on GET /healthz is no mistake worth a failure).
func TestExplainStillAcceptedAndOtherRoutesUnchanged(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	s.SetReady(true)
	for _, query := range []string{"explain=true", "expl%61in=true", "explain=true&", "&explain=1"} {
		w := do(t, s, call{method: "POST", target: "/v1/normalize?" + query, body: strings.NewReader(okResult)})
		require.Equal(t, http.StatusOK, w.Code, "%s: %s", query, w.Body.String())
		assert.Contains(t, w.Body.String(), `"diagnostics"`, query)
	}
	for _, target := range []string{"/healthz?x=1", "/readyz?probe=1", "/openapi.json?v=2"} {
		w := do(t, s, call{method: "GET", target: target})
		assert.Equal(t, http.StatusOK, w.Code, target)
	}
}

func TestNearExplain(t *testing.T) {
	for _, tt := range []struct {
		name string
		near bool
	}{
		{"explian", true}, {"Explain", true}, {"EXPLAIN", true}, {"explan", true}, {"explains", true},
		{"xeplain", true}, {"explain ", true}, {"expalin", true}, {"eplian", true},
		{"plain", true}, // two letters dropped
		{"explanation", false}, {"verbose", false}, {"debug", false}, {"e", false}, {"", false},
		{"exp", false}, {"diagnostics", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.near, nearExplain(tt.name))
		})
	}
}

// emptyGzipMembers is a gzip body of empty members, past the compressed bound for limit, then
// one real member: it decodes to next to nothing, so only the compressed bound can stop it.
func emptyGzipMembers(t *testing.T, limit int64) []byte {
	t.Helper()
	var empty bytes.Buffer
	zw := gzip.NewWriter(&empty)
	require.NoError(t, zw.Close())
	members := int(gzipWireLimit(limit))/empty.Len() + 10
	return append(bytes.Repeat(empty.Bytes(), members), gzipped(t, []byte(`"x"`))...)
}

// Every 413 says the size found, the limit, how the operator raises it and what a client
// trims; however the size was found, the message reads the same way, and the class, status
// and limit stay the core's.
func TestTooLargeSaysHowToFitUnderTheLimit(t *testing.T) {
	const limit = 1024
	s, _ := newTestServer(t, Config{BodyLimit: limit})
	big := `{"final_response":"` + strings.Repeat("a", 2000) + `"}`
	const tail = "; the operator raises the limit with normalizer serve --body-limit or NORMALIZER_BODY_LIMIT; " +
		"a client sends less by trimming the result's messages (the transcript), which is usually most of its size " +
		"(gzip does not help: the limit counts decoded bytes)"
	gzipHeader := map[string]string{"Content-Encoding": "gzip"}
	tests := []struct {
		name    string
		body    []byte
		header  map[string]string
		chunked bool
		message string
	}{
		{name: "Content-Length", body: []byte(big),
			message: "request body of " + strconv.Itoa(len(big)) + " bytes (its Content-Length) is over the body limit of 1024 bytes (1KiB)" + tail},
		{name: "read while streaming", body: []byte(big), chunked: true,
			message: "request body of more than 1024 bytes (reading stopped there) is over the body limit of 1024 bytes (1KiB)" + tail},
		{name: "gzip decoded", body: gzipped(t, []byte(big)), header: gzipHeader,
			message: "gzip body decoding to more than 1024 bytes (decoding stopped there) is over the body limit of 1024 bytes (1KiB)" + tail},
		{name: "gzip compressed bound", body: emptyGzipMembers(t, limit), header: gzipHeader, chunked: true,
			message: "gzip body of more than " + strconv.FormatInt(gzipWireLimit(limit), 10) +
				" compressed bytes (reading stopped there) is over the bound on compressed bytes for the body limit of 1024 bytes (1KiB)" +
				": limit + limit/1024 + 64 KiB, more than deflate needs for any body within the limit" + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/v1/normalize", bytes.NewReader(tt.body))
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			if tt.chunked {
				req.ContentLength = -1
			}
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			require.Equal(t, http.StatusRequestEntityTooLarge, w.Code, w.Body.String())
			var e struct {
				Error struct {
					Class   string `json:"class"`
					Message string `json:"message"`
					Limit   *int64 `json:"limit"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &e))
			assert.Equal(t, "PayloadTooLarge", e.Error.Class)
			assert.Equal(t, tt.message, e.Error.Message)
			require.NotNil(t, e.Error.Limit)
			assert.Equal(t, int64(limit), *e.Error.Limit)
		})
	}
}

// The core's own PayloadTooLargeError, should it ever reach the handler, reads like the others.
func TestTooLargeFromTheCoreReadsTheSame(t *testing.T) {
	for _, ptl := range []*normalize.PayloadTooLargeError{{Size: 3000, Limit: 2048}, {Size: 2049, Limit: 2048, AtLeast: true}} {
		err := rejection(ptl, httptest.NewRequest("POST", "/v1/normalize", nil), nil)
		got := string(normalize.AppendError(nil, err))
		assert.Contains(t, got, `"class":"PayloadTooLarge"`)
		assert.Contains(t, got, "is over the body limit of 2048 bytes (2KiB); the operator raises the limit with normalizer serve --body-limit")
		assert.Contains(t, got, `"limit":2048}`)
	}
}

func TestLimitText(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{1024, "1024 bytes (1KiB)"}, {20 << 20, "20971520 bytes (20MiB)"}, {512 << 10, "524288 bytes (512KiB)"},
		{3 << 30, "3221225472 bytes (3GiB)"}, {1000, "1000 bytes"}, {MaxBodyLimit, "2147483647 bytes"}, {1, "1 bytes"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, limitText(tt.n))
		})
	}
}

// multipartBody is what curl -F result=@result.json sends: the JSON as a file field of a form.
func multipartBody(t *testing.T, json string) (body []byte, contentType string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("result", "result.json")
	require.NoError(t, err)
	_, err = fw.Write([]byte(json))
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	return b.Bytes(), mw.FormDataContentType()
}

// A body that is not JSON and came as a form gets a hint on sending the JSON itself; a form
// content type with a JSON body (curl -d @result.json) is normalized as usual. The hint is
// added to the core's message only: class, status, line, column and offset are the core's.
func TestFormBodiesGetAHint(t *testing.T) {
	multi, multiType := multipartBody(t, okResult)
	const form = "application/x-www-form-urlencoded"
	tests := []struct {
		name        string
		body        []byte
		contentType string
		hint        string // "" when the answer must be exactly single-mode normalize's
	}{
		{name: "multipart", body: multi, contentType: multiType, hint: multipartHint},
		{name: "multipart, odd case and spaces", body: multi, contentType: " Multipart/Form-Data ; boundary=x", hint: multipartHint},
		{name: "form key=value", body: []byte("final_response=The+refund+was+issued."), contentType: form, hint: formEncodedHint},
		{name: "form pairs", body: []byte("result=%7B%22final_response%22%3A%22x%22%7D&explain=1"), contentType: form, hint: formEncodedHint},
		{name: "form with charset", body: []byte("a[b]=1"), contentType: form + "; charset=utf-8", hint: formEncodedHint},
		{name: "form, not key=value", body: []byte("hello world"), contentType: form},
		{name: "form, broken JSON", body: []byte(`{"final_response":`), contentType: form},
		{name: "form, JSON", body: []byte(okResult), contentType: form},
		{name: "form, bare string", body: []byte(`"done"`), contentType: form},
		{name: "multipart, JSON", body: []byte(okResult), contentType: "multipart/form-data; boundary=x"},
		{name: "multipart, JSON with a trailing comma", body: []byte(`{"final_response":"a",}`), contentType: "multipart/form-data; boundary=x"},
		{name: "form, shape error", body: []byte(`{"output":"x"}`), contentType: form},
		{name: "JSON type, key=value", body: []byte("final_response=done"), contentType: "application/json"},
		{name: "no type, key=value", body: []byte("final_response=done")},
		{name: "text type, multipart-looking", body: multi, contentType: "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, logs := newTestServer(t, Config{})
			header := map[string]string{}
			if tt.contentType != "" {
				header["Content-Type"] = tt.contentType
			}
			w := do(t, s, call{method: "POST", target: "/v1/normalize", body: bytes.NewReader(tt.body), header: header})
			want, class := expectedOutput(s.plain, tt.body)
			if tt.hint == "" {
				assert.Equal(t, string(want), w.Body.String())
				if class == "" {
					assert.Equal(t, http.StatusOK, w.Code)
				}
				return
			}
			require.Equal(t, "InvalidJSON", class)
			require.Equal(t, http.StatusBadRequest, w.Code)
			var core, got map[string]map[string]any
			require.NoError(t, json.Unmarshal(want, &core))
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &got))
			assert.Equal(t, core["error"]["message"].(string)+"; "+tt.hint, got["error"]["message"])
			delete(core["error"], "message")
			delete(got["error"], "message")
			assert.Equal(t, core, got, "class, line, column and offset are the core's")
			assert.NotContains(t, logs.String(), string(tt.body[:min(len(tt.body), 20)]), "the body is not logged")
		})
	}
}

// The same over a real connection, sent as a Go client sends forms.
func TestFormHintOverTheWire(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	resp, err := http.PostForm(srv.URL+"/v1/normalize", url.Values{"final_response": {"done"}})
	require.NoError(t, err)
	var e struct {
		Error struct{ Class, Message string } `json:"error"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, "InvalidJSON", e.Error.Class)
	assert.True(t, strings.HasSuffix(e.Error.Message, "; "+formEncodedHint), e.Error.Message)

	multi, multiType := multipartBody(t, `{"final_response":"done"}`)
	resp, err = http.Post(srv.URL+"/v1/normalize", multiType, bytes.NewReader(multi))
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.True(t, strings.HasSuffix(e.Error.Message, "; "+multipartHint), e.Error.Message)

	// curl -d @result.json: a JSON body called a form is normalized.
	resp, err = http.Post(srv.URL+"/v1/normalize", "application/x-www-form-urlencoded", strings.NewReader(okResult))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestLooksFormEncoded(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"a=1", true}, {"final_response=done&x=1", true}, {"a%5Bb%5D=1", true}, {"a[b]=1", true}, {"x.y-z_~*+=", true},
		{"=1", false}, {"", false}, {"abc", false}, {`{"a":"b=c"}`, false}, {`"a=b"`, false}, {"a b=c", false},
		{"[1]=2", false}, {"1=2", true}, {"-x=1", true}, {"true", false}, {"null=", true}, // all invalid JSON
	} {
		t.Run(tt.body, func(t *testing.T) {
			assert.Equal(t, tt.want, looksFormEncoded([]byte(tt.body)))
		})
	}
}

// A porter's metadata keys under another SDK's names (input_tokens, output_tokens) are kept as
// ordinary keys without a warning; ?explain=true notes them, as the command line does, and
// without explain the answer is the core's plain record, byte for byte.
func TestExplainNotesMetadataKeysOfAnotherSDK(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	const body = `{"final_response":"x","metadata":{"input_tokens":12,"output_tokens":-1}}`
	w := do(t, s, call{method: "POST", target: "/v1/normalize?explain=true", body: strings.NewReader(body)})
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var rec struct {
		SoftWarnings []string `json:"soft_warnings"`
		Diagnostics  []struct {
			Path, Pointer, Code, Action, Severity, Message string
		} `json:"diagnostics"`
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &rec))
	assert.Empty(t, rec.SoftWarnings, "a note is not a soft warning")
	require.Len(t, rec.Diagnostics, 2, w.Body.String())
	for i, key := range []string{"input_tokens", "output_tokens"} {
		d := rec.Diagnostics[i]
		assert.Equal(t, "metadata."+key, d.Path)
		assert.Equal(t, "/metadata/"+key, d.Pointer)
		assert.Equal(t, "metadata_key_variant", d.Code)
		assert.Equal(t, "kept", d.Action)
		assert.Equal(t, "note", d.Severity)
		assert.Contains(t, d.Message, `rename it "total_`+key+`"`)
	}

	w = do(t, s, call{method: "POST", target: "/v1/normalize", body: strings.NewReader(body)})
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	plain, err := normalize.Normalize([]byte(body))
	require.NoError(t, err)
	assert.Equal(t, string(plain.AppendJSON(nil)), strings.TrimSuffix(w.Body.String(), "\n"))
	assert.NotContains(t, w.Body.String(), "diagnostics")
}
