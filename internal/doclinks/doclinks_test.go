package doclinks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Contract decisions", "contract-decisions"},
		{"`normalize --jsonl`: the batch path", "normalize---jsonl-the-batch-path"},
		{"Metadata keys under another name (`metadata_key_variant`)", "metadata-keys-under-another-name-metadata_key_variant"},
		{"Why our own scanner, and no JSON library", "why-our-own-scanner-and-no-json-library"},
		{"Where a request's CPU goes", "where-a-requests-cpu-goes"},
		{"explain: diagnostics and notes", "explain-diagnostics-and-notes"},
		{"final_response", "final_response"},
		{"[0.1.0] - 2026-11-29", "010---2026-11-29"},
		{"Links [in](x.md) headings", "links-in-headings"},
		{"Déjà vu 2", "déjà-vu-2"},
	} {
		assert.Equal(t, tc.want, Slug(tc.heading), tc.heading)
	}
}

func TestLinks(t *testing.T) {
	md := "# T\n" +
		"See [a](a.md) and [b](docs/b.md#x \"title\"), ![img](i.png).\n" +
		"Not a link: `[c](c.md)`.\n" +
		"```\n[d](d.md)\n```\n" +
		"[`e[0]`](e.md#y) [f](<f g.md>)\n" +
		"[ref]: r.md#z\n"
	want := []Link{{"a.md", 2}, {"docs/b.md#x", 2}, {"i.png", 2}, {"e.md#y", 7}, {"f g.md", 7}, {"r.md#z", 8}}
	assert.Equal(t, want, Links([]byte(md)))
}

func TestAnchors(t *testing.T) {
	md := "# Title\n## Tests\ntext\n### Tests\n```\n## Not a heading\n```\n<a name=\"custom\"></a>\n## Closed ##\n"
	got := Anchors([]byte(md))
	assert.Equal(t, map[string]bool{"title": true, "tests": true, "tests-1": true, "custom": true, "closed": true}, got)
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	write(t, root, "README.md", "[ok](docs/a.md) [ok](docs/a.md#section-one) [dir](docs/) [site](https://example.com/x#y)\n"+
		"[mail](mailto:a@b.c) [self](#top) [code](cmd/main.go#L3)\n"+
		"[missing](docs/nope.md) [anchor](docs/a.md#nope) [out](../x.md) [abs](/docs/a.md) [selfbad](#bottom)\n"+
		"# Top\n")
	write(t, root, "docs/a.md", "# A\n## Section one\n[up](../README.md#top) [sib](b.md)\n")
	write(t, root, "cmd/main.go", "package main\n")
	problems, err := Check(root, []string{"README.md", "docs/a.md"})
	require.NoError(t, err)
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	assert.Equal(t, []string{
		`README.md:3: link "docs/nope.md": no such file or directory`,
		`README.md:3: link "docs/a.md#nope": no heading in docs/a.md has the anchor #nope`,
		`README.md:3: link "../x.md": leaves the repository`,
		`README.md:3: link "/docs/a.md": an absolute path: link relative to the page`,
		`README.md:3: link "#bottom": no heading in README.md has the anchor #bottom`,
		`docs/a.md:3: link "b.md": no such file or directory`,
	}, got)
}

// TestRepositoryLinks: every relative link of README.md, CONTRIBUTING.md, CHANGELOG.md and
// docs/ resolves, #fragments included.
func TestRepositoryLinks(t *testing.T) {
	root, err := Root(".")
	require.NoError(t, err)
	pages, err := Pages(root)
	require.NoError(t, err)
	require.Contains(t, pages, "README.md")
	require.Contains(t, pages, "docs/contract.md")
	problems, err := Check(root, pages)
	require.NoError(t, err)
	for _, p := range problems {
		t.Error(p)
	}
}
