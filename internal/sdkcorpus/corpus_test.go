package sdkcorpus_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the explain goldens of testdata")

const dir = "testdata"

// sdkCase is one case of the corpus: its input, what NAME.case.json says of it, and its
// explain view.
type sdkCase struct {
	Name  string
	Input []byte
	Meta  caseMeta
	View  explained
}

// caseMeta is NAME.case.json, written by gen/generate.mjs.
type caseMeta struct {
	Source struct {
		SDK      string `json:"sdk"`      // openai-chat, openai-responses, openai-agents, anthropic, gemini, langchain, ai-sdk, mistral, llamaindex, crewai, strands
		Package  string `json:"package"`  // the npm package whose objects built the input (for CrewAI, which has none, the Python package whose types did)
		Version  string `json:"version"`  // its version, as gen/package-lock.json pins it (for CrewAI, that of the source read)
		API      string `json:"api"`      // the call or class that made the object
		Language string `json:"language"` // javascript, python, or any: the shape is the wire's, sent by either
	} `json:"source"`
	Built      string `json:"built"`      // how the object was made
	Serialized string `json:"serialized"` // how the handler serialized it
	Expect     struct {
		Verdict  string  `json:"verdict"`  // accepted or rejected
		Messages int     `json:"messages"` // messages the record keeps
		Answer   *string `json:"answer"`   // the agent's answer, when the input holds it; null when the run has none
		// StoppedAtToolCall: the model's last turn ended at a tool call.
		StoppedAtToolCall bool `json:"stopped_at_tool_call"`
		// FinalResponseIsAnswer false: final_response holds text, but not the answer (an
		// object's JSON text, Python's str of a dict, a preamble).
		FinalResponseIsAnswer *bool `json:"final_response_is_answer"`
		// The run's true token totals, where metadata carries usage.
		TotalInputTokens  *int64 `json:"total_input_tokens"`
		TotalOutputTokens *int64 `json:"total_output_tokens"`
	} `json:"expect"`
}

func loadCases(t *testing.T) []sdkCase {
	t.Helper()
	inputs, err := filepath.Glob(filepath.Join(dir, "*.input.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs, "no cases under %s: run scripts/sdk-corpus.sh", dir)
	cases := make([]sdkCase, 0, len(inputs))
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		raw, err := os.ReadFile(in)
		require.NoError(t, err)
		metaBytes, err := os.ReadFile(filepath.Join(dir, name+".case.json"))
		require.NoError(t, err, "%s has no case file", name)
		var meta caseMeta
		dec := json.NewDecoder(bytes.NewReader(metaBytes))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&meta), "%s.case.json", name)
		cases = append(cases, sdkCase{Name: name, Input: raw, Meta: meta, View: explain(name+".input.json", raw)})
	}
	return cases
}

// TestCorpusSize: the corpus covers every SDK of gen/cases, with 40 to 80 cases in all.
func TestCorpusSize(t *testing.T) {
	bySDK := map[string]int{}
	for _, c := range loadCases(t) {
		bySDK[c.Meta.Source.SDK]++
	}
	for _, sdk := range []string{"openai-chat", "openai-responses", "openai-agents", "anthropic", "gemini", "langchain", "ai-sdk", "mistral", "llamaindex", "crewai", "strands"} {
		require.NotZero(t, bySDK[sdk], "no case of %s", sdk)
	}
	n := 0
	for _, k := range bySDK {
		n += k
	}
	require.GreaterOrEqual(t, n, 40)
	require.LessOrEqual(t, n, 80)
}

// TestGolden pins the exact bytes of every case's explain view, so that any change of advice
// shows in git diff testdata/. Regenerate with `go test ./internal/sdkcorpus -run Golden
// -update`. `normalizer check --explain internal/sdkcorpus/testdata` (and with --format text)
// checks the same files through the command line.
func TestGolden(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			for suffix, got := range map[string][]byte{".golden.json": c.View.JSON, ".golden.txt": c.View.Text} {
				path := filepath.Join(dir, c.Name+suffix)
				if *update {
					require.NoError(t, os.WriteFile(path, got, 0o644))
					continue
				}
				want, err := os.ReadFile(path)
				require.NoError(t, err, "no golden file: run go test ./internal/sdkcorpus -run Golden -update")
				require.Equal(t, string(want), string(got), "%s%s mismatch (regenerate with -update, then review git diff testdata/)", c.Name, suffix)
			}
		})
	}
}

// TestGenerated: the committed inputs and case files are exactly what the generator writes
// from the pinned SDKs. It runs scripts/sdk-corpus.sh into a temporary directory, which needs
// Node.js and npm and installs the pinned packages once into a cache; without Node it skips,
// unless NORMALIZER_SDKCORPUS is set (scripts/test.sh sets it), when it fails.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the generator installs npm packages")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("NORMALIZER_SDKCORPUS") != "" {
			t.Fatalf("NORMALIZER_SDKCORPUS is set but node is not on PATH: %v", err)
		}
		t.Skip("node is not on PATH: the generated corpus is not compared (scripts/test.sh installs Node)")
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "../../scripts/sdk-corpus.sh", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), "scripts/sdk-corpus.sh: %s", stderr.String())
	generated := caseFiles(t, out)
	committed := caseFiles(t, dir)
	require.Equal(t, names(generated), names(committed), "the generator writes other cases than testdata holds: run scripts/sdk-corpus.sh")
	for name, want := range generated {
		require.Equal(t, string(want), string(committed[name]), "%s differs from what the generator writes: run scripts/sdk-corpus.sh and review git diff", name)
	}
}

// caseFiles reads every NAME.input.json and NAME.case.json of dir.
func caseFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, pattern := range []string{"*.input.json", "*.case.json"} {
		paths, err := filepath.Glob(filepath.Join(dir, pattern))
		require.NoError(t, err)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			files[filepath.Base(p)] = b
		}
	}
	return files
}

func names(m map[string][]byte) []string {
	s := make([]string, 0, len(m))
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}
