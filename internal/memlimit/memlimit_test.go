package memlimit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const gib = 1 << 30

// detected returns a Detect function that reports n and err, and counts its calls.
func detected(n int64, err error, calls *int) func() (int64, error) {
	return func() (int64, error) {
		*calls++
		return n, err
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name       string
		cfg        Config
		detect     int64 // what Detect reports, when wantDetect
		detectErr  error
		wantDetect bool // Detect must be asked (and only then)
		want       Plan
		wantErr    []string // substrings of the error: what was found, what was expected, where
	}{
		{name: "explicit GOMEMLIMIT wins over an explicit limit",
			cfg:  Config{GOMEMLIMIT: "900MiB", Limit: gib, LimitFrom: "NORMALIZER_MEMORY_LIMIT", Ratio: 0.9},
			want: Plan{Source: SourceGOMEMLIMIT, GOMEMLIMIT: "900MiB"}},
		{name: "explicit GOMEMLIMIT wins over the cgroup", cfg: Config{GOMEMLIMIT: "off", Ratio: 0.9},
			want: Plan{Source: SourceGOMEMLIMIT, GOMEMLIMIT: "off"}},
		{name: "env limit times the default ratio",
			cfg:  Config{Limit: gib, LimitFrom: "NORMALIZER_MEMORY_LIMIT", Ratio: DefaultRatio},
			want: Plan{SoftLimit: 966367641, Limit: gib, Ratio: 0.9, Source: "NORMALIZER_MEMORY_LIMIT"}},
		{name: "flag limit times a given ratio", cfg: Config{Limit: 2 * gib, LimitFrom: "--memory-limit", Ratio: 0.5},
			want: Plan{SoftLimit: gib, Limit: 2 * gib, Ratio: 0.5, Source: "--memory-limit"}},
		{name: "ratio 1 is the limit itself", cfg: Config{Limit: math.MaxInt64, LimitFrom: "--memory-limit", Ratio: 1},
			want: Plan{SoftLimit: math.MaxInt64, Limit: math.MaxInt64, Ratio: 1, Source: "--memory-limit"}},
		{name: "smallest limit accepted", cfg: Config{Limit: MinLimit, LimitFrom: "--memory-limit", Ratio: 0.5},
			want: Plan{SoftLimit: MinLimit / 2, Limit: MinLimit, Ratio: 0.5, Source: "--memory-limit"}},
		{name: "an explicit limit is preferred to the cgroup", cfg: Config{Limit: gib, LimitFrom: "--memory-limit", Ratio: 1},
			detect: 4 * gib, want: Plan{SoftLimit: gib, Limit: gib, Ratio: 1, Source: "--memory-limit"}},
		{name: "cgroup limit times ratio", cfg: Config{Ratio: 0.75}, detect: 512 << 20, wantDetect: true,
			want: Plan{SoftLimit: 384 << 20, Limit: 512 << 20, Ratio: 0.75, Source: SourceCgroup}},
		{name: "no limit anywhere sets nothing", cfg: Config{Ratio: 0.9}, wantDetect: true,
			want: Plan{Source: SourceNone, Ratio: 0.9, Reason: "no memory limit given, and the cgroup sets none"}},
		{name: "cgroup unreadable sets nothing and says why", cfg: Config{Ratio: 0.9}, detectErr: errors.New("process is not in cgroup"),
			wantDetect: true,
			want:       Plan{Source: SourceNone, Ratio: 0.9, Reason: "no memory limit given, and none read from the cgroup: process is not in cgroup"}},
		{name: "no detection sets nothing", cfg: Config{Ratio: 0.9, Detect: nil},
			want: Plan{Source: SourceNone, Ratio: 0.9, Reason: "no memory limit given and cgroup detection is off"}},
		{name: "ratio above 1", cfg: Config{Limit: gib, Ratio: 1.5, RatioFrom: "NORMALIZER_MEMORY_LIMIT_RATIO"},
			wantErr: []string{"NORMALIZER_MEMORY_LIMIT_RATIO is 1.5", "above 0 and at most 1"}},
		{name: "ratio 0", cfg: Config{Limit: gib, Ratio: 0, RatioFrom: "--memory-limit-ratio"},
			wantErr: []string{"--memory-limit-ratio is 0", "above 0 and at most 1"}},
		{name: "ratio negative", cfg: Config{Ratio: -0.5, RatioFrom: "--memory-limit-ratio"},
			wantErr: []string{"--memory-limit-ratio is -0.5", "above 0 and at most 1"}},
		{name: "ratio NaN", cfg: Config{Ratio: math.NaN(), RatioFrom: "--memory-limit-ratio"},
			wantErr: []string{"--memory-limit-ratio is NaN", "above 0 and at most 1"}},
		{name: "bad ratio is an error even when GOMEMLIMIT wins", cfg: Config{GOMEMLIMIT: "1GiB", Ratio: 2, RatioFrom: "--memory-limit-ratio"},
			wantErr: []string{"--memory-limit-ratio is 2"}},
		{name: "limit in MiB by a resourceFieldRef divisor", cfg: Config{Limit: 1024, LimitFrom: "NORMALIZER_MEMORY_LIMIT", Ratio: 0.9},
			wantErr: []string{"NORMALIZER_MEMORY_LIMIT is 1024 bytes", "at least 33554432 (32MiB)", "divisor"}},
		{name: "limit just under the minimum", cfg: Config{Limit: MinLimit - 1, LimitFrom: "--memory-limit", Ratio: 0.9},
			wantErr: []string{"--memory-limit is 33554431 bytes", "expected the container's memory limit in bytes"}},
		{name: "negative limit", cfg: Config{Limit: -1, LimitFrom: "--memory-limit", Ratio: 0.9},
			wantErr: []string{"--memory-limit is -1 bytes"}},
		{name: "unnamed origins still say what", cfg: Config{Limit: 5, Ratio: 0.9},
			wantErr: []string{"memory limit is 5 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			cfg := tt.cfg
			if tt.wantDetect || tt.detect != 0 {
				cfg.Detect = detected(tt.detect, tt.detectErr, &calls)
			}
			got, err := Resolve(cfg)
			if tt.wantErr != nil {
				require.Error(t, err)
				for _, s := range tt.wantErr {
					assert.Contains(t, err.Error(), s)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			if tt.wantDetect {
				assert.Equal(t, 1, calls, "the cgroup is asked once")
			} else {
				assert.Zero(t, calls, "the cgroup is not asked")
			}
		})
	}
}

func TestApplyRestores(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	tests := []struct {
		name string
		plan Plan
		want int64 // the runtime's limit while applied
	}{
		{name: "derived limit set", plan: Plan{SoftLimit: 3 * gib, Limit: 4 * gib, Ratio: 0.75, Source: "--memory-limit"}, want: 3 * gib},
		{name: "GOMEMLIMIT left alone", plan: Plan{Source: SourceGOMEMLIMIT, GOMEMLIMIT: "1GiB"}, want: prev},
		{name: "none left alone", plan: Plan{Source: SourceNone}, want: prev},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore := tt.plan.Apply()
			assert.Equal(t, tt.want, debug.SetMemoryLimit(-1))
			restore()
			assert.Equal(t, prev, debug.SetMemoryLimit(-1), "restore puts the previous limit back")
		})
	}
}

