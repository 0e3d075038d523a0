// A client of the normalizer built from its OpenAPI document: schema.d.ts is generated from
// internal/httpapi/openapi.json by openapi-typescript, and this file must type-check against
// it (tsc, strict) and then pass against the real service. scripts/openapi-client.sh runs it:
//
//	node out/client.js http://127.0.0.1:PORT
//
// Every operation of the document is called at least once; what each answer holds is read
// through the generated types, so a document that does not describe the service fails either
// here, at compile time, or in the checks below.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

declare const process: { argv: string[]; exit(code: number): never };

type NormalizedRecord = components["schemas"]["Record"];
type ErrorBody = components["schemas"]["Error"];

const base = process.argv[2];
if (!base) {
	console.error("usage: node out/client.js BASE_URL");
	process.exit(2);
}
const client = createClient<paths>({ baseUrl: base });

let checks = 0;
function check(ok: boolean, what: string): void {
	checks++;
	if (!ok) {
		console.error(`client: ${what}`);
		process.exit(1);
	}
}

const result = {
	final_response: "The refund was issued.",
	messages: [
		{ role: "user", content: "Where is my refund?" },
		{
			role: "assistant",
			content: null,
			tool_calls: [{ id: "call_1", type: "function", function: { name: "refund", arguments: '{"order":"4521"}' } }],
		},
		{ role: "tool", tool_call_id: "call_1", content: "issued" },
		{ role: "narrator", content: "dropped, with a warning" },
	],
	metadata: { model: "claude-sonnet-4-5", total_input_tokens: 1842 },
};

// POST /v1/normalize: the record, typed.
const ok = await client.POST("/v1/normalize", { body: result });
check(ok.response.status === 200, `normalize: status ${ok.response.status}`);
const rec: NormalizedRecord | undefined = ok.data;
check(rec !== undefined, "normalize: no record");
if (rec) {
	check(rec.final_response === result.final_response, `final_response ${rec.final_response}`);
	check(rec.rich_mode, "rich_mode false");
	check(rec.messages?.length === 3, `messages: ${JSON.stringify(rec.messages)}`);
	const call = rec.messages?.[1];
	check(call?.role === "assistant" && JSON.stringify(call.tool_calls) === '[{"id":"call_1","name":"refund","arguments":"{\\"order\\":\\"4521\\"}"}]',
		`the tool call is flattened: ${JSON.stringify(call)}`);
	const toolCall = call?.tool_calls?.[0];
	check(toolCall?.name === "refund" && toolCall.id === "call_1", `the tool call, typed: ${JSON.stringify(toolCall)}`);
	check(rec.messages?.[2]?.tool_call_id === "call_1", `tool_call_id: ${JSON.stringify(rec.messages?.[2])}`);
	check(rec.metadata?.model === "claude-sonnet-4-5" && rec.metadata.total_input_tokens === 1842, `metadata: ${JSON.stringify(rec.metadata)}`);
	check(rec.soft_warnings.length === 1 && rec.soft_warnings[0]!.startsWith("messages[3].role"), `soft_warnings: ${rec.soft_warnings}`);
	check(rec.diagnostics === undefined, "diagnostics without explain");
}
check((ok.response.headers.get("X-Request-ID") ?? "") !== "", "no X-Request-ID");

// ?explain=true adds diagnostics.
const explained = await client.POST("/v1/normalize", { body: result, params: { query: { explain: true } } });
const diagnostics = explained.data?.diagnostics ?? [];
check(diagnostics.some((d) => d.pointer === "/messages/3/role" && d.action === "dropped"), `diagnostics: ${JSON.stringify(diagnostics)}`);

// A bare string is a result too.
const plain = await client.POST("/v1/normalize", { body: "Just the answer." });
check(plain.data?.final_response === "Just the answer." && plain.data.rich_mode === false, `string result: ${JSON.stringify(plain.data)}`);

// Rejections come back as the Error schema, with their class.
// (A body the document's RawResult does not allow: the service reads it, and rejects it.)
const rejected = await client.POST("/v1/normalize", { body: { messages: [] } as unknown as string });
const shape: ErrorBody | undefined = rejected.error;
check(rejected.response.status === 422 && shape?.error.class === "ResponseShapeError", `no final_response: ${JSON.stringify(shape)}`);
const badQuery = await client.POST("/v1/normalize", { body: "x", params: { query: { explain: "maybe" as unknown as boolean } } });
check(badQuery.response.status === 400 && badQuery.error?.error.class === "BadRequest", `explain=maybe: ${JSON.stringify(badQuery.error)}`);

// Health, readiness, metrics.
const health = await client.GET("/healthz");
check(health.data?.status === "ok", `healthz: ${JSON.stringify(health.data)}`);
const ready = await client.GET("/readyz");
check(ready.data?.status === "ready", `readyz: ${JSON.stringify(ready.data)}`);
const metrics = await client.GET("/metrics", { parseAs: "text" });
check((metrics.data ?? "").includes("normalizer_http_requests_total"), "metrics: no requests counter");

// Schemas: the index, each one by name, and a name that is not there.
const index = await client.GET("/v1/schemas");
const names = index.data?.schemas.map((s) => s.name) ?? [];
check(names.includes("record"), `schema index: ${names}`);
for (const name of names) {
	const one = await client.GET("/v1/schemas/{name}", { params: { path: { name } } });
	check(one.response.status === 200 && typeof one.data === "object", `schema ${name}: ${one.response.status}`);
}
const missing = await client.GET("/v1/schemas/{name}", { params: { path: { name: "no-such-schema" } } });
check(missing.response.status === 404 && missing.error?.error.class === "NotFound", `missing schema: ${JSON.stringify(missing.error)}`);

// The document itself.
const doc = await client.GET("/openapi.json");
check(doc.response.status === 200 && typeof doc.data === "object", "openapi.json");

// The porter's page and one of its files, with the page's policy; a file it does not have.
const page = await client.GET("/", { parseAs: "text" });
check(page.response.status === 200 && (page.data ?? "").includes('name="result"'), `page: ${page.response.status}`);
check((page.response.headers.get("Content-Security-Policy") ?? "").includes("script-src 'self'"), "page: no Content-Security-Policy");
const script = await client.GET("/ui/{file}", { params: { path: { file: "app.js" } }, parseAs: "text" });
check(script.response.status === 200 && (script.response.headers.get("Content-Type") ?? "").startsWith("text/javascript"), `app.js: ${script.response.status}`);
const noFile = await client.GET("/ui/{file}", { params: { path: { file: "no-such-file.js" } } });
check(noFile.response.status === 404 && noFile.error?.error.class === "NotFound", `missing page file: ${JSON.stringify(noFile.error)}`);

console.log(`client: ${checks} checks passed against ${base}`);
