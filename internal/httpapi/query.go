package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// queryParam is the one query parameter POST /v1/normalize takes.
const queryParam = "explain"

// maxNamedParams bounds how many unknown parameters an error names, and maxNameLen how much
// of each: the query string can be as long as the header limit.
const (
	maxNamedParams = 3
	maxNameLen     = 64
)

// unknownParams checks that raw, a query string url.ParseQuery accepted, has no parameter
// but explain. A parameter the service does not know is an error rather than ignored: a
// misspelt ?explian=true would otherwise answer 200 without the diagnostics asked for, and
// the client would not know why. The error names the parameters as sent, in their order.
func unknownParams(raw string) error {
	var unknown []string
	suggest := false
	for pair := range strings.SplitSeq(raw, "&") {
		key, _, _ := strings.Cut(pair, "=")
		if pair == "" || key == queryParam {
			continue
		}
		name, err := url.QueryUnescape(key)
		if err != nil || name == queryParam { // err: cannot happen, ParseQuery took it
			continue
		}
		suggest = suggest || nearExplain(name)
		if !slices.Contains(unknown, key) {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return &apiError{class: ClassBadRequest, msg: unknownParamsMessage(unknown, suggest)}
}

func unknownParamsMessage(unknown []string, suggest bool) string {
	var b strings.Builder
	if len(unknown) == 1 {
		b.WriteString("query parameter ")
	} else {
		b.WriteString("query parameters ")
	}
	for i, key := range unknown[:min(len(unknown), maxNamedParams)] {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(key) > maxNameLen {
			key = key[:maxNameLen] + "..."
		}
		b.WriteString(strconv.Quote(key))
	}
	if more := len(unknown) - maxNamedParams; more > 0 {
		b.WriteString(" and " + strconv.Itoa(more) + " more")
	}
	if len(unknown) == 1 {
		b.WriteString(" is not accepted")
	} else {
		b.WriteString(" are not accepted")
	}
	b.WriteString("; POST /v1/normalize takes only explain (explain=true or explain=false)")
	if suggest {
		b.WriteString("; did you mean explain?")
	}
	return b.String()
}

// nearExplain says whether name is explain in another case or a slip of the keyboard away
// from it: at most two letters added, dropped, changed or swapped (explian, Explain, explan).
func nearExplain(name string) bool {
	name = strings.ToLower(strings.TrimSpace(name))
	if d := len(name) - len(queryParam); d > 2 || d < -2 {
		return false
	}
	return editDistance(name, queryParam) <= 2
}

// editDistance is the optimal string alignment distance of a and b, in bytes: insertions,
// deletions, substitutions and transpositions of adjacent bytes each count one.
func editDistance(a, b string) int {
	// Three rows of the table: two before the current one, for transpositions.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
