package normalize

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// overflows takes a number apart instead of reading it as a double; it must agree with
// strconv's (correctly rounded) reading on every float literal, around the largest double most.
func TestOverflowsAgreesWithParseFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	for range 20000 {
		lead := strings.Repeat("0", r.IntN(3)) + strconv.Itoa(1+r.IntN(9)) + digits(r.IntN(25))
		var tok string
		switch r.IntN(3) {
		case 0: // d.ddd e±N
			tok = lead[:1] + "." + lead[1:] + "0" + "e" + strconv.Itoa(280+r.IntN(40))
		case 1: // 0.000ddd eN
			tok = "0." + strings.Repeat("0", r.IntN(5)) + lead + "E+" + strconv.Itoa(300+r.IntN(20))
		default: // a long integer part with a point
			tok = lead + digits(290+r.IntN(30)) + "." + digits(1+r.IntN(3))
		}
		if r.IntN(4) == 0 {
			tok = "-" + tok
		}
		f, _ := strconv.ParseFloat(tok, 64)
		require.Equal(t, math.IsInf(f, 0), overflows([]byte(tok)), "%s", tok)
	}
	for _, tok := range []string{"1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "17976931348623158079e289", "1e309", "0.1e309"} {
		f, _ := strconv.ParseFloat(tok, 64)
		require.Equal(t, math.IsInf(f, 0), overflows([]byte(tok)), "%s", tok)
	}
}
