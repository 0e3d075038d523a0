package viewer

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func asset(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Assets(), name)
	require.NoError(t, err)
	return string(b)
}

// The page runs under webui.ContentSecurityPolicy, which allows no inline script or style and
// nothing from another origin: every script and style sheet is a file of its own, named by a
// path on the page's origin, and no element carries an event handler or a style.
func TestPageNeedsNothingInline(t *testing.T) {
	html := asset(t, "corpus.html")
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)<script(\s[^>]*)?>[^<]`), // a script with a body
		regexp.MustCompile(`(?i)<style`),
		regexp.MustCompile(`(?i)\sstyle=`),
		regexp.MustCompile(`(?i)\son[a-z]+=`),
		regexp.MustCompile(`(?i)(src|href)="(https?:)?//`),
		regexp.MustCompile(`(?i)javascript:`),
	} {
		assert.Nil(t, bad.FindStringIndex(html), "corpus.html has %s: %q", bad, bad.FindString(html))
	}
	for _, tag := range regexp.MustCompile(`(?i)<script[^>]*>`).FindAllString(html, -1) {
		assert.Regexp(t, `\ssrc="/`, tag, "a script without src")
	}
	assert.Contains(t, html, `<script type="module" src="/corpus/corpus.js"></script>`)
	assert.Contains(t, html, `<link rel="stylesheet" href="/corpus/corpus.css">`)
}

// The corpus's text goes into the page as text: the script never writes HTML.
func TestScriptWritesNoHTML(t *testing.T) {
	js := asset(t, "corpus.js")
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"} {
		assert.NotContains(t, js, bad)
	}
	assert.Contains(t, js, "textContent")
}

// The table is a real table, its filters labelled selects: what a screen reader, the keyboard
// and the browser test find by role and attribute.
func TestPageIsSemantic(t *testing.T) {
	html := asset(t, "corpus.html")
	assert.Equal(t, 6, strings.Count(html, `<th scope="col">`))
	for _, id := range []string{"verdict", "class", "code", "limit"} {
		assert.Contains(t, html, `<label for="`+id+`">`)
		assert.Contains(t, html, `<select id="`+id+`" name="`+id+`">`)
	}
	assert.Contains(t, html, `<p id="status" role="status"`)
	js := asset(t, "corpus.js")
	for _, attr := range []string{`"data-item"`, `"data-code"`, `scope: "row"`, `"/?item=" + item.item`} {
		assert.Contains(t, js, attr)
	}
}
