package porting

import (
	"strconv"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Gemini's usage metadata counts a thinking model's output in two parts: candidatesTokenCount
// (candidates_token_count in Python) is the response's text, and thoughtsTokenCount
// (thoughts_token_count) the model's thoughts, billed as output. The run's output is their sum;
// a rename of candidatesTokenCount alone would show a fraction of it (10 of 490 tokens).

// thoughtsReason is why the output sum, after the fix that names it.
const thoughtsReason = " (Gemini's candidatesTokenCount leaves out the thinking tokens, which thoughtsTokenCount counts and total_output_tokens includes)"

// seeThoughts takes in a member name holding the number count: Gemini's thoughts count, the
// first one met.
func (sib *siblings) seeThoughts(name, count []byte) {
	if sib.thoughts == nil && foldsTo(name, "thoughtstokencount") {
		sib.thoughts, sib.thoughtsCount = shownKey(name), count
	}
}

// thoughtsSum is the fix's sum of Gemini's output count, name holding count, and the thoughts
// count beside it: names ("candidatesTokenCount" + "thoughtsTokenCount") and value (10 + 480
// = 490, "" when a term is not plain digits); "" when name is not Gemini's candidates count or
// no thoughts count is beside it.
func (sib *siblings) thoughtsSum(name, count []byte) (names, value string) {
	if sib.thoughts == nil || !foldsTo(name, "candidatestokencount") {
		return "", ""
	}
	names = softwarn.QuoteKey(string(shownKey(name))) + " + " + softwarn.QuoteKey(string(sib.thoughts))
	a, okA := smallCount(count)
	b, okB := smallCount(sib.thoughtsCount)
	if okA && okB {
		value = strconv.FormatUint(a, 10) + " + " + strconv.FormatUint(b, 10) + " = " + strconv.FormatUint(a+b, 10)
	}
	return names, value
}
