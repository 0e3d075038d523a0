package httpapi

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	return v
}

func TestOpenAPIValidAgainstMetaSchema(t *testing.T) {
	meta, err := os.ReadFile("testdata/openapi-3.1.schema.json")
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("https://spec.openapis.org/oas/3.1/schema/2021-04-15", decodeAny(t, meta)))
	sch, err := c.Compile("https://spec.openapis.org/oas/3.1/schema/2021-04-15")
	require.NoError(t, err)
	require.NoError(t, sch.Validate(decodeAny(t, openAPI)))
}

// docURL is where compileDoc puts the document, so that its schemas can be used by pointer.
const docURL = "https://normalizer.test/openapi.json"

// compileDoc compiles the document so that its schemas can be used by pointer.
func compileDoc(t *testing.T) *jsonschema.Compiler {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	require.NoError(t, c.AddResource(docURL, decodeAny(t, openAPI)))
	return c
}

func TestOpenAPIComponentSchemasCompile(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	require.NotEmpty(t, doc.Components.Schemas)
	c := compileDoc(t)
	for name := range doc.Components.Schemas {
		_, err := c.Compile(docURL + "#/components/schemas/" + name)
		assert.NoError(t, err, name)
	}
}

// Every local $ref points at something that exists.
func TestOpenAPIRefsResolve(t *testing.T) {
	var doc any
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	refs := regexp.MustCompile(`"\$ref":\s*"#([^"]+)"`).FindAllStringSubmatch(string(openAPI), -1)
	require.NotEmpty(t, refs)
	for _, m := range refs {
		node := doc
		for _, part := range strings.Split(strings.TrimPrefix(m[1], "/"), "/") {
			obj, ok := node.(map[string]any)
			require.True(t, ok, "ref %s: %s is not an object", m[1], part)
			node, ok = obj[part]
			require.True(t, ok, "ref %s: no %s", m[1], part)
		}
	}
}

// The document's Diagnostic enumerates exactly the codes there are, as the diagnostic schema
// does: /metrics counts warnings by these codes, and a client can branch on each.
func TestOpenAPIDiagnosticCodes(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				Diagnostic struct {
					Properties struct {
						Code struct {
							Enum []softwarn.Code `json:"enum"`
						} `json:"code"`
					} `json:"properties"`
				} `json:"Diagnostic"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	require.Equal(t, append(softwarn.WarningCodes(), softwarn.NoteCodes()...), doc.Components.Schemas.Diagnostic.Properties.Code.Enum)
}

// The document's RejectionAdvice enumerates exactly the codes a rejection's advice has.
func TestOpenAPIAdviceCodes(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas struct {
				RejectionAdvice struct {
					Properties struct {
						Code struct {
							Enum []softwarn.Code `json:"enum"`
						} `json:"code"`
					} `json:"properties"`
				} `json:"RejectionAdvice"`
				ErrorDetail struct {
					Properties struct {
						Advice struct {
							Ref string `json:"$ref"`
						} `json:"advice"`
					} `json:"properties"`
				} `json:"ErrorDetail"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	require.Equal(t, softwarn.AdviceCodes(), doc.Components.Schemas.RejectionAdvice.Properties.Code.Enum)
	require.Equal(t, "#/components/schemas/RejectionAdvice", doc.Components.Schemas.ErrorDetail.Properties.Advice.Ref)
}

