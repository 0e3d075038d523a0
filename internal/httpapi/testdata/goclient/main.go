// Command goclientcheck is a Go client of the normalizer built from its OpenAPI document:
// package nclient is generated from internal/httpapi/openapi.json by oapi-codegen (the tool
// of this module's go.mod, configured by oapi-codegen.yaml), this program must compile against
// it and then pass against the real service. scripts/openapi-client.sh runs it:
//
//	go tool oapi-codegen -config oapi-codegen.yaml .../openapi.json && go run . http://127.0.0.1:PORT
//
// It is a module of its own so that neither oapi-codegen nor its runtime becomes a requirement
// of the normalizer's go.mod. What each answer holds is read through the generated types:
// a document that does not describe the service fails to generate, to compile, or here.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"

	"goclientcheck/nclient"
)

var checks int

func check(ok bool, format string, args ...any) {
	checks++
	if !ok {
		fmt.Fprintf(os.Stderr, "goclient: "+format+"\n", args...)
		os.Exit(1)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
	return v
}

// body is the request body of one of RawResult's forms.
func body(from func(*nclient.RawResult) error) nclient.RawResult {
	var raw nclient.RawResult
	if err := from(&raw); err != nil {
		fmt.Fprintln(os.Stderr, "goclient: request body:", err)
		os.Exit(1)
	}
	return raw
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goclientcheck BASE_URL")
		os.Exit(2)
	}
	base := os.Args[1]
	ctx := context.Background()
	c := must(nclient.NewClientWithResponses(base))

	// A bare string is a result: the final answer, no rich mode.
	answer := "Just the answer."
	plain := must(c.NormalizeWithResponse(ctx, nil, body(func(r *nclient.RawResult) error { return r.FromFinalAnswer(answer) })))
	check(plain.StatusCode() == http.StatusOK && plain.JSON200 != nil, "string result: %d %s", plain.StatusCode(), plain.Body)
	check(plain.JSON200.FinalResponse == answer && !plain.JSON200.RichMode, "string result: %s", plain.Body)
	check(plain.JSON200.Messages == nil && plain.JSON200.Metadata == nil, "string result: messages and metadata null: %s", plain.Body)
	check(len(plain.JSON200.SoftWarnings) == 0 && plain.JSON200.Diagnostics == nil, "string result: %s", plain.Body)
	check(plain.Headers200 != nil && plain.Headers200.XRequestID != "", "string result: no X-Request-ID")

	// A rich result: messages (one of them invalid) and metadata, read back as typed values.
	rich := nclient.RichResult{
		FinalResponse: "The refund was issued.",
		Messages: &[]any{
			map[string]any{"role": "user", "content": "Where is my refund?"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": "call_1", "type": "function", "function": map[string]any{"name": "refund", "arguments": `{"order":"4521"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": []any{map[string]any{"type": "text", "text": "issued"}}},
			map[string]any{"role": "narrator", "content": "dropped, with a warning"},
		},
		Metadata: &map[string]any{"model": "claude-sonnet-4-5", "total_input_tokens": 1842, "agent_runtime_ms": 12.5, "team": "billing"},
	}
	richBody := body(func(r *nclient.RawResult) error { return r.FromRichResult(rich) })
	ok := must(c.NormalizeWithResponse(ctx, nil, richBody))
	check(ok.StatusCode() == http.StatusOK && ok.JSON200 != nil, "rich result: %d %s", ok.StatusCode(), ok.Body)
	rec := ok.JSON200
	check(rec.FinalResponse == rich.FinalResponse && rec.RichMode, "rich result: %s", ok.Body)
	check(rec.Messages != nil && len(*rec.Messages) == 3, "rich result: three messages kept: %s", ok.Body)
	msgs := *rec.Messages
	check(msgs[0].Role == nclient.User, "messages[0].role %q", msgs[0].Role)
	text := must(msgs[0].Content.AsContentText())
	check(text == "Where is my refund?", "messages[0].content %q", text)
	check(msgs[1].Role == nclient.Assistant && msgs[1].ToolCalls != nil && len(*msgs[1].ToolCalls) == 1, "messages[1]: %s", ok.Body)
	call := (*msgs[1].ToolCalls)[0]
	check(call.Id != nil && *call.Id == "call_1" && call.Name == "refund" && call.Arguments == `{"order":"4521"}`,
		"the tool call is flattened, its arguments verbatim: %+v", call)
	check(msgs[2].Role == nclient.Tool && msgs[2].ToolCallId != nil && *msgs[2].ToolCallId == "call_1", "messages[2]: %s", ok.Body)
	parts := must(msgs[2].Content.AsContentParts())
	check(len(parts) == 1, "messages[2].content parts: %v", parts)
	md := rec.Metadata
	check(md != nil && md.Model != nil && *md.Model == "claude-sonnet-4-5", "metadata.model: %s", ok.Body)
	check(md.TotalInputTokens != nil && *md.TotalInputTokens == 1842, "metadata.total_input_tokens: %s", ok.Body)
	check(md.AgentRuntimeMs != nil && *md.AgentRuntimeMs == 12.5, "metadata.agent_runtime_ms: %s", ok.Body)
	check(md.AdditionalProperties["team"] == "billing", "metadata.team, an opaque key: %v", md.AdditionalProperties)
	check(len(rec.SoftWarnings) == 1 && strings.HasPrefix(rec.SoftWarnings[0], "messages[3].role"), "soft_warnings: %q", rec.SoftWarnings)
	check(rec.Diagnostics == nil, "diagnostics without explain: %s", ok.Body)

	// explain: the diagnostics, typed.
	explain := true
	explained := must(c.NormalizeWithResponse(ctx, &nclient.NormalizeParams{Explain: &explain}, richBody))
	check(explained.JSON200 != nil && explained.JSON200.Diagnostics != nil, "explain: %d %s", explained.StatusCode(), explained.Body)
	found := false
	for _, d := range *explained.JSON200.Diagnostics {
		found = found || (d.Pointer == "/messages/3/role" && d.Code == nclient.MessageRoleInvalid && d.Action == nclient.Dropped && d.Severity == nclient.Warning)
	}
	check(found, "explain: no diagnostic for /messages/3/role: %s", explained.Body)

	// A rejected result: the Error schema, with its class and where the problem is.
	rejectedRaw := `{"messages":[]}`
	rejected := must(c.NormalizeWithBodyWithResponse(ctx, nil, "application/json", strings.NewReader(rejectedRaw)))
	check(rejected.StatusCode() == http.StatusUnprocessableEntity && rejected.JSON422 != nil, "no final_response: %d %s", rejected.StatusCode(), rejected.Body)
	e := rejected.JSON422.Error
	check(e.Class == nclient.ErrorClassResponseShapeError && e.Path != nil && *e.Path == "final_response" && e.Message != "", "no final_response: %+v", e)
	invalid := must(c.NormalizeWithBodyWithResponse(ctx, nil, "application/json", strings.NewReader(`{"final_response":`)))
	check(invalid.JSON400 != nil && invalid.JSON400.Error.Class == nclient.ErrorClassInvalidJSON && invalid.JSON400.Error.Line != nil,
		"invalid JSON: %d %s", invalid.StatusCode(), invalid.Body)

	// Health, readiness, metrics.
	health := must(c.HealthzWithResponse(ctx))
	check(health.JSON200 != nil && health.JSON200.Status == "ok", "healthz: %s", health.Body)
	ready := must(c.ReadyzWithResponse(ctx))
	check(ready.JSON200 != nil && ready.JSON200.Status == "ready", "readyz: %s", ready.Body)
	metrics := must(c.MetricsWithResponse(ctx))
	check(metrics.StatusCode() == http.StatusOK && strings.Contains(string(metrics.Body), "normalizer_http_requests_total"), "metrics: no requests counter")

	// Schemas: the index, each one by name, and a name that is not there.
	index := must(c.ListSchemasWithResponse(ctx))
	check(index.JSON200 != nil && len(index.JSON200.Schemas) > 0, "schema index: %s", index.Body)
	names := map[string]bool{}
	for _, s := range index.JSON200.Schemas {
		names[s.Name] = true
		one := must(c.GetSchemaWithResponse(ctx, s.Name))
		check(one.ApplicationschemaJSON200 != nil && (*one.ApplicationschemaJSON200)["$id"] != nil, "schema %s: %d", s.Name, one.StatusCode())
	}
	check(names["record"] && names["normalized-message"], "schema index: %v", names)
	missing := must(c.GetSchemaWithResponse(ctx, "no-such-schema"))
	check(missing.JSON404 != nil && missing.JSON404.Error.Class == nclient.ErrorClassNotFound, "missing schema: %d %s", missing.StatusCode(), missing.Body)

	// The document itself.
	doc := must(c.OpenapiWithResponse(ctx))
	check(doc.JSON200 != nil && (*doc.JSON200)["openapi"] == "3.1.0", "openapi.json: %d", doc.StatusCode())
	var round map[string]any
	check(json.Unmarshal(doc.Body, &round) == nil, "openapi.json is JSON")

	// The porter's page and one of its files, with the page's policy; a file it does not have.
	page := must(c.PageWithResponse(ctx))
	check(page.StatusCode() == http.StatusOK && strings.Contains(string(page.Body), `name="result"`), "page: %d", page.StatusCode())
	check(strings.Contains(page.HTTPResponse.Header.Get("Content-Security-Policy"), "script-src 'self'"), "page: no Content-Security-Policy")
	script := must(c.PageFileWithResponse(ctx, "app.js"))
	check(script.StatusCode() == http.StatusOK && strings.HasPrefix(script.HTTPResponse.Header.Get("Content-Type"), "text/javascript"), "app.js: %d", script.StatusCode())
	noFile := must(c.PageFileWithResponse(ctx, "no-such-file.js"))
	check(noFile.JSON404 != nil && noFile.JSON404.Error.Class == nclient.ErrorClassNotFound, "missing page file: %d %s", noFile.StatusCode(), noFile.Body)

	fmt.Printf("goclient: %d checks passed against %s\n", checks, base)
}
