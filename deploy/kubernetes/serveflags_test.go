package kubernetes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveSource is where `normalizer serve` defines its flags (newServeFlagSet).
const serveSource = "../../cmd/normalizer/serve.go"

// flagDefiners are the *flag.FlagSet methods that define a flag, with the index of the
// argument that is the flag's name: the ...Var forms and Var take the destination first.
var flagDefiners = map[string]int{
	"Var": 1, "BoolVar": 1, "DurationVar": 1, "Float64Var": 1, "IntVar": 1, "Int64Var": 1,
	"StringVar": 1, "TextVar": 1, "UintVar": 1, "Uint64Var": 1,
	"Bool": 0, "BoolFunc": 0, "Duration": 0, "Float64": 0, "Func": 0, "Int": 0, "Int64": 0,
	"String": 0, "Uint": 0, "Uint64": 0,
}

// serveEnv returns the environment variables `normalizer serve` reads: one per flag that
// newServeFlagSet defines, named as serve's envName does. The test package cannot import
// package main, and running the binary for its --help is slow, so it reads the source: the
// calls of flag-defining methods on the FlagSet that flag.NewFlagSet returned.
func serveEnv(t *testing.T) []string {
	t.Helper()
	names, err := flagNames(serveSource, "newServeFlagSet")
	require.NoError(t, err)
	env := make([]string, len(names))
	for i, n := range names {
		env[i] = envName(n)
	}
	return env
}

// envName mirrors cmd/normalizer's envName: NORMALIZER_ and the flag's name in capitals, '-'
// as '_' (the rule serve's usage text states).
func envName(flag string) string {
	return "NORMALIZER_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// flagNames parses the Go file and returns the names of the flags that function fn defines on
// the FlagSet it creates with flag.NewFlagSet. A name that is not a string literal is an
// error: the test could not know it.
func flagNames(file, fn string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return nil, err
	}
	var decl *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn && fd.Recv == nil {
			decl = fd
		}
	}
	if decl == nil || decl.Body == nil {
		return nil, fmt.Errorf("%s: no function %s; expected the one that defines serve's flags", file, fn)
	}
	fs := flagSetVar(decl.Body)
	if fs == "" {
		return nil, fmt.Errorf("%s: %s has no `x := flag.NewFlagSet(...)`; expected one", file, fn)
	}
	var names []string
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		recv, ok := sel.X.(*ast.Ident)
		arg, defines := flagDefiners[sel.Sel.Name]
		if !ok || recv.Name != fs || !defines {
			return true
		}
		if arg >= len(call.Args) {
			err = fmt.Errorf("%s: %s.%s has %d arguments; expected the flag's name at %d", fset.Position(call.Pos()), fs, sel.Sel.Name, len(call.Args), arg)
			return false
		}
		lit, ok := call.Args[arg].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			err = fmt.Errorf("%s: %s.%s names its flag with %T; expected a string literal", fset.Position(call.Args[arg].Pos()), fs, sel.Sel.Name, call.Args[arg])
			return false
		}
		name, uerr := strconv.Unquote(lit.Value)
		if uerr != nil {
			err = fmt.Errorf("%s: flag name %s: %v", fset.Position(lit.Pos()), lit.Value, uerr)
			return false
		}
		names = append(names, name)
		return true
	})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: %s defines no flags on %s; expected serve's flags", file, fn, fs)
	}
	return names, nil
}

// flagSetVar is the name of the variable assigned flag.NewFlagSet(...) in body, or "".
func flagSetVar(body *ast.BlockStmt) string {
	var name string
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "NewFlagSet" {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "flag" {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				name = id.Name
			}
		}
		return name == ""
	})
	return name
}

// unknownSettings returns the NORMALIZER_ variables in env that are not in known.
func unknownSettings(env, known []string) []string {
	var out []string
	for _, name := range env {
		if strings.HasPrefix(name, "NORMALIZER_") && !slices.Contains(known, name) {
			out = append(out, name)
		}
	}
	return out
}

func TestServeEnvFromSource(t *testing.T) {
	env := serveEnv(t)
	// Spot checks that the reading works: flags defined with Var, StringVar, DurationVar and
	// Float64Var; the full list is whatever serve.go defines.
	for _, want := range []string{"NORMALIZER_ADDR", "NORMALIZER_BODY_LIMIT", "NORMALIZER_DRAIN_DELAY", "NORMALIZER_MEMORY_LIMIT_RATIO"} {
		assert.Contains(t, env, want)
	}
	distinct := slices.Clone(env)
	slices.Sort(distinct)
	assert.Len(t, slices.Compact(distinct), len(env), "each flag once")
}

func TestFlagNames(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string
		wantErr string
	}{
		{name: "every defining form", src: `func newServeFlagSet(f *T) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&f.a, "addr", ":8080", "usage")
	fs.Var(&f.b, "body-limit", "usage")
	fs.Float64Var(&f.c, "memory-limit-ratio", 0.9, "usage")
	_ = fs.Int("max-depth", 1, "usage")
	fs.Func("log-level", "usage", nil)
	fs.Parse(nil)
	other.StringVar(&f.d, "not-serve", "", "usage")
	return fs
}`, want: []string{"addr", "body-limit", "memory-limit-ratio", "max-depth", "log-level"}},
		{name: "another receiver name", src: `func newServeFlagSet() *flag.FlagSet {
	set := flag.NewFlagSet("serve", flag.ContinueOnError)
	set.BoolVar(&x, "verbose", false, "usage")
	return set
}`, want: []string{"verbose"}},
		{name: "name not a literal", src: `func newServeFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&x, addrFlag, "", "usage")
	return fs
}`, wantErr: "expected a string literal"},
		{name: "no flags", src: `func newServeFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	return fs
}`, wantErr: "defines no flags"},
		{name: "no flag set", src: `func newServeFlagSet() {}`, wantErr: "no `x := flag.NewFlagSet"},
		{name: "no such function", src: `func other() {}`, wantErr: "no function newServeFlagSet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := t.TempDir() + "/serve.go"
			require.NoError(t, os.WriteFile(file, []byte("package main\n\n"+tt.src+"\n"), 0o600))
			got, err := flagNames(file, "newServeFlagSet")
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestUnknownSettings(t *testing.T) {
	known := []string{"NORMALIZER_ADDR", "NORMALIZER_BODY_LIMIT"}
	tests := []struct {
		name string
		env  []string
		want []string
	}{
		{name: "all known", env: []string{"NORMALIZER_ADDR", "NORMALIZER_BODY_LIMIT"}},
		{name: "not ours", env: []string{"GOMAXPROCS", "TZ"}},
		{name: "no such flag", env: []string{"NORMALIZER_ADDR", "NORMALIZER_BODYLIMIT"}, want: []string{"NORMALIZER_BODYLIMIT"}},
		{name: "healthcheck's, not serve's", env: []string{"NORMALIZER_HEALTHCHECK_URL"}, want: []string{"NORMALIZER_HEALTHCHECK_URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, unknownSettings(tt.env, known))
		})
	}
}