// The document and the router agree: every documented operation is routed, every route is
// documented.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	param := regexp.MustCompile(`\{(\w+)\}`)
	var documented, viewOnly []string // every operation; those of the paths only view serves
	for path, ops := range doc.Paths {
		only := string(ops["x-view-only"]) == "true"
		for method := range ops {
			if method == "parameters" || method == "summary" || method == "description" || strings.HasPrefix(method, "x-") {
				continue
			}
			op := strings.ToUpper(method) + " " + param.ReplaceAllString(path, ":$1")
			documented = append(documented, op)
			if only {
				viewOnly = append(viewOnly, op)
			}
		}
	}
	require.NotEmpty(t, viewOnly, "the document marks the corpus's paths x-view-only")
	// serve's server, with no corpus, routes the document less its view-only paths; view's, with
	// a corpus, routes all of it.
	serve, _ := newTestServer(t, Config{})
	for _, tt := range []struct {
		name string
		s    *Server
		want []string
	}{
		{"serve (no corpus)", serve, slices.DeleteFunc(slices.Clone(documented), func(op string) bool { return slices.Contains(viewOnly, op) })},
		{"view (a corpus)", corpusServer(t), documented},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var routed []string
			methods := map[string]map[string]bool{} // path -> methods routed
			for _, r := range tt.s.echo.Routes() {
				if r.Method == echo.RouteNotFound {
					continue
				}
				if methods[r.Path] == nil {
					methods[r.Path] = map[string]bool{}
				}
				methods[r.Path][r.Method] = true
				// HEAD (wherever GET is) and OPTIONS (on every path) are described in the
				// document's info.description and x-other-responses, not as operations.
				if r.Method != http.MethodHead && r.Method != http.MethodOptions {
					routed = append(routed, r.Method+" "+r.Path)
				}
			}
			for path, m := range methods {
				assert.True(t, m[http.MethodOptions], "OPTIONS %s is routed", path)
				assert.Equal(t, m[http.MethodGet], m[http.MethodHead], "HEAD %s is routed exactly where GET is", path)
			}
			want := slices.Clone(tt.want)
			sort.Strings(want)
			sort.Strings(routed)
			assert.Equal(t, want, routed)
		})
	}
}

// apiDoc is the OpenAPI document, decoded, with its schemas compiled on demand: what
// checkReply needs to find the responses an answer must be among.
type apiDoc struct {
	root     any
	compiler *jsonschema.Compiler
}

func loadAPIDoc(t *testing.T) *apiDoc {
	t.Helper()
	var root any
	require.NoError(t, json.Unmarshal(openAPI, &root))
	return &apiDoc{root: root, compiler: compileDoc(t)}
}

var unescapePointer = strings.NewReplacer("~1", "/", "~0", "~")

func pointerEscape(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

// object returns the object at the JSON pointer ptr, following local $refs from there, and
// the pointer it ends at.
func (d *apiDoc) object(t *testing.T, ptr string) (map[string]any, string) {
	t.Helper()
	for range 8 {
		node := d.root
		for _, part := range strings.Split(ptr, "/")[1:] {
			obj, ok := node.(map[string]any)
			require.True(t, ok, "%s: %q is not in an object", ptr, part)
			node, ok = obj[unescapePointer.Replace(part)]
			require.True(t, ok, "%s: the document has no %q", ptr, part)
		}
		obj, ok := node.(map[string]any)
		require.True(t, ok, "%s is not an object", ptr)
		ref, ok := obj["$ref"].(string)
		if !ok {
			return obj, ptr
		}
		require.True(t, strings.HasPrefix(ref, "#/"), "%s: $ref %s is not local", ptr, ref)
		ptr = ref[1:]
	}
	require.FailNow(t, "$ref chain too long", ptr)
	return nil, ""
}

// responseSet is one list of responses in the document: an operation's, or a group under
// x-other-responses (answers that belong to no operation).
type responseSet struct {
	name    string   // the operationId or the group's name
	pointer string   // JSON pointer of the responses object
	allow   []string // for 405 and OPTIONS answers: the methods their Allow header names
}

func otherResponses(group string) responseSet {
	return responseSet{name: group, pointer: "/x-other-responses/" + group + "/responses"}
}

// httpMethods are the Path Item fields that are operations.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

var echoParam = regexp.MustCompile(`:(\w+)`)

// responsesFor finds where the document lists the answers to method on target. The router of
// s says which route, if any, the request reaches, as the service itself decides; HEAD is
// routed as GET, as ServeHTTP does.
func (d *apiDoc) responsesFor(t *testing.T, s *Server, method, target string) responseSet {
	t.Helper()
	routed := method
	if routed == http.MethodHead {
		routed = http.MethodGet
	}
	req := routedRequest(httptest.NewRequest(routed, target, nil))
	c := s.echo.NewContext(req, nil)
	s.echo.Router().Find(routed, echo.GetPath(req), c)
	if c.Path() == "" {
		return otherResponses("unmatchedPath")
	}
	path := echoParam.ReplaceAllString(c.Path(), "{$1}")
	item, ptr := d.object(t, "/paths/"+pointerEscape(path))
	m := strings.ToLower(routed)
	if op, ok := item[m].(map[string]any); ok {
		return responseSet{name: op["operationId"].(string), pointer: ptr + "/" + m + "/responses"}
	}
	set := otherResponses("otherMethod")
	if method == http.MethodOptions {
		set = otherResponses("options")
	}
	set.allow = []string{http.MethodOptions}
	for _, op := range httpMethods {
		if _, ok := item[op]; ok {
			set.allow = append(set.allow, strings.ToUpper(op))
			if op == "get" { // HEAD is answered wherever GET is
				set.allow = append(set.allow, http.MethodHead)
			}
		}
	}
	return set
}

// reply is what the service sent back.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func mediaType(t *testing.T, contentType string) string {
	t.Helper()
	if contentType == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(contentType)
	require.NoError(t, err, "Content-Type %q", contentType)
	return mt
}

