package porting

import (
	"bytes"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
)

// kindOf is the kind of the validated value token tok.
func kindOf(tok []byte) jsonscan.Kind {
	if c := tok[0]; c == '-' || (c >= '0' && c <= '9') {
		return jsonscan.Number
	}
	return jsonscan.Kind(tok[0])
}

// plural is n what, with an s when n is not 1.
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// plainDigits reports whether a validated number is digits alone: a whole number, not below
// zero.
func plainDigits(number []byte) bool {
	for _, c := range number {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// codePath is the expression that reads keys, in order, from the value root names, as code
// writes it: root.a[0].b, each key of digits an index; with dict, also as a dict is read, for a
// value that may be a dict (JSON text written with spaces, as json.dumps writes it):
// "root.a[0].b (root["a"][0]["b"] on a dict)".
func codePath(dict bool, root string, keys ...string) string {
	attr, item := root, root
	for _, k := range keys {
		if k != "" && k[0] >= '0' && k[0] <= '9' {
			attr += "[" + k + "]"
			item += "[" + k + "]"
			continue
		}
		attr += "." + k
		item += `["` + k + `"]`
	}
	if !dict {
		return attr
	}
	return attr + " (" + item + " on a dict)"
}

// joinedWith is what an answer's place adds when more parts than the first hold text: that
// theirs is part of the answer too.
func joinedWith(parts int, what string) string {
	if parts < 2 {
		return ""
	}
	return ", joined with the text of its other " + what
}

// blank reports whether v is not a string token with text other than spaces: sending it would
// be rejected (empty) or graded as nothing (whitespace).
func blank(v []byte) bool {
	if textKind(v) != jsonscan.String {
		return true
	}
	return len(bytes.TrimSpace(jsonscan.StringText(v, jsonscan.Span{Start: 0, End: len(v)}))) == 0
}
