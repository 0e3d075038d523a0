package kubernetes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httpapiServeSource is where the server's shutdown steps, and their fixed waits, are defined.
const httpapiServeSource = "../../internal/httpapi/serve.go"

// timeUnits are the time package's units a duration constant may be written in.
var timeUnits = map[string]time.Duration{
	"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond, "Millisecond": time.Millisecond,
	"Second": time.Second, "Minute": time.Minute, "Hour": time.Hour,
}

// durationConst reads the value of an unexported duration constant from a Go file: the test
// package cannot import it, and a copy of the number here would drift. The constant must be
// written as N * time.Unit (or a bare time.Unit); anything else is an error, not a guess.
func durationConst(file, name string) (time.Duration, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return 0, err
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name == name && i < len(vs.Values) {
					return durationExpr(vs.Values[i], file, name)
				}
			}
		}
	}
	return 0, fmt.Errorf("%s: no constant %s; expected the one the test reads", file, name)
}

func durationExpr(e ast.Expr, file, name string) (time.Duration, error) {
	bad := fmt.Errorf("%s: %s is not written as N * time.Unit; expected that form", file, name)
	var n int64 = 1
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.MUL {
		lit, ok := b.X.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return 0, bad
		}
		v, err := strconv.ParseInt(lit.Value, 0, 64)
		if err != nil {
			return 0, bad
		}
		n, e = v, b.Y
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return 0, bad
	}
	pkg, ok := sel.X.(*ast.Ident)
	unit, known := timeUnits[sel.Sel.Name]
	if !ok || pkg.Name != "time" || !known {
		return 0, bad
	}
	return time.Duration(n) * unit, nil
}

func TestDurationConst(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    time.Duration
		wantErr string
	}{
		{name: "seconds", src: "const wait = 2 * time.Second", want: 2 * time.Second},
		{name: "bare unit", src: "const wait = time.Minute", want: time.Minute},
		{name: "in a group", src: "const (\n\tother = 1\n\twait = 500 * time.Millisecond\n)", want: 500 * time.Millisecond},
		{name: "another form", src: "const wait = time.Second * 2", wantErr: "not written as N * time.Unit"},
		{name: "not time", src: "const wait = 2 * clock.Second", wantErr: "not written as N * time.Unit"},
		{name: "a variable", src: "var wait = 2 * time.Second", wantErr: "no constant wait"},
		{name: "missing", src: "const other = time.Second", wantErr: "no constant wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := t.TempDir() + "/serve.go"
			require.NoError(t, os.WriteFile(file, []byte("package httpapi\n\n"+tt.src+"\n"), 0o600))
			got, err := durationConst(file, "wait")
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
