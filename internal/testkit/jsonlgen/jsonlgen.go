// Package jsonlgen generates JSON lines of raw handler results in the mix a batch run sees:
// small and medium results with messages, tool calls and metadata, many of them dirty (roles
// and shapes of other APIs, bad metadata, duplicate keys), and a few that must be rejected
// (no final_response, empty answers, malformed JSON, blank lines). The --jsonl tests and
// benchmark read it; the output depends only on the seed.
package jsonlgen

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
)

// Generator writes results one line at a time.
type Generator struct {
	r         *rand.Rand
	malformed bool
}

// New returns a Generator whose output depends only on seed. With malformed, about 2% of the
// lines are not JSON at all and some hold lone surrogate escapes; without, every line is a
// JSON value that jq accepts, or blank, so that tools that stop at the first error read the
// whole file.
func New(seed uint64, malformed bool) *Generator {
	return &Generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), malformed: malformed}
}

// kind is one sort of line, with its weight in a thousand lines.
type kind struct {
	weight int
	gen    func(g *Generator, dst []byte) []byte
}

var kinds = []kind{
	{430, (*Generator).rich},
	{150, (*Generator).simple},
	{50, (*Generator).bareString},
	{190, (*Generator).dirty},
	{100, (*Generator).openAI},
	{30, (*Generator).large},
	{4, (*Generator).overCap},
	{20, (*Generator).badShape},
	{20, (*Generator).malformedLine},
	{6, (*Generator).blank},
}

// Line appends one result, without a line terminator.
func (g *Generator) Line(dst []byte) []byte {
	n := g.r.IntN(1000)
	for _, k := range kinds {
		if n < k.weight {
			return k.gen(g, dst)
		}
		n -= k.weight
	}
	return g.rich(dst)
}

// Write writes lines to w until at least size bytes were written, and returns the number of
// lines.
func Write(w io.Writer, size int64, seed uint64, malformed bool) (int64, error) {
	g := New(seed, malformed)
	bw := bufio.NewWriterSize(w, 1<<20)
	var (
		written, lines int64
		buf            []byte
	)
	for written < size {
		buf = append(g.Line(buf[:0]), '\n')
		if _, err := bw.Write(buf); err != nil {
			return lines, err
		}
		written += int64(len(buf))
		lines++
	}
	return lines, bw.Flush()
}

var words = []string{
	"the", "refund", "order", "customer", "shipping", "was", "issued", "for", "invoice", "and",
	"I", "checked", "database", "record", "found", "ticket", "status", "pending", "résumé",
	"café", "naïve", "日本語", "données", "✓", "🚀", "weather", "forecast", "tomorrow", "Paris",
	"search", "results", "show", "that", "policy", "allows", "returns", "within", "30", "days",
	"please", "confirm", "address", "\"quoted\"", "back\\slash", "tab\there", "line\nbreak",
}

func (g *Generator) text(dst []byte, minWords, maxWords int) []byte {
	dst = append(dst, '"')
	n := minWords + g.r.IntN(maxWords-minWords+1)
	for i := range n {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = appendEscaped(dst, words[g.r.IntN(len(words))])
	}
	return append(dst, '"')
}

func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func (g *Generator) id(dst []byte, prefix string) []byte {
	dst = append(dst, '"')
	dst = append(dst, prefix...)
	dst = strconv.AppendUint(dst, g.r.Uint64()%1_000_000_000, 36)
	return append(dst, '"')
}

var tools = []string{"search_orders", "get_weather", "issue_refund", "lookup_customer", "run_sql"}

// conversation appends a messages array: a system prompt, a user turn, then assistant turns
// with tool calls (flat, or nested as OpenAI sends them) answered by tool messages.
func (g *Generator) conversation(dst []byte, nested bool) []byte {
	dst = append(dst, `[{"role":"system","content":`...)
	dst = g.text(dst, 8, 30)
	dst = append(dst, `},{"role":"user","content":`...)
	dst = g.text(dst, 5, 40)
	dst = append(dst, '}')
	for range 1 + g.r.IntN(4) {
		id := g.id(nil, "call_")
		name := tools[g.r.IntN(len(tools))]
		dst = append(dst, `,{"role":"assistant","content":null,"tool_calls":[{"id":`...)
		dst = append(dst, id...)
		if nested {
			dst = append(dst, `,"type":"function","function":{"name":"`...)
			dst = append(dst, name...)
			dst = append(dst, `","arguments":"{\"query\": \"order 1234\", \"limit\": 10}"}}`...)
		} else {
			dst = append(dst, `,"name":"`...)
			dst = append(dst, name...)
			dst = append(dst, `","arguments":{"query":"order 1234","limit":10,"price":2.50}}`...)
		}
		dst = append(dst, `],"refusal":null},{"role":"tool","tool_call_id":`...)
		dst = append(dst, id...)
		dst = append(dst, `,"content":`...)
		dst = g.text(dst, 10, 120)
		dst = append(dst, '}')
	}
	dst = append(dst, `,{"role":"assistant","content":`...)
	dst = g.text(dst, 10, 80)
	return append(dst, `}]`...)
}

