package messages

import (
	"strings"
	"testing"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// numberTextBefore, foundNumberBefore and asStringBefore are how the texts that quote a number
// were built before they were built in the collector's buffer: strings cut and joined.
func numberTextBefore(data []byte, sp jsonscan.Span) string {
	tok := data[sp.Start:sp.End]
	if len(tok) > 80 {
		tok = tok[:80]
	}
	return jsonscan.Cut(string(tok), 64)
}

func foundNumberBefore(number string) (found, fix string) {
	return "the number " + number, asStringBefore(number)
}

func asStringBefore(number string) string { return sendAsString + number + `"` }

// testNumbers are number tokens of every form a handler sends: signs, zeros, exponents past a
// double (1e400), integers past int64, and tokens around the cut at 64 bytes and the copy's
// bound at 80.
func testNumbers() []string {
	numbers := []string{"0", "-0", "-0.0", "0.0", "17", "-17", "1e400", "-1e400", "1E+400", "2.5e-7",
		"12345678901234567890123", "-12345678901234567890123", "9223372036854775808", "-9223372036854775809",
		"3.141592653589793238462643383279"}
	for _, n := range []int{63, 64, 65, 79, 80, 81, 200} {
		numbers = append(numbers, strings.Repeat("9", n), "-"+strings.Repeat("1", n-1), "1."+strings.Repeat("5", n-2))
	}
	return numbers
}

// TestNumberTextsAsBefore: the texts built in the collector's buffer are the texts built
// before, and stay so while more are built after them and after the collector starts over.
func TestNumberTextsAsBefore(t *testing.T) {
	var c softwarn.Collector
	r := Reader{warn: &c}
	type texts struct{ number, found, fix, nameFix string }
	var built []texts
	check := func(tt texts) {
		t.Helper()
		wantFound, wantFix := foundNumberBefore(tt.number)
		if tt.found != wantFound || tt.fix != wantFix || tt.nameFix != asStringBefore(tt.number) {
			t.Fatalf("texts of %q: found %q, fix %q, name's fix %q; want %q, %q, %q",
				tt.number, tt.found, tt.fix, tt.nameFix, wantFound, wantFix, asStringBefore(tt.number))
		}
	}
	for round := range 40 { // past several of the buffer's chunks
		if round%10 == 9 {
			c.SetLimit(0)
		}
		for _, number := range testNumbers() {
			data := []byte(`{"id": ` + number + `}`)
			sp := jsonscan.Span{Start: len(`{"id": `), End: len(`{"id": `) + len(number)}
			found, fix := r.foundNumber(data, sp)
			tt := texts{numberTextBefore(data, sp), found, fix, r.nameFix(data, sp, jsonscan.Number, "")}
			check(tt)
			built = append(built, tt)
		}
	}
	for _, tt := range built {
		check(tt)
	}
}