// coverageKey names one response of the document and one media type of it ("-": no body).
func coverageKey(set responseSet, code, media string) string {
	return set.name + " " + code + " " + cmp.Or(media, "-")
}

// checkReply holds r to the document: its status is listed in set, as an explicit code; its
// Content-Type is one of that response's media types, or absent with no body when it lists
// none; the response's required headers are there; Allow names set.allow where the response
// lists Allow, and is absent where it does not; a JSON body
// validates against the response's schema, and an error's class maps to this status. It
// returns the response's coverage key.
func (d *apiDoc) checkReply(t *testing.T, set responseSet, r reply) string {
	t.Helper()
	code := strconv.Itoa(r.status)
	responses, _ := d.object(t, set.pointer)
	if _, ok := responses[code]; !ok {
		require.Failf(t, "status not in the document", "%s answered %d, which the document does not list at %s; body %.300s",
			set.name, r.status, set.pointer, r.body)
	}
	what := fmt.Sprintf("%s %d", set.name, r.status)
	resp, ptr := d.object(t, set.pointer+"/"+code)
	headers, _ := resp["headers"].(map[string]any)
	for name := range headers {
		h, _ := d.object(t, ptr+"/headers/"+pointerEscape(name))
		if h["required"] == true {
			assert.NotEmpty(t, r.header.Get(name), "%s: header %s", what, name)
		}
	}
	if _, listed := headers["Allow"]; !listed {
		assert.Empty(t, r.header.Get("Allow"), "%s: Allow, which the document does not list", what)
	} else if set.allow != nil {
		var allow []string
		for m := range strings.SplitSeq(r.header.Get("Allow"), ",") {
			allow = append(allow, strings.TrimSpace(m))
		}
		assert.ElementsMatch(t, set.allow, allow, "%s: Allow", what)
	}
	media := mediaType(t, r.header.Get("Content-Type"))
	content, _ := resp["content"].(map[string]any)
	if len(content) == 0 {
		assert.Empty(t, media, "%s: the document lists no content", what)
		assert.Empty(t, r.body, "%s: the document lists no content", what)
		return coverageKey(set, code, "")
	}
	var listed []string
	for key, v := range content {
		listed = append(listed, key)
		if mediaType(t, key) != media {
			continue
		}
		if _, ok := v.(map[string]any)["schema"]; ok && (media == "application/json" || strings.HasSuffix(media, "+json")) {
			sch, err := d.compiler.Compile(docURL + "#" + ptr + "/content/" + pointerEscape(key) + "/schema")
			require.NoError(t, err)
			require.NoError(t, sch.Validate(decodeAny(t, r.body)), "%s: body %.300s", what, r.body)
			var e struct {
				Error *struct{ Class string } `json:"error"`
			}
			if json.Unmarshal(r.body, &e) == nil && e.Error != nil {
				assert.Equal(t, classStatus[e.Error.Class], r.status, "%s: class %s", what, e.Error.Class)
			}
		}
		return coverageKey(set, code, media)
	}
	require.Failf(t, "content type not in the document", "%s: Content-Type %q; the document lists %v", what, r.header.Get("Content-Type"), listed)
	return ""
}

