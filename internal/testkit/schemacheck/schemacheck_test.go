package schemacheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/softwarn"
	"github.com/dystopic/normalizer/schemas"
)

func TestEverySchemaCompiles(t *testing.T) {
	require.NotEmpty(t, schemas.Names())
	for _, name := range schemas.Names() {
		_, err := Schema(name)
		require.NoError(t, err, name)
	}
}

func TestSchemasOnContractExamples(t *testing.T) {
	tests := []struct {
		name, schema, doc string
		valid             bool
	}{
		{"bare string", "result.schema.json", `"done"`, true},
		{"empty string", "result.schema.json", `""`, false},
		{"null", "result.schema.json", `null`, false},
		{"no final_response", "result.schema.json", `{"output":"x"}`, false},
		{"rich messages are open", "result.schema.json", `{"final_response":"x","messages":5}`, true},
		{"flat tool call", "tool-call.schema.json", `{"id":"c1","name":"get_order","arguments":{"order_id":"4521"}}`, true},
		{"nested tool call", "tool-call.schema.json", `{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}`, true},
		{"nested without name", "tool-call.schema.json", `{"type":"function","function":{"arguments":"{}"}}`, false},
		{"function null is flat", "tool-call.schema.json", `{"name":"f","function":null}`, true},
		{"developer role", "message.schema.json", `{"role":"developer","content":"x"}`, false},
		{"bare content part", "message.schema.json", `{"role":"user","content":{"type":"text","text":"x"}}`, false},
		{"openai dump nulls", "message.schema.json", `{"role":"assistant","content":"x","tool_calls":null,"function_call":null,"refusal":null}`, true},
		{"tokens 10.0", "metadata.schema.json", `{"total_input_tokens":10.0}`, true},
		{"tokens 1.5", "metadata.schema.json", `{"total_input_tokens":1.5}`, false},
		{"tokens -1", "metadata.schema.json", `{"total_output_tokens":-1}`, false},
		{"tokens string", "metadata.schema.json", `{"total_output_tokens":"217"}`, false},
		{"error object", "error.schema.json", `{"error":{"class":"InvalidJSON","message":"x","line":1,"column":1,"offset":0}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.schema, []byte(tt.doc))
			if tt.valid {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
			}
		})
	}
}

// TestDiagnosticCodes: the diagnostic schema enumerates exactly the codes there are, the soft
// warnings' then the notes', so that a new code cannot reach the explain view unlisted.
func TestDiagnosticCodes(t *testing.T) {
	raw, err := schemas.FS.ReadFile("diagnostic.schema.json")
	require.NoError(t, err)
	var doc struct {
		Properties struct {
			Code struct {
				Enum []softwarn.Code `json:"enum"`
			} `json:"code"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Equal(t, append(softwarn.WarningCodes(), softwarn.NoteCodes()...), doc.Properties.Code.Enum)
}

// TestAdviceCodes: the error schema's advice enumerates exactly the codes a rejection's advice
// has.
func TestAdviceCodes(t *testing.T) {
	raw, err := schemas.FS.ReadFile("error.schema.json")
	require.NoError(t, err)
	var doc struct {
		Properties struct {
			Error struct {
				Properties struct {
					Advice struct {
						Properties struct {
							Code struct {
								Enum []softwarn.Code `json:"enum"`
							} `json:"code"`
						} `json:"properties"`
					} `json:"advice"`
				} `json:"properties"`
			} `json:"error"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Equal(t, softwarn.AdviceCodes(), doc.Properties.Error.Properties.Advice.Properties.Code.Enum)
}
