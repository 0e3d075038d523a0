package normalize_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// jsonTestSuite finds nst/JSONTestSuite's test_parsing folder: NORMALIZER_JSONTESTSUITE, which
// scripts/test.sh sets (from the Go module proxy) and which then must hold the suite, or else
// the copy in the shared folder beside the team's checkout, skipped where there is none.
func jsonTestSuite(t *testing.T) []string {
	dir, required := os.LookupEnv("NORMALIZER_JSONTESTSUITE")
	if !required {
		dir = "../../../shared/corpora/JSONTestSuite/test_parsing"
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	if len(files) == 0 && required {
		t.Fatalf("JSONTestSuite not found at NORMALIZER_JSONTESTSUITE=%s; expected its test_parsing folder (318 files)", dir)
	}
	if len(files) == 0 {
		t.Skipf("JSONTestSuite not found at %s; set NORMALIZER_JSONTESTSUITE to its test_parsing folder (scripts/test.sh does)", dir)
	}
	require.Len(t, files, 318, "JSONTestSuite at %s is incomplete", dir)
	return files
}

// The i_ files, where a parser may choose, with the choice and why. Every i_ file must be here.
var implementationDefined = map[string]struct {
	class normalize.Class // "" when the JSON is accepted (the shape may still be rejected)
	why   string
}{
	"i_number_double_huge_neg_exp.json":                   {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_huge_exp.json":                              {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_neg_int_huge_exp.json":                      {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_pos_double_huge_exp.json":                   {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_real_neg_overflow.json":                     {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_real_pos_overflow.json":                     {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_real_underflow.json":                        {"", "tiny numbers pass through verbatim (rule 11)"},
	"i_number_too_big_neg_int.json":                       {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_too_big_pos_int.json":                       {"", "huge numbers pass through verbatim (rule 11)"},
	"i_number_very_big_negative_int.json":                 {"", "huge numbers pass through verbatim (rule 11)"},
	"i_object_key_lone_2nd_surrogate.json":                {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_1st_surrogate_but_2nd_missing.json":         {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_1st_valid_surrogate_2nd_invalid.json":       {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_incomplete_surrogate_and_escape_valid.json": {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_incomplete_surrogate_pair.json":             {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_incomplete_surrogates_escape_valid.json":    {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_invalid_lonely_surrogate.json":              {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_invalid_surrogate.json":                     {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_inverted_surrogates_U+1D11E.json":           {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_lone_second_surrogate.json":                 {"", "a lone surrogate escape is valid JSON text (rule 14)"},
	"i_string_UTF-16LE_with_BOM.json":                     {normalize.ClassInvalidJSON, "the input must be UTF-8 (rule 1)"},
	"i_string_UTF-8_invalid_sequence.json":                {normalize.ClassInvalidJSON, "invalid UTF-8 (rule 1)"},
	"i_string_UTF8_surrogate_U+D800.json":                 {normalize.ClassInvalidJSON, "a surrogate encoded in UTF-8 is invalid UTF-8 (rule 1)"},
	"i_string_invalid_utf-8.json":                         {normalize.ClassInvalidJSON, "invalid UTF-8 (rule 1)"},
	"i_string_iso_latin_1.json":                           {normalize.ClassInvalidJSON, "Latin-1 is not UTF-8 (rule 1)"},
	"i_string_lone_utf8_continuation_byte.json":           {normalize.ClassInvalidJSON, "invalid UTF-8 (rule 1)"},
	"i_string_not_in_unicode_range.json":                  {normalize.ClassInvalidJSON, "past U+10FFFF is invalid UTF-8 (rule 1)"},
	"i_string_overlong_sequence_2_bytes.json":             {normalize.ClassInvalidJSON, "overlong forms are invalid UTF-8 (rule 1)"},
	"i_string_overlong_sequence_6_bytes.json":             {normalize.ClassInvalidJSON, "overlong forms are invalid UTF-8 (rule 1)"},
	"i_string_overlong_sequence_6_bytes_null.json":        {normalize.ClassInvalidJSON, "overlong forms are invalid UTF-8 (rule 1)"},
	"i_string_truncated-utf-8.json":                       {normalize.ClassInvalidJSON, "invalid UTF-8 (rule 1)"},
	"i_string_utf16BE_no_BOM.json":                        {normalize.ClassInvalidJSON, "the input must be UTF-8 (rule 1)"},
	"i_string_utf16LE_no_BOM.json":                        {normalize.ClassInvalidJSON, "the input must be UTF-8 (rule 1)"},
	"i_structure_500_nested_arrays.json":                  {"", "500 levels is within the default depth limit of 900"},
	"i_structure_UTF-8_BOM_empty_object.json":             {normalize.ClassInvalidJSON, "a byte order mark is not whitespace: nothing is repaired (rule 1)"},
}

// TestJSONTestSuite runs the public corpus through Normalize: no y_ file is InvalidJSON, every
// n_ file is, and each i_ file has the outcome pinned above.
func TestJSONTestSuite(t *testing.T) {
	seen := map[string]bool{}
	for _, path := range jsonTestSuite(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			_, err = normalize.Normalize(raw)
			class, _ := normalize.ClassOf(err)
			switch name[0] {
			case 'y':
				assert.NotEqual(t, normalize.ClassInvalidJSON, class, "valid JSON rejected: %v", err)
				checkPassThrough(t, raw)
			case 'n':
				assert.Equal(t, normalize.ClassInvalidJSON, class, "invalid JSON accepted (%v)", err)
			case 'i':
				want, ok := implementationDefined[name]
				require.True(t, ok, "no pinned outcome for %s", name)
				seen[name] = true
				if want.class == "" {
					assert.NotEqual(t, normalize.ClassInvalidJSON, class, "%s: %v", want.why, err)
					checkPassThrough(t, raw)
				} else {
					assert.Equal(t, want.class, class, want.why)
				}
			}
		})
	}
	assert.Len(t, seen, len(implementationDefined), "a pinned i_ file is missing from the corpus")
}

// checkPassThrough puts a valid JSON value where values pass through (a metadata value) and
// checks it comes out meaning the same, its text unchanged but for whitespace.
func checkPassThrough(t *testing.T, value []byte) {
	t.Helper()
	doc := append(append([]byte(`{"final_response":"ok","metadata":{"v":`), bytes.TrimSpace(value)...), "}}"...)
	res, err := normalize.Normalize(doc)
	require.NoError(t, err)
	var rec struct {
		Metadata struct {
			V json.RawMessage `json:"v"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(res.AppendJSON(nil), &rec))
	compact := new(bytes.Buffer)
	require.NoError(t, json.Compact(compact, bytes.TrimSpace(value)))
	assert.Equal(t, compact.String(), strings.TrimSpace(string(rec.Metadata.V)), "a value passing through changed")
}
