package sdkcorpus_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The checks: each is a class of mistake that advice must not make, judged from the case's
// input, its case file (the true source, the answer, the true token totals) and the explain
// view. A check returns what is wrong, one line per mistake; none for right advice.
var checks = []struct {
	name string
	run  func(c *sdkCase, v view, in any) []string
}{
	{"verdict", checkVerdict},               // (e) accepted or rejected, and the messages kept, as expected
	{"names-a-held-value", checkReferences}, // (a) every value the advice names is in the input and not empty
	{"stopped-at-tool-call", checkStopped},  // (a) a run that stopped at a tool call is told so, not sent its preamble
	{"framework", checkFramework},           // (b) the advice names the input's SDK, not another one
	{"names-the-source", checkNamesSource},  // (b) a dropped SDK object is recognised, not given generic advice
	{"language", checkLanguage},             // (c) the fix names helpers of the input's language
	{"answer-not-lost", checkAnswerNotLost}, // (d) where the answer is left out, the advice says where it is
	{"token-totals", checkTokenTotals},      // a count the advice has sent is the run's true total
}

// TestAdvice runs every check on every case. A check that finds a mistake fails, unless
// knownWrong lists the case and check: the advice is wrong there today, and the listing
// fails as soon as it is right (so that the entry is removed with the fix).
func TestAdvice(t *testing.T) {
	for _, c := range loadCases(t) {
		v := decodeView(c.View)
		in, ok := decodeJSON(c.Input)
		if !ok {
			in = nil // rejected as InvalidJSON: no case is
		}
		for _, chk := range checks {
			t.Run(chk.name+"/"+c.Name, func(t *testing.T) {
				problems := chk.run(&c, v, in)
				key := chk.name + "/" + c.Name
				if _, wrong := knownWrong[key]; wrong {
					if len(problems) == 0 {
						t.Errorf("%s: the advice is right now; remove it from knownWrong", key)
					}
					return
				}
				for _, p := range problems {
					t.Errorf("%s (%s, %s via %s): %s", c.Name, c.Meta.Source.SDK, c.Meta.Source.Language, c.Meta.Serialized, p)
				}
			})
		}
	}
	for key := range knownWrong {
		name, cs, _ := strings.Cut(key, "/")
		if !hasCheck(name) {
			t.Errorf("knownWrong[%q]: no check %s (case %s)", key, name, cs)
		}
	}
}

func hasCheck(name string) bool {
	for _, c := range checks {
		if c.name == name {
			return true
		}
	}
	return false
}

func checkVerdict(c *sdkCase, v view, _ any) []string {
	var p []string
	got := "accepted"
	if v.Rejected {
		got = "rejected (" + v.Class + ")"
	}
	if !strings.HasPrefix(got, c.Meta.Expect.Verdict) {
		p = append(p, fmt.Sprintf("the result is %s, expected %s", got, c.Meta.Expect.Verdict))
	}
	if v.Messages != c.Meta.Expect.Messages {
		p = append(p, fmt.Sprintf("%d messages kept, expected %d", v.Messages, c.Meta.Expect.Messages))
	}
	return p
}

// ref is a value that advice names: a path into the porter's object, as the advice writes it
// (result.choices[0].message.content, <data.content>, <its "text">).
type ref struct {
	expr string
	segs []string // keys, indexes as digits, "*" for every element
	code bool     // written as code with a variable first (result.x): the first segment is the variable
}

var (
	angleRe = regexp.MustCompile(`<([^<>]+)>`)
	pathRe  = regexp.MustCompile(`^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[(?:\d+|\*)\])*$`)
	codeRe  = regexp.MustCompile(`\b(?:result|response|completion|message|choices|candidates|output)(?:\.[A-Za-z_]\w*|\[(?:-?\d+|\*|"[^"]*")\])+`)
	segRe   = regexp.MustCompile(`[A-Za-z_]\w*|\[(?:-?\d+|\*|"[^"]*")\]`)
	// quoted is a key the advice names in words: <its "text">, <the message's "content">.
	quoted = regexp.MustCompile(`^(?:\S+ ){0,2}"([A-Za-z_]\w*)"$`)
)

// references are the values the advice's fix names.
func references(fix string) []ref {
	var refs []ref
	for _, m := range angleRe.FindAllStringSubmatch(fix, -1) {
		inner := strings.TrimSuffix(m[1], ", joined")
		if q := quoted.FindStringSubmatch(inner); q != nil {
			refs = append(refs, ref{expr: m[0], segs: []string{q[1]}})
		} else if pathRe.MatchString(inner) {
			refs = append(refs, ref{expr: m[0], segs: segments(inner)})
		}
	}
	rest := angleRe.ReplaceAllString(fix, "")
	for _, loc := range codeRe.FindAllStringIndex(rest, -1) {
		if loc[1] < len(rest) && rest[loc[1]] == '(' {
			continue // a call, not a value
		}
		if loc[0] > 0 && rest[loc[0]-1] == '.' {
			continue // an attribute of something else
		}
		expr := rest[loc[0]:loc[1]]
		refs = append(refs, ref{expr: expr, segs: segments(expr), code: true})
	}
	return refs
}

func segments(expr string) []string {
	var segs []string
	for _, s := range segRe.FindAllString(expr, -1) {
		s = strings.Trim(s, "[]")
		if uq, err := strconv.Unquote(s); err == nil {
			s = uq
		}
		segs = append(segs, s)
	}
	return segs
}

