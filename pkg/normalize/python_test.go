package normalize_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/pkg/normalize"
)

// The platform reads every record with CPython's json (contract rule 1): what it cannot read is
// InvalidJSON here. The tests below hand records at each of its limits to the real python3 of
// the machine, the one on PATH and Debian's /usr/bin/python3 where they are two programs: at
// the limit the record reads there; past it Normalize rejects, and so does Python. A machine
// without python3 fails them: the limits would go unchecked.

// pythonScript reads one JSON text from standard input with json.loads, called argv[1] Python
// frames deep (the platform's parser runs inside a web framework, not at a module's top level),
// and prints the result's metadata as json.dumps writes it back, or the error, exit status 1.
const pythonScript = `import json, sys
def at(n):
    return json.loads(sys.stdin.buffer.read()) if n == 0 else at(n - 1)
try:
    v = at(int(sys.argv[1]))
except (ValueError, RecursionError) as e:
    print(type(e).__name__ + ": " + str(e))
    sys.exit(1)
print(json.dumps(v.get("metadata") if isinstance(v, dict) else None))
`

// pythonCallDepth is how deep in Python calls the tests call json.loads: the platform's parser
// runs inside a framework (Flask 3.1's view calls it 20 frames deep, aiohttp 3.8's handler 16),
// and under Python 3.11 every frame on the stack is a level of JSON nesting it cannot read.
const pythonCallDepth = 90

type python struct {
	path    string // as found: on PATH (a pyenv shim, say), or /usr/bin/python3
	exe     string // what path runs, sys.executable: run directly, without a shim's start-up
	version string
}

var (
	pythonsOnce sync.Once
	pythonList  []python
	pythonErr   error
)

// pythons are the machine's python3 programs: the one on PATH and /usr/bin/python3, once
// each (a pyenv shim and Debian's are two). Each must be 3.11 or later, whose json refuses an
// integer of more than sys.get_int_max_str_digits() digits, 4300 by default.
func pythons(t *testing.T) []python {
	t.Helper()
	pythonsOnce.Do(func() {
		path, err := exec.LookPath("python3")
		if err != nil {
			pythonErr = err
			return
		}
		seen := map[string]bool{}
		for _, p := range []string{path, "/usr/bin/python3"} {
			if _, err := os.Stat(p); err != nil && p != path {
				continue
			}
			out, err := exec.Command(p, "-E", "-c", `import os, sys; print(os.path.realpath(sys.executable)); print(sys.executable); print("%d.%d.%d" % sys.version_info[:3], sys.version_info >= (3, 11), sys.get_int_max_str_digits())`).Output()
			if err != nil {
				pythonErr = err
				return
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != 3 || seen[lines[0]] {
				continue
			}
			seen[lines[0]] = true
			pythonList = append(pythonList, python{path: p, exe: lines[1], version: lines[2]})
		}
	})
	require.NoError(t, pythonErr, "python3 is needed: the limits are checked against its json module")
	require.NotEmpty(t, pythonList)
	for _, py := range pythonList {
		fields := strings.Fields(py.version)
		require.Equal(t, []string{"True", "4300"}, fields[1:], "%s %s: expected Python 3.11 or later, with the default digit limit", py.path, fields[0])
	}
	return pythonList
}

// pythonReads runs py's json.loads on doc, pythonCallDepth frames deep, and returns what it
// printed: the metadata as json.dumps writes it back, or the error; ok reports which.
func pythonReads(t *testing.T, py python, doc []byte) (out string, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute) // a hung python, not a slow one
	defer cancel()
	cmd := exec.CommandContext(ctx, py.exe, "-E", "-c", pythonScript, strconv.Itoa(pythonCallDepth))
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if _, exited := err.(*exec.ExitError); err != nil && (!exited || cmd.ProcessState.ExitCode() != 1) {
		t.Fatalf("%s: %v: %s", py.path, err, stderr.Bytes())
	}
	return strings.TrimSpace(string(b)), err == nil
}

// records are the records of raw, plain and with explain (whose diagnostics add no nesting),
// named for messages.
func records(t *testing.T, raw string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, opts := range map[string][]normalize.Option{"plain": nil, "explain": {normalize.WithExplain()}} {
		res, err := normalize.Normalize([]byte(raw), opts...)
		require.NoError(t, err, "%s: %.100s", name, raw)
		out[name] = res.AppendJSON(nil)
		res.Release()
	}
	return out
}

// TestPythonReadsIntegersAtTheDigitLimit: integer literals of MaxIntDigits digits, signed or not,
// wherever they pass through, give records Python reads; one digit more is InvalidJSON with
// TooManyDigits, and Python refuses the same input with its digit limit's error.
func TestPythonReadsIntegersAtTheDigitLimit(t *testing.T) {
	pys := pythons(t)
	digits := func(n int) string { return strings.Repeat("9", n) }
	inputs := func(d string) map[string]string {
		return map[string]string{
			"token count":     `{"final_response":"ok","metadata":{"total_input_tokens":` + d + `}}`,
			"opaque metadata": `{"final_response":"ok","metadata":{"balance":-` + d + `}}`,
			"content":         `{"final_response":"ok","messages":[{"role":"user","content":[-` + d + `]}]}`,
			"arguments":       `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{"n":` + d + `}}}]}]}`,
		}
	}
	for name, raw := range inputs(digits(normalize.MaxIntDigits)) {
		for view, rec := range records(t, raw) {
			require.Contains(t, string(rec), digits(normalize.MaxIntDigits), "kept verbatim")
			for _, py := range pys {
				out, ok := pythonReads(t, py, rec)
				assert.True(t, ok, "%s, %s record, %s: %s", name, view, py.path, out)
			}
		}
	}
	for name, raw := range inputs(digits(normalize.MaxIntDigits + 1)) {
		_, err := normalize.Normalize([]byte(raw))
		var syn *normalize.InvalidJSONError
		require.ErrorAs(t, err, &syn, name)
		assert.True(t, syn.TooManyDigits, name)
		assert.Equal(t, byte('9'), strings.TrimPrefix(raw[syn.Offset:], "-")[0], "%s: the offset is the number's", name)
		for _, py := range pys {
			out, ok := pythonReads(t, py, []byte(raw))
			assert.False(t, ok, "%s, %s", name, py.path)
			assert.Contains(t, out, "ValueError: Exceeds the limit (4300 digits) for integer string conversion", "%s, %s", name, py.path)
		}
	}
}

