package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// compileDoc compiles the document so that its component schemas can be used by pointer.
func compileDoc(t *testing.T) *jsonschema.Compiler {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	require.NoError(t, c.AddResource("https://normalizer.test/openapi.json", decodeAny(t, openAPI)))
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
		_, err := c.Compile("https://normalizer.test/openapi.json#/components/schemas/" + name)
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

// The document and the router agree: every documented operation is routed, every route is
// documented.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPI, &doc))
	param := regexp.MustCompile(`\{(\w+)\}`)
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" || method == "summary" || method == "description" {
				continue
			}
			documented = append(documented, strings.ToUpper(method)+" "+param.ReplaceAllString(path, ":$1"))
		}
	}
	s, _ := newTestServer(t, Config{})
	var routed []string
	for _, r := range s.echo.Routes() {
		if r.Method == echo.RouteNotFound {
			continue
		}
		routed = append(routed, r.Method+" "+r.Path)
	}
	sort.Strings(documented)
	sort.Strings(routed)
	assert.Equal(t, routed, documented)
}

// Real responses match the document's schemas.
func TestResponsesMatchOpenAPI(t *testing.T) {
	c := compileDoc(t)
	schema := func(name string) *jsonschema.Schema {
		sch, err := c.Compile("https://normalizer.test/openapi.json#/components/schemas/" + name)
		require.NoError(t, err)
		return sch
	}
	record, apiErr, status, index := schema("Record"), schema("Error"), schema("Status"), schema("SchemaIndex")
	s, _ := newTestServer(t, Config{MaxInFlight: 1})
	s.SetReady(true)
	tests := []struct {
		name   string
		call   call
		schema *jsonschema.Schema
	}{
		{name: "record", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(okResult)}, schema: record},
		{name: "record-explain", call: call{method: "POST", target: "/v1/normalize?explain=1", body: strings.NewReader(okResult)}, schema: record},
		{name: "invalid-json", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`{`)}, schema: apiErr},
		{name: "shape", call: call{method: "POST", target: "/v1/normalize", body: strings.NewReader(`1`)}, schema: apiErr},
		{name: "not-found", call: call{method: "GET", target: "/x"}, schema: apiErr},
		{name: "healthz", call: call{method: "GET", target: "/healthz"}, schema: status},
		{name: "readyz", call: call{method: "GET", target: "/readyz"}, schema: status},
		{name: "schemas", call: call{method: "GET", target: "/v1/schemas/"}, schema: index},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, s, tt.call)
			require.NoError(t, tt.schema.Validate(decodeAny(t, w.Body.Bytes())), "status %d body %s", w.Code, w.Body.Bytes())
			if w.Code != http.StatusOK {
				assert.Equal(t, classStatus[errorClass(t, w.Body.Bytes())], w.Code)
			}
		})
	}
}
