package softwarn

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodeLists: WarningCodes, NoteCodes and AdviceCodes are exactly the codes declared, each
// once, in the order of the three const blocks (the soft warnings', the notes', then the
// rejections' advice), so that a new code
// reaches the lists the schemas, the OpenAPI document and the codes reference are checked
// against.
func TestCodeLists(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "softwarn.go", nil, 0)
	require.NoError(t, err)
	var blocks [][]Code
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		var codes []Code
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, val := range v.Values {
				s, err := strconv.Unquote(val.(*ast.BasicLit).Value)
				require.NoError(t, err)
				codes = append(codes, Code(s))
			}
		}
		if len(codes) > 0 {
			blocks = append(blocks, codes)
		}
	}
	require.Len(t, blocks, 3, "the soft warnings' codes, the notes', then the advice's")
	assert.Equal(t, blocks[0], WarningCodes())
	assert.Equal(t, blocks[1], NoteCodes())
	assert.Equal(t, blocks[2], AdviceCodes())
	seen := map[Code]bool{}
	for _, c := range append(append(WarningCodes(), NoteCodes()...), AdviceCodes()...) {
		assert.False(t, seen[c], "%s twice", c)
		seen[c] = true
	}
}
