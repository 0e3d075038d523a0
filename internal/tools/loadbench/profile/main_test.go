package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/testkit/corpus"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// The ladder's servers must do what they stand for: bare answers with the record, exactly as
// the core writes it, and spin with the body, as the floor does.
func TestLadderHandlers(t *testing.T) {
	body := corpus.Small()
	res, err := normalize.New().Normalize(body)
	require.NoError(t, err)
	record := res.AppendJSON(nil)

	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    []byte
	}{
		{"bare answers with the record", bare(normalize.New()), record},
		{"spin answers with the body", spinning(time.Microsecond), body},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 3 { // pooled buffers must not leak one request into the next
				w := httptest.NewRecorder()
				tt.handler(w, httptest.NewRequest(http.MethodPost, "/v1/normalize", bytes.NewReader(body)))
				assert.Equal(t, http.StatusOK, w.Code)
				assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
				assert.Equal(t, string(tt.want), w.Body.String())
			}
		})
	}
}

func TestBareRejectsWhatTheCoreRejects(t *testing.T) {
	w := httptest.NewRecorder()
	bare(normalize.New())(w, httptest.NewRequest(http.MethodPost, "/v1/normalize", bytes.NewReader([]byte(`{"final_response": ""}`))))
	assert.Equal(t, http.StatusUnprocessableEntity, w.Code)
}
