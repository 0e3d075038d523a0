package httpapi

import (
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// When the budget has no room for the record's class slack, no class buffer is taken (or
// allocated and left in the pool) before the exact one.
func TestRecordSlackCheckedBeforeTheBuffer(t *testing.T) {
	const n = 2<<20 + 100<<10 // the record's hint rounds up to the 4 MiB class
	body := `{"final_response":"ok","messages":[{"role":"user","content":"` + strings.Repeat("x", n-70) + `"}]}`
	holder := ceilMul(4.5, 1<<20) + perRequest
	s, _ := newTestServer(t, Config{MemoryBudget: holder + ceilMul(4.5, int64(len(body))) + 1 + perRequest + 100<<10})
	h := s.Handler()
	release := holdClaim(h, 20<<20)
	require.Eventually(t, func() bool { return s.budget.used.Load() == holder }, 5*time.Second, time.Millisecond)
	runtime.GC()
	runtime.GC() // empties the pools
	req := httptest.NewRequest("POST", "/v1/normalize", strings.NewReader(body))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	require.Equal(t, 200, w.Code)
	if b, ok := bufferPools[8].Get().(*buffer); ok {
		assert.Fail(t, "a 4 MiB buffer was allocated for the record and never reserved", "cap %d", cap(b.b))
	}
	release()
}