// resolve returns the values at segs under v, every element for "*", nil when the path is not
// there. A negative index counts from the end, as Python's does.
func resolve(v any, segs []string) []any {
	if len(segs) == 0 {
		return []any{v}
	}
	s, rest := segs[0], segs[1:]
	switch x := v.(type) {
	case map[string]any:
		if e, ok := x[s]; ok {
			return resolve(e, rest)
		}
	case []any:
		if s == "*" {
			var all []any
			for _, e := range x {
				all = append(all, resolve(e, rest)...)
			}
			return all
		}
		if i, err := strconv.Atoi(s); err == nil {
			if i < 0 {
				i += len(x)
			}
			if i >= 0 && i < len(x) {
				return resolve(x[i], rest)
			}
		}
	}
	return nil
}

// anywhere resolves segs at every value under v.
func anywhere(v any, segs []string) []any {
	found := resolve(v, segs)
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			found = append(found, anywhere(x[k], segs)...)
		}
	case []any:
		for _, e := range x {
			found = append(found, anywhere(e, segs)...)
		}
	}
	return found
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// roots are the values an advice's references are read against, nearest first: the value at
// its pointer, that value parsed when it is the JSON text or Python str() of an object, and
// the whole input.
func roots(a advice, in any) []any {
	var rs []any
	if v, ok := at(in, a.Pointer); ok && a.Pointer != "" {
		rs = append(rs, v)
		if s, ok := v.(string); ok {
			if p, ok := parseText(s); ok {
				rs = append(rs, p)
			}
		}
	}
	if fr, ok := at(in, "/final_response"); ok && a.Pointer == "" {
		if s, ok := fr.(string); ok {
			if p, ok := parseText(s); ok {
				rs = append(rs, p)
			}
		}
		rs = append(rs, fr)
	}
	return append(rs, in)
}

// parseText reads text that holds an object: JSON text, or Python's str() of a dict or list.
func parseText(s string) (any, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	if v, ok := decodeJSON([]byte(t)); ok {
		return v, true
	}
	return parsePython(t)
}

// lookup finds what r names: under the nearest root where the path is, else anywhere under
// the roots.
func lookup(r ref, rs []any) []any {
	paths := [][]string{r.segs}
	if r.code && len(r.segs) > 1 {
		paths = append(paths, r.segs[1:])
	}
	for _, root := range rs {
		for _, p := range paths {
			if found := resolve(root, p); len(found) > 0 {
				return found
			}
		}
	}
	for _, root := range rs {
		if found := anywhere(root, paths[len(paths)-1]); len(found) > 0 {
			return found
		}
	}
	return nil
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// text joins vs when they are strings; false when one is not.
func text(vs []any) (string, bool) {
	var b strings.Builder
	for _, v := range vs {
		s, ok := v.(string)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

// allText joins every string under vs.
func allText(vs []any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k])
			}
		}
	}
	for _, v := range vs {
		walk(v)
	}
	return b.String()
}

// forFinalResponse reports whether the advice tells the porter to send r as final_response.
func forFinalResponse(a advice, r ref) bool {
	return a.Pointer == "/final_response" || a.Action == "rejected" || strings.Contains(a.Fix, `"final_response": `+r.expr)
}

// checkReferences (a): a value the advice names must be in the input, and a value it says to
// send as final_response must hold the answer: not null, not empty, not a preamble.
func checkReferences(c *sdkCase, v view, in any) []string {
	var p []string
	for _, a := range v.Advice {
		rs := roots(a, in)
		for _, r := range references(a.Fix) {
			found := lookup(r, rs)
			where := fmt.Sprintf("%s at %q", a.Code, a.Pointer)
			switch {
			case len(found) == 0:
				p = append(p, fmt.Sprintf("%s names %s, which the input does not hold", where, r.expr))
				continue
			case !forFinalResponse(a, r):
				continue // a key of a message to send: an empty one may be what it holds
			case allEmpty(found):
				p = append(p, fmt.Sprintf("%s says to send %s as final_response, which is %s in this input: following it sends nothing", where, r.expr, describe(found)))
				continue
			}
			got, isText := text(found)
			switch ans := c.Meta.Expect.Answer; {
			case !isText:
				// An object or list: the advice says which of its parts to take.
				if ans != nil && !strings.Contains(allText(found), *ans) {
					p = append(p, fmt.Sprintf("%s says to take final_response from %s, which does not hold the answer %q", where, r.expr, *ans))
				}
			case ans == nil && got != "":
				p = append(p, fmt.Sprintf("%s says to send %s as final_response, which holds %q, and the run has no answer (it stopped at a tool call): that text is not one", where, r.expr, got))
			case ans != nil && !strings.Contains(got, *ans):
				p = append(p, fmt.Sprintf("%s says to send %s as final_response, which holds %q, not the answer %q", where, r.expr, clip(got), *ans))
			}
		}
	}
	return p
}

var stoppedRe = regexp.MustCompile(`stopped at a tool call|after the tool round`)

// checkStopped (a): when the model's last turn ended at a tool call, the result holds no answer
// (at most a preamble, "Let me look that up"); advice that says where the answer is would send
// that, or nothing. The advice must say that the run stopped at a tool call.
func checkStopped(c *sdkCase, v view, _ any) []string {
	if !c.Meta.Expect.StoppedAtToolCall {
		return nil
	}
	for _, a := range v.Advice {
		if stoppedRe.MatchString(a.Text) {
			return nil
		}
	}
	return []string{fmt.Sprintf("the model stopped at a tool call and no advice says so: %s", firstText(v.Advice))}
}

func allEmpty(vs []any) bool {
	for _, v := range vs {
		if !empty(v) {
			return false
		}
	}
	return true
}

func describe(vs []any) string {
	b, _ := json.Marshal(vs[0])
	return string(b)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
