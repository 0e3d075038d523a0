package porting

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// sourceNames are the names of the sources the advice knows, each as the pattern that finds
// it in Go source: in prose, and in identifiers (geminiMessage), case aside.
var sourceNames = map[string]*regexp.Regexp{
	"OpenAI":     regexp.MustCompile(`(?i)openai`),
	"Anthropic":  regexp.MustCompile(`(?i)anthropic|claude`),
	"Gemini":     regexp.MustCompile(`(?i)gemini|google`),
	"LangChain":  regexp.MustCompile(`(?i)langchain|langgraph`),
	"LlamaIndex": regexp.MustCompile(`(?i)llamaindex|llama_index`),
	"Pydantic":   regexp.MustCompile(`(?i)pydantic`),
	"AutoGen":    regexp.MustCompile(`(?i)autogen`),
	"CrewAI":     regexp.MustCompile(`(?i)crewai`),
	"Strands":    regexp.MustCompile(`(?i)strands|bedrock`),
	"AI SDK":     regexp.MustCompile(`AI SDK|(?i)vercel|aisdk`),
	"Mistral":    regexp.MustCompile(`(?i)mistral`),
	"Ollama":     regexp.MustCompile(`(?i)ollama`),
	"smolagents": regexp.MustCompile(`(?i)smolagents`),
	"PowerShell": regexp.MustCompile(`(?i)powershell`),
	"Python":     regexp.MustCompile(`(?i)python|\brepr\b|\brepr[A-Z]`),
}

// goFile is the name of a Go file.
var goFile = regexp.MustCompile(`\b\w+\.go\b`)

// sourceFiles are the files of one source each, with the names each may say: its own, and the
// languages and programs its fixes are written in.
var sourceFiles = map[string][]string{
	"encoding.go":         {"PowerShell", "Python"}, // not a framework: gzip, UTF-16 and what writes them
	"anthropic.go":        {"Anthropic", "Python"},  // the Python SDK's stream helper
	"aisdk.go":            {"AI SDK", "OpenAI"},     // a content part's shape, as OpenAI's
	"autogen.go":          {"AutoGen"},
	"crewai.go":           {"CrewAI", "Python", "Pydantic"},   // Python only; its outputs' "pydantic" member
	"gemini.go":           {"Gemini", "Python"},               // the Python SDK's snake_case names
	"langchain.go":        {"LangChain", "OpenAI", "Python"},  // its convert_to_openai_messages; its Python helpers
	"llamaindex.go":       {"LlamaIndex", "OpenAI", "Python"}, // an OpenAI model's calls in its kwargs; Python's model_dump
	"ollama.go":           {"Ollama"},
	"openai_agents.go":    {"OpenAI", "Python"}, // the Python SDK's raw_item
	"openai_chat.go":      {"OpenAI", "Python"}, // the Python SDK's stream helper
	"openai_responses.go": {"OpenAI", "Python"}, // the Python SDK's stream helper
	"pydanticai.go":       {"Pydantic"},
	"python.go":           {"Python"},
	"python_repr.go":      {"Python"},
	"smolagents.go":       {"smolagents", "Python"}, // its tool calls as Python text
	"strands.go":          {"Strands", "Python"},    // Bedrock's content blocks; Python's json.dumps
}

// TestSourceNames: a source's name appears only in its own file (sourceFiles); the engine
// files, every other non-test file, name none.
func TestSourceNames(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		allowed := sourceFiles[f]
		for i, line := range strings.Split(string(src), "\n") {
			line := goFile.ReplaceAllString(line, "") // a file is named for its source
			for name, re := range sourceNames {
				if re.MatchString(line) && !slices.Contains(allowed, name) {
					t.Errorf("%s:%d names %s, which is not its source: %s", f, i+1, name, strings.TrimSpace(line))
				}
			}
		}
	}
	for f := range sourceFiles {
		_, err := os.Stat(f)
		assert.NoError(t, err, "sourceFiles lists %s", f)
	}
}

