package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/textdist"
)

// queryParam is the one query parameter POST /v1/normalize takes.
const queryParam = "explain"

// maxNamedParams bounds how many unknown parameters an error names, and maxNameLen how much
// of each: the query string can be as long as the header limit.
const (
	maxNamedParams = 3
	maxNameLen     = 64
)

// misspeltExplain checks raw, a query string url.ParseQuery accepted, for a parameter that is
// explain misspelt or in another case: ignored, ?explian=true would answer 200 without the
// diagnostics asked for, and the client would not know why. Other parameters are ignored: a
// gateway's key or a cache-buster is no mistake, and refusing it would break working clients.
// The error names the parameters as sent, in their order.
func misspeltExplain(raw string) error {
	var misspelt []string
	for pair := range strings.SplitSeq(raw, "&") {
		key, _, _ := strings.Cut(pair, "=")
		if pair == "" || key == queryParam {
			continue
		}
		name, err := url.QueryUnescape(key)
		if err != nil || name == queryParam || !nearExplain(name) { // err: cannot happen, ParseQuery took it
			continue
		}
		if !slices.Contains(misspelt, key) {
			misspelt = append(misspelt, key)
		}
	}
	if len(misspelt) == 0 {
		return nil
	}
	return &apiError{class: ClassBadRequest, msg: misspeltMessage(misspelt)}
}

func misspeltMessage(misspelt []string) string {
	var b strings.Builder
	if len(misspelt) == 1 {
		b.WriteString("query parameter ")
	} else {
		b.WriteString("query parameters ")
	}
	for i, key := range misspelt[:min(len(misspelt), maxNamedParams)] {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(key) > maxNameLen {
			key = key[:maxNameLen] + "..."
		}
		b.WriteString(strconv.Quote(key))
	}
	if more := len(misspelt) - maxNamedParams; more > 0 {
		b.WriteString(" and " + strconv.Itoa(more) + " more")
	}
	b.WriteString(": did you mean explain? Names are case-sensitive; POST /v1/normalize reads only explain " +
		"(explain=true or explain=false, or 1, 0) and ignores other parameters")
	return b.String()
}

// nearExplain says whether name is explain in another case or a slip of the keyboard away
// from it: at most two letters added, dropped, changed or swapped (explian, Explain, explan).
func nearExplain(name string) bool {
	name = strings.ToLower(strings.TrimSpace(name))
	if d := len(name) - len(queryParam); d > 2 || d < -2 {
		return false
	}
	return textdist.EditDistance(name, queryParam) <= 2
}