func (g *Generator) metadata(dst []byte) []byte {
	dst = append(dst, `{"model":"gpt-4o-2024-08-06","total_input_tokens":`...)
	dst = strconv.AppendInt(dst, int64(g.r.IntN(90000)), 10)
	dst = append(dst, `,"total_output_tokens":`...)
	dst = strconv.AppendInt(dst, int64(g.r.IntN(4000)), 10)
	dst = append(dst, `,"agent_runtime_ms":`...)
	dst = strconv.AppendFloat(dst, g.r.Float64()*60000, 'f', 1, 64)
	return append(dst, `,"run":{"attempt":1,"tags":["eval","nightly"]}}`...)
}

func (g *Generator) rich(dst []byte) []byte {
	dst = append(dst, `{"final_response":`...)
	dst = g.text(dst, 10, 150)
	dst = append(dst, `,"messages":`...)
	dst = g.conversation(dst, false)
	dst = append(dst, `,"metadata":`...)
	dst = g.metadata(dst)
	return append(dst, '}')
}

func (g *Generator) openAI(dst []byte) []byte {
	dst = append(dst, `{"final_response":`...)
	dst = g.text(dst, 10, 150)
	dst = append(dst, `,"messages":`...)
	dst = g.conversation(dst, true)
	return append(dst, `,"metadata":{"model":"gpt-4o-mini"}}`...)
}

func (g *Generator) simple(dst []byte) []byte {
	dst = append(dst, `{"final_response":`...)
	dst = g.text(dst, 3, 60)
	if g.r.IntN(2) == 0 {
		dst = append(dst, `,"metadata":`...)
		dst = g.metadata(dst)
	}
	return append(dst, '}')
}

func (g *Generator) bareString(dst []byte) []byte { return g.text(dst, 1, 40) }

// dirty appends a result whose rich part needs soft warnings.
func (g *Generator) dirty(dst []byte) []byte {
	dst = append(dst, `{"final_response":`...)
	dst = g.text(dst, 10, 100)
	dst = append(dst, `,"messages":[{"role":"developer","content":"be brief"},{"role":"user","content":{"type":"text","text":"hi"}},`...)
	switch g.r.IntN(4) {
	case 0:
		dst = append(dst, `{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},`...)
	case 1:
		dst = append(dst, `{"role":"assistant","tool_calls":{"name":"f"}},`...)
	case 2:
		dst = append(dst, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},`...)
	case 3:
		// A lone surrogate escape is valid JSON (RFC 8259) but jq rejects it, so it comes
		// only with the malformed lines.
		if g.malformed {
			dst = append(dst, `{"role":"tool","tool_call_id":"nobody","content":"\ud800 lone"},`...)
		} else {
			dst = append(dst, `{"role":"tool","tool_call_id":"nobody","content":"no call made"},`...)
		}
	}
	dst = append(dst, `{"role":"assistant","content":`...)
	dst = g.text(dst, 5, 40)
	return append(dst, `}],"metadata":{"model":42,"total_input_tokens":"217","total_output_tokens":1.5,"agent_runtime_ms":12},"metadata":{"model":"m","total_input_tokens":10.0,"x":[1E+2,123456789012345678901234]}}`...)
}

// large appends a result of 5 to 25 KB, mostly long tool outputs.
func (g *Generator) large(dst []byte) []byte {
	dst = append(dst, `{"final_response":`...)
	dst = g.text(dst, 200, 800)
	dst = append(dst, `,"messages":[{"role":"user","content":"summarise the logs"}`...)
	for range 3 + g.r.IntN(6) {
		dst = append(dst, `,{"role":"tool","tool_call_id":null,"content":`...)
		dst = g.text(dst, 100, 400)
		dst = append(dst, '}')
	}
	return append(dst, `],"metadata":null}`...)
}

// overCap appends a result whose final_response is over the 50,000-character cap.
func (g *Generator) overCap(dst []byte) []byte {
	dst = append(dst, `{"final_response":"`...)
	for range 52_000 / 26 {
		dst = append(dst, "abcdefghijklmnopqrstuvwxyz"...)
	}
	return append(dst, `"}`...)
}

var badShapes = []string{
	`{"output":"the answer under the wrong key"}`,
	`{"final_response":""}`,
	`{"final_response":null}`,
	`""`,
	`null`,
	`42`,
	`[1,2,3]`,
	`{"final_response":{"text":"nested"}}`,
}

func (g *Generator) badShape(dst []byte) []byte {
	return append(dst, badShapes[g.r.IntN(len(badShapes))]...)
}

var malformed = []string{
	`{"final_response":"cut off`,
	`{"final_response":"a",}`,
	`{'final_response':'single quotes'}`,
	`{"final_response":"a","metadata":{"x":NaN}}`,
	`{"final_response":"a"} {"final_response":"b"}`,
	`{"final_response":"a" // comment}`,
	"{\"final_response\":\"bad utf-8 \xff\"}",
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`,
}

func (g *Generator) malformedLine(dst []byte) []byte {
	if !g.malformed {
		return g.rich(dst)
	}
	return append(dst, malformed[g.r.IntN(len(malformed))]...)
}

func (g *Generator) blank(dst []byte) []byte {
	if g.r.IntN(2) == 0 {
		return append(dst, "  \t "...)
	}
	return dst
}
