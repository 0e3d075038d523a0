package normalize_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// frameworkNames are the frameworks, APIs and programs whose shapes the advice of package
// porting knows. The contract names none of them: the record's wording that does lives in
// package messages (fixes.go), the advice in package porting.
var frameworkNames = regexp.MustCompile(`(?i)\b(OpenAI|Anthropic|Gemini|LangChain|LlamaIndex|Pydantic|AutoGen|CrewAI|Strands|AI SDK|Mistral|PowerShell|repr)\b`)

// TestNamesNoFramework: no non-test Go file of pkg/normalize or internal/jsonscan names a
// framework, in code or in a comment.
func TestNamesNoFramework(t *testing.T) {
	for _, dir := range []string{".", "../../internal/jsonscan"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			for i, line := range strings.Split(string(src), "\n") {
				if m := frameworkNames.FindString(line); m != "" {
					t.Errorf("%s:%d names %s: %s", f, i+1, m, strings.TrimSpace(line))
				}
			}
		}
	}
}
