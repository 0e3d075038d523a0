package sdkcorpus_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// view is an explain view decoded: a rejection, or a record with its diagnostics.
type view struct {
	Rejected bool
	Class    string
	Advice   []advice // the rejection's message and its advice, or every diagnostic
	Messages int      // messages kept
}

// advice is one thing the view tells a porter, at a place in the input.
type advice struct {
	Pointer string // JSON Pointer into the input; "" for the whole input
	Code    string // the diagnostic's code; the class, for a rejection
	Action  string // dropped, kept, ...; "rejected" for a rejection, "advice" for its advice
	Text    string // all it says
	Fix     string // what it says to do; for a rejection, the text report's fix line
}

func decodeView(e explained) view {
	var top struct {
		Error *struct {
			Class   string `json:"class"`
			Message string `json:"message"`
			Path    string `json:"path"`
			Advice  *struct {
				Pointer string `json:"pointer"`
				Code    string `json:"code"`
				Message string `json:"message"`
				Fix     *struct {
					Message string `json:"message"`
				} `json:"fix"`
			} `json:"advice"`
		} `json:"error"`
		Messages    []json.RawMessage `json:"messages"`
		Diagnostics []struct {
			Pointer string `json:"pointer"`
			Code    string `json:"code"`
			Action  string `json:"action"`
			Message string `json:"message"`
			Fix     *struct {
				Message string `json:"message"`
			} `json:"fix"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(e.JSON, &top); err != nil {
		panic("explain view is not JSON: " + err.Error())
	}
	if top.Error != nil {
		ptr := ""
		if top.Error.Path != "" {
			ptr = "/" + strings.ReplaceAll(top.Error.Path, ".", "/")
		}
		v := view{Rejected: true, Class: top.Error.Class, Advice: []advice{{Pointer: ptr, Code: top.Error.Class, Action: "rejected", Text: top.Error.Message, Fix: textFix(e.Text)}}}
		if a := top.Error.Advice; a != nil { // beside a message the contract fixes
			adv := advice{Pointer: a.Pointer, Code: a.Code, Action: "advice", Text: a.Message}
			if a.Fix != nil {
				adv.Fix = a.Fix.Message
			}
			v.Advice = append(v.Advice, adv)
		}
		return v
	}
	v := view{Messages: len(top.Messages)}
	for _, d := range top.Diagnostics {
		a := advice{Pointer: d.Pointer, Code: d.Code, Action: d.Action, Text: d.Message}
		if d.Fix != nil {
			a.Fix = d.Fix.Message
		}
		v.Advice = append(v.Advice, a)
	}
	return v
}

// textFix is the fix line of a rejection's text report.
func textFix(text []byte) string {
	for _, line := range bytes.Split(text, []byte("\n")) {
		if s, ok := strings.CutPrefix(strings.TrimSpace(string(line)), "fix: "); ok {
			return s
		}
	}
	return ""
}

// at returns the value at an RFC 6901 pointer, and whether it is there.
func at(v any, pointer string) (any, bool) {
	if pointer == "" {
		return v, true
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// decodeJSON decodes JSON text, numbers as json.Number.
func decodeJSON(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}
