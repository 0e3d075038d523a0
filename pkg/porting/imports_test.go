package porting_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Imports point one way: porting -> normalize -> messages -> softwarn -> jsonscan. None of
// these packages imports one that comes before it in that line (go list, non-test imports,
// direct or not).
func TestImportsPointOneWay(t *testing.T) {
	const mod = "github.com/dystopic/normalizer/"
	order := []string{"pkg/porting", "pkg/normalize", "pkg/messages", "pkg/softwarn", "internal/jsonscan"}
	for i, pkg := range order {
		out, err := exec.Command("go", "list", "-json", "./../../"+pkg).Output()
		require.NoError(t, err, "go list %s", pkg)
		var p struct{ Deps []string }
		require.NoError(t, json.Unmarshal(out, &p))
		for _, dep := range p.Deps {
			for _, before := range order[:i] {
				if dep == mod+before {
					t.Errorf("%s imports %s, which comes before it", pkg, before)
				}
			}
			if i > 0 && strings.HasPrefix(dep, mod) && !strings.HasPrefix(dep, mod+"internal/") && !contains(order[i+1:], strings.TrimPrefix(dep, mod)) {
				t.Errorf("%s imports %s, which is not below it", pkg, dep)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
