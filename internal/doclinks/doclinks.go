// Package doclinks checks the links of the repository's Markdown: every relative link must name
// a file or directory inside the repository, and every #fragment a heading of the page it points
// to, as GitHub renders them. Its test runs the check over README.md, CONTRIBUTING.md,
// CHANGELOG.md and docs/, so a renamed heading or a moved page fails `go test ./...`.
//
// Links to other sites (http:, https:, mailto:) are not fetched: the check is about the
// repository's own pages.
package doclinks

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Link is one link in a Markdown page: its target as written and the line it is on (1-based).
type Link struct {
	Target string
	Line   int
}

var (
	// inlineLink matches [text](target) and ![alt](target); the target ends at the first space
	// (a title may follow) or the closing parenthesis, or is written in <angle brackets>. Text holding brackets one level deep, as
	// in [`a[0]`](x), is matched too.
	inlineLink = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(?:<([^>]*)>|([^)\s]*))(?:\s+"[^"]*")?\s*\)`)
	// refDef matches a reference definition, [label]: target, at the start of a line.
	refDef = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	// htmlAnchor matches an explicit anchor: <a name="x"> or id="x".
	htmlAnchor = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
)

// fence reports whether line opens or closes a fenced code block, and with which marker.
func fence(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return "", false
	}
	for _, m := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, m) {
			return m, true
		}
	}
	return "", false
}

// lines calls f for every line of md outside fenced code blocks, with its 1-based number.
func lines(md []byte, f func(n int, line string)) {
	open := ""
	for i, line := range strings.Split(string(md), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if m, ok := fence(line); ok {
			switch {
			case open == "":
				open = m
				continue
			case m == open:
				open = ""
				continue
			}
		}
		if open != "" {
			continue
		}
		f(i+1, line)
	}
}

// blankCodeSpans replaces every inline code span of line (a run of backticks up to the next run
// of as many) with spaces: a link inside one is text.
func blankCodeSpans(line string) string {
	b := []byte(line)
	run := func(i int) int {
		j := i
		for j < len(b) && b[j] == '`' {
			j++
		}
		return j - i
	}
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := run(i)
		end := -1
		for j := i + n; j < len(b); {
			if b[j] != '`' {
				j++
				continue
			}
			m := run(j)
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			i += n // no closing run: the backticks are text
			continue
		}
		for k := i; k < end; k++ {
			b[k] = ' '
		}
		i = end
	}
	return string(b)
}

// Links returns the links of a Markdown page, in order, leaving out those inside fenced code
// blocks and inline code spans.
func Links(md []byte) []Link {
	var out []Link
	lines(md, func(n int, line string) {
		if m := refDef.FindStringSubmatch(line); m != nil {
			out = append(out, Link{Target: m[1], Line: n})
			return
		}
		line = blankCodeSpans(line)
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			out = append(out, Link{Target: m[1] + m[2], Line: n})
		}
	})
	return out
}

var (
	headingLine = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	linkText    = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)`)
	htmlTag     = regexp.MustCompile(`<[^>]+>`)
)

// Slug is the anchor GitHub gives a heading's text: lower case, links reduced to their text,
// markup and punctuation removed except hyphens and underscores, spaces turned into hyphens.
func Slug(heading string) string {
	s := linkText.ReplaceAllString(heading, "$1")
	s = htmlTag.ReplaceAllString(s, "")
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Anchors returns the anchors of a Markdown page: the slug of every ATX heading outside fenced
// code blocks (a repeated slug gets -1, -2, ... as on GitHub) and explicit <a name> or id anchors.
func Anchors(md []byte) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	lines(md, func(_ int, line string) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		m := headingLine.FindStringSubmatch(line)
		if m == nil {
			return
		}
		slug := Slug(m[2])
		if k := seen[slug]; k > 0 {
			out[slug+"-"+strconv.Itoa(k)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	})
	return out
}

// Problem is a link that does not resolve.
type Problem struct {
	File   string // the page, relative to the root, with forward slashes
	Line   int
	Target string
	Reason string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: link %q: %s", p.File, p.Line, p.Target, p.Reason)
}

// external reports whether a target names another site or scheme, which the check leaves alone.
func external(target string) bool {
	i := strings.IndexAny(target, ":/?#")
	return i > 0 && target[i] == ':'
}

// Check checks the links of the pages (paths relative to root, forward slashes) and returns the
// links that do not resolve: a relative target that is not a file or directory under root, one
// that leaves root, and a #fragment that is no anchor of the Markdown page it points to.
func Check(root string, pages []string) ([]Problem, error) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) (map[string]bool, error) {
		if a, ok := anchors[page]; ok {
			return a, nil
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			return nil, err
		}
		anchors[page] = Anchors(b)
		return anchors[page], nil
	}
	var problems []Problem
	for _, page := range pages {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", page, err)
		}
		for _, l := range Links(b) {
			bad := func(reason string) {
				problems = append(problems, Problem{File: page, Line: l.Line, Target: l.Target, Reason: reason})
			}
			if l.Target == "" {
				bad("empty target")
				continue
			}
			if external(l.Target) {
				continue
			}
			target, frag, _ := strings.Cut(l.Target, "#")
			if strings.HasPrefix(target, "/") {
				bad("an absolute path: link relative to the page")
				continue
			}
			dest := page
			if target != "" {
				dest = path.Join(path.Dir(page), target)
				if dest == ".." || strings.HasPrefix(dest, "../") {
					bad("leaves the repository")
					continue
				}
				info, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest)))
				if err != nil {
					bad("no such file or directory")
					continue
				}
				if info.IsDir() {
					if frag != "" {
						bad("a #fragment on a directory")
					}
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				continue // line anchors of source files (#L10) are GitHub's, not the file's
			}
			a, err := anchorsOf(dest)
			if err != nil {
				return nil, err
			}
			if !a[frag] {
				bad(fmt.Sprintf("no heading in %s has the anchor #%s", dest, frag))
			}
		}
	}
	return problems, nil
}

// Root returns the directory of the go.mod above dir (the repository's root).
func Root(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// Pages returns the Markdown pages the check covers, relative to root: README.md,
// CONTRIBUTING.md and CHANGELOG.md where present, and every .md file under docs/.
func Pages(root string) ([]string, error) {
	var pages []string
	for _, p := range []string{"README.md", "CONTRIBUTING.md", "CHANGELOG.md"} {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			pages = append(pages, p)
		}
	}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	return pages, err
}
