package normalize_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// advising is an Advisor that gives every ResponseShapeError the same Advice, and no note.
type advising struct{ advice softwarn.Warning }

func (a advising) Notes(normalize.View) normalize.Notes { return nil }

func (a advising) Hint(err error, _ []byte, _ int) error {
	var e *normalize.ResponseShapeError
	if errors.As(err, &e) {
		adv := a.advice
		e.Advice = &adv
	}
	return err
}

// A rejection's Advice is kept with WithExplain only, and the error object carries it under
// "advice", after the path, as a diagnostic without action and severity; the message stays the
// contract's, byte for byte. Without explain the error object is the plain one.
func TestAdviceBesideTheMessage(t *testing.T) {
	adv := advising{softwarn.At("messages").Index(1).Warning(softwarn.FinalResponseStoppedAtToolCall, "", softwarn.Parts{
		Problem: "the transcript ends in a tool call", Fix: `run the "loop"`})}
	raw := []byte(`{"final_response": "", "messages": []}`)
	const message = `"message":"Handler returned an empty string for final_response. The platform rejects empty responses (the LLM judge has nothing to grade against). Return at least a one-sentence summary of what the agent did or why it failed."`

	_, err := normalize.New(normalize.WithAdvisor(adv)).Normalize(raw)
	var e *normalize.ResponseShapeError
	require.ErrorAs(t, err, &e)
	assert.Nil(t, e.Advice, "advice without explain")
	assert.Equal(t, `{"error":{"class":"ResponseShapeError",`+message+`,"path":"final_response"}}`, string(normalize.AppendError(nil, err)))

	_, err = normalize.New(normalize.WithAdvisor(adv), normalize.WithExplain()).Normalize(raw)
	require.ErrorAs(t, err, &e)
	require.NotNil(t, e.Advice)
	assert.Equal(t, normalize.EmptyResponseMessage, err.Error(), "the advice is not in the message")
	assert.Equal(t, `{"error":{"class":"ResponseShapeError",`+message+`,"path":"final_response",`+
		`"advice":{"path":"messages[1]","pointer":"/messages/1","code":"final_response_stopped_at_tool_call",`+
		`"message":"the transcript ends in a tool call; run the \"loop\"","problem":"the transcript ends in a tool call",`+
		`"fix":{"message":"run the \"loop\""}}}}`, string(normalize.AppendError(nil, err)))
}

// Advice on a ResponseShapeError without a path follows the class and message directly.
func TestAdviceWithoutPath(t *testing.T) {
	e := &normalize.ResponseShapeError{Got: "array", Problem: "the result is an array",
		Advice: &softwarn.Warning{Code: softwarn.FinalResponseAnswerInMessages, Parts: softwarn.Parts{Found: "an answer"}}}
	assert.Equal(t, `{"error":{"class":"ResponseShapeError","message":"the result is an array",`+
		`"advice":{"path":"","pointer":"","code":"final_response_answer_in_messages","message":"found an answer","found":"an answer"}}}`,
		string(normalize.AppendError(nil, e)))
}