func TestLog(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	tests := []struct {
		name string
		plan Plan
		want map[string]any
	}{
		{name: "derived", plan: Plan{SoftLimit: 966367641, Limit: gib, Ratio: 0.9, Source: "NORMALIZER_MEMORY_LIMIT"},
			want: map[string]any{"source": "NORMALIZER_MEMORY_LIMIT", "container_limit": float64(gib), "ratio": 0.9,
				"soft_limit": float64(966367641), "message": "go soft memory limit set"}},
		{name: "GOMEMLIMIT", plan: Plan{Source: SourceGOMEMLIMIT, GOMEMLIMIT: "off"},
			want: map[string]any{"source": "GOMEMLIMIT", "gomemlimit": "off", "soft_limit": float64(prev),
				"message": "go soft memory limit from GOMEMLIMIT, applied by the Go runtime; --memory-limit and its ratio are not used"}},
		{name: "none", plan: Plan{Source: SourceNone, Reason: "no memory limit given, and the cgroup sets none"},
			want: map[string]any{"source": "none", "reason": "no memory limit given, and the cgroup sets none",
				"message": "go soft memory limit not set"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			defer tt.plan.Apply()()
			tt.plan.Log(zerolog.New(&buf))
			require.Equal(t, 1, bytes.Count(buf.Bytes(), []byte("\n")), "one line: %s", buf.String())
			var got map[string]any
			require.NoError(t, json.Unmarshal(buf.Bytes(), &got))
			assert.Equal(t, "info", got["level"])
			delete(got, "level")
			assert.Equal(t, tt.want, got)
		})
	}
}

// On Linux the cgroup is read without error, whatever it says; elsewhere an error is expected
// and Resolve turns it into "not set".
func TestCgroupReadsThisMachine(t *testing.T) {
	n, err := Cgroup()
	if err != nil {
		t.Logf("cgroup not readable here: %v", err)
		p, rerr := Resolve(Config{Ratio: DefaultRatio, Detect: Cgroup})
		require.NoError(t, rerr)
		assert.Equal(t, SourceNone, p.Source)
		return
	}
	assert.GreaterOrEqual(t, n, int64(0))
}

func ExampleResolve() {
	// What `normalizer serve` does with NORMALIZER_MEMORY_LIMIT=1073741824 (1Gi, from the
	// Deployment's resourceFieldRef) and the default ratio.
	plan, err := Resolve(Config{Limit: 1 << 30, LimitFrom: "NORMALIZER_MEMORY_LIMIT", Ratio: DefaultRatio, Detect: Cgroup})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plan.Source, plan.SoftLimit)
	// Output: NORMALIZER_MEMORY_LIMIT 966367641
}

func TestBudget(t *testing.T) {
	assert.Equal(t, int64(773094112), Budget(966367641), "a 1 GiB container at 0.9")
	assert.Equal(t, int64(800), Budget(1000))
	assert.Equal(t, int64(math.MaxInt64/5*4), Budget(math.MaxInt64), "no overflow")
}
