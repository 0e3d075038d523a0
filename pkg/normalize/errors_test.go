package normalize_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// hinted is a wrapper that adds a hint after a rejection's text, as the HTTP service does.
type hinted struct{ err error }

func (h hinted) Error() string { return h.err.Error() + "; send JSON" }
func (h hinted) Unwrap() error { return h.err }

func (h hinted) RejectionMessage() string { return h.Error() }

// reworded is a wrapper whose text replaces a rejection's, as the HTTP service's 413 does.
type reworded struct{ err error }

func (r reworded) Error() string { return "request body is over the limit" }
func (r reworded) Unwrap() error { return r.err }

func (r reworded) RejectionMessage() string { return r.Error() }

// logged is a wrapper whose log text (Error) differs from the words it gives the error object.
type logged struct{ err error }

func (l logged) Error() string            { return "internal log text" }
func (l logged) Unwrap() error            { return l.err }
func (l logged) RejectionMessage() string { return "REWORDED" }

// AppendError's message is the rejection's own: context a caller's plain wrapping put around it
// is left out (the empty-answer message stays byte for byte the contract's); a WordedRejection's
// hint after it, or its rewording, stays. A nil error appends nothing.
func TestAppendErrorMessage(t *testing.T) {
	rejected := func(raw string) error {
		_, err := normalize.Normalize([]byte(raw))
		return err
	}
	empty := rejected(`{"final_response":""}`)
	syntax := rejected(`{"final_response":"a",}`)
	large := &normalize.PayloadTooLargeError{Size: 12, Limit: 10}
	emptyObject := `{"error":{"class":"ResponseShapeError","message":"` + normalize.EmptyResponseMessage + `","path":"final_response"}}`
	syntaxObject := func(msg string) string {
		return `{"error":{"class":"InvalidJSON","message":"` + msg + `","line":1,"column":22,"offset":21}}`
	}
	syntaxText := syntax.Error()
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"empty", empty, emptyObject},
		{"empty, context before", fmt.Errorf("run 42: %w", empty), emptyObject},
		{"empty, text after", fmt.Errorf("%w (run 42)", empty), emptyObject},
		{"empty, twice wrapped", fmt.Errorf("task 7: %w", fmt.Errorf("run 42: %w", empty)), emptyObject},
		{"syntax, context before", fmt.Errorf("run 42: %w", syntax), syntaxObject(syntaxText)},
		{"syntax, hint after", hinted{syntax}, syntaxObject(syntaxText + "; send JSON")},
		{"syntax, context and hint", fmt.Errorf("run 42: %w", hinted{syntax}), syntaxObject(syntaxText + "; send JSON")},
		{"too large, context before", fmt.Errorf("run 42: %w", large),
			`{"error":{"class":"PayloadTooLarge","message":"payload of 12 bytes is over the limit of 10 bytes; send a smaller result or raise the limit","limit":10}}`},
		{"too large, reworded", reworded{large}, `{"error":{"class":"PayloadTooLarge","message":"request body is over the limit","limit":10}}`},
		{"syntax, plain wrapping that repeats the text", fmt.Errorf("%w; %w", syntax, syntax), syntaxObject(syntaxText)},
		// One rejection describes the object: the outermost (errors.Join's first), its class,
		// message and details together, never one rejection's class with another's message.
		{"joined, shape first", errors.Join(empty, syntax), emptyObject},
		{"joined, too large first", fmt.Errorf("%w; %w", large, syntax),
			`{"error":{"class":"PayloadTooLarge","message":"payload of 12 bytes is over the limit of 10 bytes; send a smaller result or raise the limit","limit":10}}`},
		{"worded wrapper of another rejection than the outermost", errors.Join(empty, hinted{syntax}), emptyObject},
		{"worded wrapper of a plain error", hinted{errors.New("disk full")}, `{"error":{"class":"Internal","message":"disk full; send JSON"}}`},
		{"worded wrapper of a sentinel", logged{normalize.ErrInvalidJSON}, `{"error":{"class":"InvalidJSON","message":"REWORDED"}}`},
		{"worded wrapper found past another in a join", errors.Join(hinted{errors.New("disk")}, logged{syntax}), syntaxObject("REWORDED")},
		{"not a rejection", errors.New("disk full"), `{"error":{"class":"Internal","message":"disk full"}}`},
		{"not a rejection, wrapped", fmt.Errorf("run 42: %w", errors.New("disk full")), `{"error":{"class":"Internal","message":"run 42: disk full"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(normalize.AppendError(nil, tt.err)))
		})
	}
	t.Run("nil", func(t *testing.T) {
		dst := []byte("before")
		assert.NotPanics(t, func() { dst = normalize.AppendError(dst, nil) })
		assert.Equal(t, "before", string(dst))
	})
}