// TestPythonReadsFloatsPastTheDouble: a number with a fraction or an exponent is a float to
// Python, read at any length: past the largest double it is inf, a value (json.dumps writes it
// back as Infinity), not an error, so such numbers pass through verbatim (docs/contract.md).
func TestPythonReadsFloatsPastTheDouble(t *testing.T) {
	long := strings.Repeat("9", normalize.MaxIntDigits+1)
	raw := `{"final_response":"ok","metadata":{"cost":1e400,"debt":-1E+400,"ratio":` + long + `.5,"scaled":` + long + `e-4000,"exp":1e` + long + `,"tiny":1e-400}}`
	want := `{"cost": Infinity, "debt": -Infinity, "ratio": Infinity, "scaled": 1e+301, "exp": Infinity, "tiny": 0.0}`
	for view, rec := range records(t, raw) {
		assert.Contains(t, string(rec), `"metadata":{"cost":1e400,"debt":-1E+400,"ratio":`+long+`.5,`, "kept verbatim")
		for _, py := range pythons(t) {
			out, ok := pythonReads(t, py, rec)
			require.True(t, ok, "%s record, %s: %s", view, py.path, out)
			assert.Equal(t, want, out, "%s record, %s", view, py.path)
		}
	}
}

// TestPythonReadsRecordsAtTheDepthLimit: a result nested DefaultMaxDepth levels, its deepest
// value in each place where values pass through, gives a record nested as deep (the record's
// own structure nests three levels, and explain's diagnostics are flat) or one level less (a
// nested tool call is flattened), which Python reads with json.loads called pythonCallDepth
// frames deep; one level more is rejected here.
func TestPythonReadsRecordsAtTheDepthLimit(t *testing.T) {
	pys := pythons(t)
	arrays := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	objects := func(n int) string { return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1) }
	routes := []struct {
		name   string
		result func(depth int) string // a result nested depth levels, the result object included
		lost   int                    // levels the record has fewer than the result
	}{
		{"a metadata value", func(d int) string { return `{"final_response":"ok","metadata":{"x":` + arrays(d-2) + `}}` }, 0},
		{"content", func(d int) string {
			return `{"final_response":"ok","messages":[{"role":"user","content":` + arrays(d-3) + `}]}`
		}, 0},
		{"a message's other key", func(d int) string {
			return `{"final_response":"ok","messages":[{"role":"user","content":"x","extra":` + objects(d-3) + `}]}`
		}, 0},
		{"a flat tool call's arguments", func(d int) string {
			return `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"c","name":"f","arguments":` + objects(d-5) + `}]}]}`
		}, 0},
		{"a nested tool call's arguments", func(d int) string {
			return `{"final_response":"ok","messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":` + objects(d-6) + `}}]}]}`
		}, 1},
	}
	for _, r := range routes {
		raw := r.result(normalize.DefaultMaxDepth)
		require.Equal(t, normalize.DefaultMaxDepth, nesting([]byte(raw)), r.name)
		for view, rec := range records(t, raw) {
			assert.Equal(t, normalize.DefaultMaxDepth-r.lost, nesting(rec), "%s, %s record", r.name, view)
			for _, py := range pys {
				out, ok := pythonReads(t, py, rec)
				assert.True(t, ok, "%s, %s record, %s: %s", r.name, view, py.path, out)
			}
		}
		_, err := normalize.Normalize([]byte(r.result(normalize.DefaultMaxDepth + 1)))
		var syn *normalize.InvalidJSONError
		require.ErrorAs(t, err, &syn, r.name)
		assert.True(t, syn.TooDeep, r.name)
	}
}

// TestPythonDepthMargin logs the deepest nesting each python's json reads, json.loads called
// from a function at a module's top level, and holds DefaultMaxDepth at least pythonCallDepth
// levels under it: the margin docs/contract.md gives.
func TestPythonDepthMargin(t *testing.T) {
	const bisect = `import json, sys
def reads(n):
    try:
        json.loads("[" * n + "]" * n)
        return True
    except RecursionError:
        return False
lo, hi = 1, 100000
while lo < hi:
    mid = (lo + hi + 1) // 2
    if reads(mid):
        lo = mid
    else:
        hi = mid - 1
print(lo)
`
	for _, py := range pythons(t) {
		out, err := exec.Command(py.exe, "-E", "-c", bisect).Output()
		require.NoError(t, err, py.path)
		deepest, err := strconv.Atoi(strings.TrimSpace(string(out)))
		require.NoError(t, err, py.path)
		t.Logf("%s (Python %s): json.loads reads %d levels called from a function at the top level", py.path, strings.Fields(py.version)[0], deepest)
		assert.GreaterOrEqual(t, deepest-normalize.DefaultMaxDepth, pythonCallDepth, py.path)
	}
}

// nesting is how deep doc nests arrays and objects.
func nesting(doc []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