// documented is every coverage key of the document. It also checks that every status is an
// explicit code: a range (4XX) or default would let any answer pass.
func (d *apiDoc) documented(t *testing.T) []string {
	t.Helper()
	var sets []responseSet
	paths, _ := d.object(t, "/paths")
	for path := range paths {
		item, ptr := d.object(t, "/paths/"+pointerEscape(path))
		for _, m := range httpMethods {
			if op, ok := item[m].(map[string]any); ok {
				sets = append(sets, responseSet{name: op["operationId"].(string), pointer: ptr + "/" + m + "/responses"})
			}
		}
	}
	groups, _ := d.object(t, "/x-other-responses")
	for group := range groups {
		sets = append(sets, otherResponses(group))
	}
	var keys []string
	for _, set := range sets {
		responses, _ := d.object(t, set.pointer)
		for code := range responses {
			require.Regexp(t, `^[1-5][0-9][0-9]$`, code, "%s: statuses are explicit codes", set.pointer)
			resp, _ := d.object(t, set.pointer+"/"+code)
			content, _ := resp["content"].(map[string]any)
			if len(content) == 0 {
				keys = append(keys, coverageKey(set, code, ""))
			}
			for key := range content {
				keys = append(keys, coverageKey(set, code, mediaType(t, key)))
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// failingReader is a request body whose reading fails with err.
type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// failingCollector fails as a broken exporter in an embedder's registry would.
type failingCollector struct{}

func (failingCollector) Describe(chan<- *prometheus.Desc) {}

func (failingCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.NewInvalidMetric(prometheus.NewDesc("test_failing", "A collector that fails.", nil, nil), errors.New("collect failed"))
}

// panickingServer is a server whose every route's handler panics: what any bug in a handler
// gets from the recovery in ServeHTTP.
func panickingServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, _ := newTestServer(t, cfg)
	for _, r := range s.echo.Routes() {
		if r.Method != echo.RouteNotFound {
			s.echo.Add(r.Method, r.Path, func(echo.Context) error { panic("injected by the test") })
		}
	}
	return s
}

// holdInFlight starts a normalize request on s whose body stays open until release is
// called: with MaxInFlight 1 the next normalize request is over the cap.
func holdInFlight(t *testing.T, s *Server) (release func()) {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/normalize", pr))
		done <- w.Code
	}()
	_, err := pw.Write([]byte(`"held`)) // returns once the handler has read it: it is in flight
	require.NoError(t, err)
	return func() {
		_, _ = pw.Write([]byte(`"`))
		_ = pw.Close()
		assert.Equal(t, http.StatusOK, <-done, "the held request")
	}
}

// sendRaw writes raw to a server listening on addr and reads its answer.
func sendRaw(t *testing.T, addr, raw string) reply {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(hung)))
	_, err = io.WriteString(conn, raw)
	require.NoError(t, err)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	if res.Close { // ReadResponse takes Connection: close out of Header
		res.Header.Set("Connection", "close")
	}
	return reply{status: res.StatusCode, header: res.Header, body: body}
}