// TestSourceTables: every entry of a source's tables has a documented code, and no two
// sources claim the same syntax shape.
func TestSourceTables(t *testing.T) {
	codes := append(softwarn.NoteCodes(), softwarn.WarningCodes()...)
	found := map[normalize.FoundKind]string{}
	bits := map[partKinds]string{} // a part kind's bit, by the source that sets it
	require.NotEmpty(t, sources)
	for _, s := range sources {
		for _, p := range s.parts {
			for b := partKinds(1); b != 0; b <<= 1 {
				if p.set&b != 0 && b != pkText {
					assert.Contains(t, []string{"", s.name}, bits[b], "%s and %s both set the part kind %#x", s.name, bits[b], b)
					bits[b] = s.name
				}
			}
		}
		for _, v := range append(s.values[:len(s.values):len(s.values)], s.lists...) {
			assert.NotNil(t, v.hint, "%s: a value shape of rank %d without its hint", s.name, v.rank)
		}
		for _, b := range s.blocks {
			assert.Contains(t, codes, b.code, "%s: the block shape %q has no documented code", s.name, b.typ)
		}
		for _, l := range s.legacy {
			assert.Contains(t, codes, l.code, "%s: the legacy member %q has no documented code", s.name, l.member)
		}
		for _, x := range s.texts {
			assert.Contains(t, codes, x.code, "%s: a text shape has no documented code", s.name)
			assert.True(t, x.is != nil && x.note != nil, "%s: a text shape without its recogniser or its note", s.name)
		}
		for _, sh := range s.syntax {
			assert.NotEqual(t, normalize.FoundSyntax, sh.found, "%s: a syntax shape of plain malformed JSON", s.name)
			assert.NotContains(t, found, sh.found, "%s and %s both word the same syntax shape", s.name, found[sh.found])
			found[sh.found] = s.name
			assert.NotEmpty(t, sh.reason(normalize.Found{Kind: sh.found, Word: "None"}), s.name)
		}
		for _, r := range s.printed {
			assert.NotNil(t, r.note, "%s: a printed shape of rank %d without its note", s.name, r.rank)
		}
		for _, ph := range s.placeholders {
			assert.NotEmpty(t, ph.text, s.name)
			assert.NotEmpty(t, ph.says, "%s: the placeholder %q says nothing of what prints it", s.name, ph.text)
		}
		ranks := map[int]bool{}
		for _, m := range s.messages {
			assert.Contains(t, codes, m.code, "%s: a message shape of rank %d has no documented code", s.name, m.rank)
			assert.True(t, m.is != nil && m.note != nil, "%s: a message shape of rank %d without its recogniser or its note", s.name, m.rank)
			assert.False(t, ranks[m.rank], "%s: two message shapes of rank %d", s.name, m.rank)
			ranks[m.rank] = true
		}
		for _, o := range s.outputs {
			assert.Contains(t, codes, o.code, "%s: a tool output shape has no documented code", s.name)
			assert.True(t, o.read != nil && o.note != nil, "%s: a tool output shape without its recogniser or its note", s.name)
		}
		for _, tr := range s.transcripts {
			assert.Contains(t, codes, tr.code, "%s: the transcript key %q has no documented code", s.name, tr.key)
			assert.NotEmpty(t, tr.key, s.name)
		}
	}
	var blocks int
	for _, s := range sources {
		blocks += len(s.blocks)
	}
	for _, rs := range [][]resultShape{resultShapes, probeShapes} {
		for i, r := range rs {
			assert.NotNil(t, r.hint, "a result shape or probe of rank %d without its hint", r.rank)
			if i > 0 {
				assert.NotEqual(t, rs[i-1].rank, r.rank, "two result shapes or probes of one rank: which says is the order of the files")
			}
		}
	}
	var keys []string
	for _, s := range sources {
		for _, k := range s.factKeys {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	assert.LessOrEqual(t, len(keys), maxFactKeys, "objectFacts keeps at most maxFactKeys fact keys")
	for i, k := range factKeys {
		var f objectFacts
		_, value := f.slot([]byte(k))
		assert.True(t, value == &f.values[i], "the fact key %q is one every shape reads, kept apart", k)
	}
	for i, ts := range turnShapes {
		assert.True(t, (ts.read == nil) != (ts.part == ""), "a turn shape of rank %d without its reader or its part, or with both", ts.rank)
		assert.True(t, ts.part == "" || ts.call.kind == turnCall, "a turn shape of rank %d whose part makes no call", ts.rank)
		if i > 0 {
			assert.NotEqual(t, turnShapes[i-1].rank, ts.rank, "two turn shapes of one rank: which says is the order of the files")
		}
	}
	for _, vs := range [][]valueShape{objectValues, listValues, arrayValues} {
		for i := 1; i < len(vs); i++ {
			assert.NotEqual(t, vs[i-1].rank, vs[i].rank, "two value shapes of one rank: which says is the order of the files")
		}
	}
	assert.LessOrEqual(t, blocks, maxBlockShapes, "messageFacts counts at most maxBlockShapes block shapes")
	for i := 1; i < len(printedShapes); i++ {
		assert.NotEqual(t, printedShapes[i-1].rank, printedShapes[i].rank, "two printed shapes of one rank: which says is the order of the files")
	}
	printed := map[string]bool{}
	for _, sh := range printedShapes {
		for _, k := range sh.keys {
			printed[k] = true
		}
	}
	assert.LessOrEqual(t, len(printed), maxPrintedKeys, "readPrinted keeps the values of at most maxPrintedKeys keys")
	texts := map[string]bool{}
	for _, ph := range placeholders {
		assert.False(t, texts[ph.text], "two placeholders of the text %q", ph.text)
		texts[ph.text] = true
	}
	for _, k := range []normalize.FoundKind{normalize.FoundGzip, normalize.FoundWide, normalize.FoundSingleQuote, normalize.FoundLiteral, normalize.FoundNonFinite} {
		assert.Contains(t, found, k, "no source words what the scanner found (kind %d)", k)
	}
}

// registration finds a source's var and the name it registers (none for generic shapes).
var registration = regexp.MustCompile(`(?m)^var \w+ = register\(source\{\n(?:\s*name:\s*"([^"]*)",)?`)

// TestSourceOrder: the sources register in the order of their files' names, which the notes
// that name several sources follow (joinTranscripts, joinMetaNames); a source's var that reads
// a var declared after sources would register later (sources.go: factKeys).
func TestSourceOrder(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	slices.Sort(files)
	var want, got []string // the names, with the file of each wanted for the failure's diff
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range registration.FindAllStringSubmatch(string(src), -1) {
			want = append(want, m[1]+" ("+f+")")
		}
	}
	require.Len(t, sources, len(want), "a source registered outside a var of its own")
	for i, s := range sources {
		_, file, _ := strings.Cut(want[i], " (")
		got = append(got, s.name+" ("+file)
	}
	assert.Equal(t, want, got, "the sources in the order of their files, and in the order registered")
}

// factRead finds a shape's reading of a fact key.
var factRead = regexp.MustCompile(`\bf\.(?:value|has|place)\("([^"]*)"\)`)

// TestFactKeysListed: every fact key a shape reads is one a source lists (factKeys), else
// objectFacts keeps no value of it.
func TestFactKeysListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	reads := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range factRead.FindAllStringSubmatch(string(src), -1) {
			reads++
			assert.Contains(t, factKeys, m[1], "%s reads the fact key %q, which no source lists", f, m[1])
		}
	}
	assert.NotZero(t, reads)
}
