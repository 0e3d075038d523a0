package porting

import (
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