// TestResponsesMatchOpenAPI sends requests that provoke every answer of every operation, and
// those that belong to no operation, and holds each answer to the document (checkReply): the
// status must be listed where the request landed, with its content type, headers and body
// schema. Then the other way round: every response the document lists must have been
// provoked, so the document promises nothing the service does not do.
func TestResponsesMatchOpenAPI(t *testing.T) {
	doc := loadAPIDoc(t)
	srv, _ := newTestServer(t, Config{BodyLimit: 1024, MaxInFlight: 1})
	srv.SetReady(true)
	notReady, _ := newTestServer(t, Config{})
	stopping, _ := newTestServer(t, Config{})
	stopping.stopping.Store(true) // as Serve's shutdown sets it
	panicking := panickingServer(t, Config{})
	// The paths only normalizer view serves (x-view-only), on a server with a corpus.
	viewing := corpusServer(t)
	panickingViewing := panickingServer(t, Config{Corpus: corpusIndex(t)})
	reg := prometheus.NewRegistry()
	require.NoError(t, reg.Register(failingCollector{}))
	brokenMetrics, _ := newTestServer(t, Config{Registry: reg})
	// Real servers for what only a connection shows: net/http's own answers, and a read
	// timeout, on a server of its own: on one with a short read timeout every raw request
	// would have to be read within it.
	listening, _ := newTestServer(t, Config{})
	addr := startServer(t, listening, Timeouts{MaxHeaderBytes: 1024})
	timingOut, _ := newTestServer(t, Config{})
	timingOutAddr := startServer(t, timingOut, Timeouts{MaxHeaderBytes: 1024, Read: time.Second})

	big := `{"final_response":"` + strings.Repeat("a", 2000) + `"}`
	post := func(target, body string, header ...string) call {
		c := call{method: http.MethodPost, target: target, body: strings.NewReader(body), header: map[string]string{}}
		for i := 0; i+1 < len(header); i += 2 {
			c.header[header[i]] = header[i+1]
		}
		return c
	}
	get := func(target string) call { return call{method: http.MethodGet, target: target} }
	type docCase struct {
		name    string
		server  *Server // nil: srv (BodyLimit 1024, MaxInFlight 1, ready)
		call    call
		hold    bool   // a normalize request is held in flight during the call
		raw     string // sent as is to the listening server instead of call
		netHTTP bool   // raw is answered by net/http before any route
		group   string // raw is answered as this group of x-other-responses lists
		want    int
	}
	tests := []docCase{
		{name: "normalize 200", call: post("/v1/normalize", okResult), want: 200},
		{name: "normalize 200 explain", call: post("/v1/normalize?explain=true", okResult), want: 200},
		{name: "normalize 200 gzip", call: post("/v1/normalize", string(gzipped(t, []byte(okResult))), "Content-Encoding", "gzip"), want: 200},
		{name: "normalize 400 InvalidJSON", call: post("/v1/normalize", `{"final_response":`), want: 400},
		{name: "normalize 400 empty body", call: post("/v1/normalize", ``), want: 400},
		{name: "normalize 400 explain not a boolean", call: post("/v1/normalize?explain=maybe", okResult), want: 400},
		{name: "normalize 400 malformed query", call: post("/v1/normalize?explain=%zz", okResult), want: 400},
		{name: "normalize 400 misspelt explain", call: post("/v1/normalize?explian=true", okResult), want: 400},
		{name: "normalize 400 InvalidJSON form hint", call: post("/v1/normalize", "final_response=done",
			"Content-Type", "application/x-www-form-urlencoded"), want: 400},
		{name: "normalize 200 JSON sent as a form", call: post("/v1/normalize", okResult,
			"Content-Type", "application/x-www-form-urlencoded"), want: 200},
		{name: "normalize 400 gzip corrupt", call: post("/v1/normalize", "not gzip", "Content-Encoding", "gzip"), want: 400},
		{name: "normalize 400 body cut short", call: call{method: http.MethodPost, target: "/v1/normalize",
			body: failingReader{io.ErrUnexpectedEOF}}, want: 400},
		{name: "normalize 408 read deadline", call: call{method: http.MethodPost, target: "/v1/normalize",
			body: failingReader{fmt.Errorf("read tcp: %w", os.ErrDeadlineExceeded)}}, want: 408},
		{name: "normalize 408 real read timeout", call: post("/v1/normalize", ""), want: 408,
			raw: "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n\"half"},
		{name: "normalize 413 Content-Length", call: post("/v1/normalize", big), want: 413},
		{name: "normalize 413 chunked", call: call{method: http.MethodPost, target: "/v1/normalize",
			body: io.MultiReader(strings.NewReader(big))}, want: 413},
		{name: "normalize 413 gzip decoded", call: post("/v1/normalize", string(gzipped(t, []byte(big))), "Content-Encoding", "gzip"), want: 413},
		{name: "normalize 413 gzip compressed bound", call: post("/v1/normalize", string(emptyGzipMembers(t, 1024)), "Content-Encoding", "gzip"), want: 413},
		{name: "normalize 415 br", call: post("/v1/normalize", okResult, "Content-Encoding", "br"), want: 415},
		{name: "normalize 415 gzip twice", call: post("/v1/normalize", okResult, "Content-Encoding", "gzip, gzip"), want: 415},
		{name: "normalize 422", call: post("/v1/normalize", `{"output":"x"}`), want: 422},
		{name: "normalize 422 explain advice", call: post("/v1/normalize?explain=true", stoppedResult), want: 422},
		{name: "normalize 429", call: post("/v1/normalize", okResult), hold: true, want: 429},
		{name: "normalize 503 body cut off by shutdown", server: stopping, call: call{method: http.MethodPost,
			target: "/v1/normalize", body: failingReader{net.ErrClosed}}, want: 503},
		{name: "fix 200", call: post("/v1/fix?unsafe=true", okResult), want: 200},
		{name: "fix 200 diff", call: post("/v1/fix?diff=true", okResult), want: 200},
		{name: "fix 400 InvalidJSON", call: post("/v1/fix", `{"final_response":`), want: 400},
		{name: "fix 400 unsafe not a boolean", call: post("/v1/fix?unsafe=maybe", okResult), want: 400},
		{name: "fix 408 read deadline", call: call{method: http.MethodPost, target: "/v1/fix",
			body: failingReader{fmt.Errorf("read tcp: %w", os.ErrDeadlineExceeded)}}, want: 408},
		{name: "fix 413 Content-Length", call: post("/v1/fix", big), want: 413},
		{name: "fix 415 br", call: post("/v1/fix", okResult, "Content-Encoding", "br"), want: 415},
		{name: "fix 422", call: post("/v1/fix", `{"output":"x"}`), want: 422},
		{name: "fix 429", call: post("/v1/fix", okResult), hold: true, want: 429},
		{name: "fix 503 body cut off by shutdown", server: stopping, call: call{method: http.MethodPost,
			target: "/v1/fix", body: failingReader{net.ErrClosed}}, want: 503},
		{name: "healthz 200", call: get("/healthz"), want: 200},
		{name: "readyz 200", call: get("/readyz"), want: 200},
		{name: "readyz 503", server: notReady, call: get("/readyz"), want: 503},
		{name: "metrics 200 text", call: get("/metrics"), want: 200},
		{name: "metrics 200 protobuf", call: call{method: http.MethodGet, target: "/metrics", header: map[string]string{
			"Accept": "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"}}, want: 200},
		{name: "metrics 500 gather error", server: brokenMetrics, call: get("/metrics"), want: 500},
		{name: "listSchemas 200", call: get("/v1/schemas"), want: 200},
		{name: "listSchemas 200 trailing slash", call: get("/v1/schemas/"), want: 200},
		{name: "getSchema 200 name", call: get("/v1/schemas/record"), want: 200},
		{name: "getSchema 200 file name", call: get("/v1/schemas/error.schema.json"), want: 200},
		{name: "getSchema 404", call: get("/v1/schemas/nope"), want: 404},
		{name: "getSchema 404 two segments", call: get("/v1/schemas/record/x"), want: 404},
		{name: "options 404 unknown schema", call: call{method: http.MethodOptions, target: "/v1/schemas/nope"}, want: 404},
		{name: "openapi 200", call: get("/openapi.json"), want: 200},
		{name: "unmatched 404 GET", call: get("/v2/normalize"), want: 404},
		{name: "unmatched 404 POST two segments", call: post("/v1", okResult), want: 404},
		{name: "405 POST page", call: post("/", okResult), want: 405},
		{name: "page 200", call: get("/"), want: 200},
		{name: "page 200 query", call: get("/?item=3"), want: 200},
		{name: "pageFile 200 script", call: get("/ui/app.js"), want: 200},
		{name: "pageFile 200 style", call: get("/ui/style.css"), want: 200},
		{name: "pageFile 200 icon", call: get("/ui/icon.svg"), want: 200},
		{name: "pageFile 404", call: get("/ui/nope.js"), want: 404},
		{name: "pageFile 404 a type the page does not serve", call: get("/ui/app.js.map"), want: 404},
		{name: "pageFile 404 two segments", call: get("/ui/x/app.js"), want: 404},
		{name: "corpusPage 200", server: viewing, call: get("/v1/corpus?limit=2&code=duplicate_key"), want: 200},
		{name: "corpusPage 200 a class", server: viewing, call: get("/v1/corpus?class=InvalidJSON&verdict=rejected"), want: 200},
		{name: "corpusPage 400 limit 0", server: viewing, call: get("/v1/corpus?limit=0"), want: 400},
		{name: "corpusPage 400 unknown parameter", server: viewing, call: get("/v1/corpus?lmit=5"), want: 400},
		{name: "corpusItem 200", server: viewing, call: get("/v1/corpus/items/1"), want: 200},
		{name: "corpusItem 200 not JSON", server: viewing, call: get("/v1/corpus/items/3"), want: 200},
		{name: "corpusItem 400 leading zero", server: viewing, call: get("/v1/corpus/items/01"), want: 400},
		{name: "corpusItem 404 past the last", server: viewing, call: get("/v1/corpus/items/5"), want: 404},
		{name: "corpusTable 200", server: viewing, call: get("/corpus"), want: 200},
		{name: "corpusTable 200 query", server: viewing, call: get("/corpus?code=duplicate_key&offset=50"), want: 200},
		{name: "corpusTableFile 200 script", server: viewing, call: get("/corpus/corpus.js"), want: 200},
		{name: "corpusTableFile 200 style", server: viewing, call: get("/corpus/corpus.css"), want: 200},
		{name: "corpusTableFile 404", server: viewing, call: get("/corpus/nope.js"), want: 404},
		{name: "corpusTableFile 404 the page by its file", server: viewing, call: get("/corpus/corpus.html"), want: 404},
		{name: "unmatched 404 corpus under serve", call: get("/v1/corpus"), want: 404},
		{name: "unmatched 404 corpus item under serve", call: get("/v1/corpus/items/0"), want: 404},
		{name: "unmatched 404 corpus table under serve", call: get("/corpus"), want: 404},
		{name: "unmatched 404 OPTIONS", call: call{method: http.MethodOptions, target: "/nope"}, want: 404},
		{name: "unmatched 404 two trailing slashes", call: get("/v1/schemas//"), want: 404},
		{name: "405 GET normalize", call: get("/v1/normalize"), want: 405},
		{name: "405 HEAD normalize", call: call{method: http.MethodHead, target: "/v1/normalize"}, want: 405},
		{name: "405 PUT getSchema", call: call{method: http.MethodPut, target: "/v1/schemas/record"}, want: 405},
		{name: "net/http 400 request line", raw: "GARBAGE\r\n\r\n", netHTTP: true, want: 400},
		{name: "net/http 400 no Host", raw: "GET /healthz HTTP/1.1\r\n\r\n", netHTTP: true, want: 400},
		{name: "net/http 431", raw: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 8<<10) + "\r\n\r\n",
			netHTTP: true, want: 431},
		{name: "net/http 417", raw: "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nExpect: later\r\nContent-Length: 4\r\n\r\n\"ok\"",
			netHTTP: true, want: 417},
		{name: "net/http 501", raw: "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br\r\n\r\n", netHTTP: true, want: 501},
		{name: "net/http 505", raw: "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", netHTTP: true, want: 505},
		{name: "net/http 200 OPTIONS *", raw: "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", netHTTP: true, want: 200},
		{name: "ambiguous framing 400 Content-Length and chunked", group: "ambiguousFraming", want: 400,
			raw: "POST /v1/normalize HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"},
		{name: "ambiguous framing 400 folded Transfer-Encoding", group: "ambiguousFraming", want: 400,
			raw: "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n"},
		{name: "ambiguous framing 400 Transfer-Encoding in HTTP/1.0", group: "ambiguousFraming", want: 400,
			raw: "POST /nowhere HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"},
	}
	// Per path of the document: another method, OPTIONS, HEAD for GET, and a panic in each
	// operation's handler.
	paths, _ := doc.object(t, "/paths")
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		item, _ := doc.object(t, "/paths/"+pointerEscape(path))
		target := strings.NewReplacer("{name}", "record", "{file}", "app.js", "{n}", "0").Replace(path)
		var server, panics *Server = nil, panicking
		if item["x-view-only"] == true {
			server, panics = viewing, panickingViewing
			target = strings.Replace(target, "/corpus/app.js", "/corpus/corpus.js", 1)
		}
		tests = append(tests,
			docCase{name: "405 DELETE " + path, server: server, call: call{method: http.MethodDelete, target: target}, want: 405},
			docCase{name: "204 OPTIONS " + path, server: server, call: call{method: http.MethodOptions, target: target}, want: 204})
		for _, m := range httpMethods {
			if _, ok := item[m]; !ok {
				continue
			}
			method := strings.ToUpper(m)
			tests = append(tests, docCase{name: "500 panic " + method + " " + path, server: panics,
				call: call{method: method, target: target}, want: 500})
			if method == http.MethodGet {
				tests = append(tests, docCase{name: "200 HEAD " + path, server: server, call: call{method: http.MethodHead, target: target}, want: 200})
			}
		}
	}

	seen := map[string]bool{}
	ran := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran++
			s := cmp.Or(tt.server, srv)
			var r reply
			var set responseSet
			switch {
			case tt.netHTTP:
				r, set = sendRaw(t, addr, tt.raw), otherResponses("netHTTP")
			case tt.raw != "" && tt.want == http.StatusRequestTimeout:
				r, set = sendRaw(t, timingOutAddr, tt.raw), doc.responsesFor(t, timingOut, tt.call.method, tt.call.target)
			case tt.group != "":
				r, set = sendRaw(t, addr, tt.raw), otherResponses(tt.group)
			case tt.raw != "":
				r, set = sendRaw(t, addr, tt.raw), doc.responsesFor(t, listening, tt.call.method, tt.call.target)
			default:
				if tt.hold {
					defer holdInFlight(t, s)()
				}
				w := do(t, s, tt.call)
				r, set = reply{status: w.Code, header: w.Header(), body: w.Body.Bytes()}, doc.responsesFor(t, s, tt.call.method, tt.call.target)
			}
			seen[doc.checkReply(t, set, r)] = true
			assert.Equal(t, tt.want, r.status, "the case provokes another status than it means to; body %.300s", r.body)
		})
	}
	if ran < len(tests) {
		t.Logf("%d of %d cases ran (-run): not checking that every documented response was provoked", ran, len(tests))
		return
	}
	documented := doc.documented(t)
	t.Logf("%d cases; the document lists %d responses (operation or group, status, media type): %v", len(tests), len(documented), documented)
	var unprovoked []string
	for _, key := range documented {
		if !seen[key] {
			unprovoked = append(unprovoked, key)
		}
	}
	assert.Empty(t, unprovoked, "responses the document lists that no case provoked: either the service never gives them, or a case is missing here")
}
