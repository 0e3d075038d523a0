package normalize

import (
	"math"
	"strconv"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/messages"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// metadata is the result's metadata object: its members in input order, a member whose
// recognised key failed its check left with an absent value.
type metadata struct {
	kind     jsonscan.Kind
	span     jsonscan.Span // the value as sent (of a value not an object, for the explain view's notes)
	verbatim bool          // written as its exact input bytes
	members  jsonscan.Members
}

func (m *metadata) reset() {
	m.members.Reset()
	m.kind, m.span, m.verbatim = jsonscan.None, jsonscan.Span{}, false
}

// read reads the metadata value at the scanner's position.
func (m *metadata) read(s *jsonscan.Scanner, warn *softwarn.Collector) {
	m.reset()
	m.kind = s.ValueKind() // read just after the key "metadata"
	if m.kind != jsonscan.Object {
		v := s.SkipValue()
		m.span = v
		if m.kind != jsonscan.Null && s.Err() == nil {
			warn.Add(softwarn.At("metadata").Warning(softwarn.MetadataNotObject, softwarn.Dropped, softwarn.Parts{
				Found: m.kind.Describe(), Expected: "an object", Done: "metadata was dropped", Fix: serializedTwice(s.Data(), v, m.kind, jsonscan.Object)}))
		}
		return
	}
	ws0, start := s.WS(), s.Pos()
	clean := true
	data := s.Data()
	// fails: some value of a recognised key fails its check, or may (a key with escapes,
	// whose name is not its token): only then are the members checked again, by their names
	// and last values, in order. Nearly every metadata object passes.
	fails := false
	var value jsonscan.Span
	for ok := s.ObjectStart(); ok; ok = s.ObjectNextAfter(value) {
		key, wsv := s.KeyToken(), s.WS()
		name, keyFlags := s.Key()
		kind := s.ValueKind()
		switch kind { // scalars, nearly every value, go straight to their scan
		case jsonscan.String:
			value = s.StringValue()
		case jsonscan.Number:
			value = s.NumberValue()
		default:
			value = s.SkipValue()
		}
		if !fails && s.Err() == nil { // the value is valid, so of the kind its first byte says
			fails = keyFlags&jsonscan.Escaped != 0 || checkOf(name).fails(data, value, kind)
		}
		if j := m.members.Put(data, key, keyFlags, value, s.WS() != wsv); j >= 0 && s.Err() == nil {
			clean = false
			if warn.Full() {
				warn.Skip("metadata")
				continue
			}
			name := m.members.Name(data, j)
			warn.Add(softwarn.At("metadata").Key(string(name)).Warning(softwarn.DuplicateKey, softwarn.Dropped,
				softwarn.Parts{Problem: "duplicate key " + softwarn.QuoteKey(string(name)), Done: softwarn.LastValueKept}))
		}
	}
	if s.Err() != nil {
		return
	}
	for i := 0; fails && i < len(m.members.List); i++ {
		name, v := m.members.Name(data, i), m.members.List[i].Value()
		if !metadataValueFails(data, name, v) {
			continue
		}
		if reason, bad := checkMetadataKey(data, name, v); bad {
			clean = false
			warn.Add(softwarn.At("metadata").Key(string(name)).Warning(softwarn.MetadataKeyInvalid, softwarn.Dropped, reason))
			m.members.List[i].Remove()
		}
	}
	m.span = jsonscan.Span{Start: start, End: s.Pos()}
	m.verbatim = clean && s.WS() == ws0
}

// CheckMetadataValue applies the check of the recognised metadata key named key (model,
// system_prompt_id, total_input_tokens, total_output_tokens, agent_runtime_ms) to the value at
// v in input: when the value fails it, it returns the parts of the warning that drops the key,
// and bad. Any value passes for another key.
func CheckMetadataValue(key string, input []byte, v Span) (reason softwarn.Parts, bad bool) {
	return checkMetadataKey(input, []byte(key), v)
}

// metadataValueFails reports whether the value at v of a recognised metadata key fails its
// check: checkMetadataKey's bad, without the parts of a warning, which cost a valid value
// (nearly every one) more than the check itself.
func metadataValueFails(data, key []byte, v jsonscan.Span) bool {
	return checkOf(key).fails(data, v, kindOf(data[v.Start:v.End]))
}

// metadataCheck is the check that the value of a recognised metadata key must pass.
type metadataCheck uint8

const (
	anyValue     metadataCheck = iota // not a recognised key
	aString                           // model, system_prompt_id
	tokenCount                        // total_input_tokens, total_output_tokens
	milliseconds                      // agent_runtime_ms
)

func checkOf(key []byte) metadataCheck {
	switch string(key) {
	case "model", "system_prompt_id":
		return aString
	case "total_input_tokens", "total_output_tokens":
		return tokenCount
	case "agent_runtime_ms":
		return milliseconds
	}
	return anyValue
}

// fails reports whether the value at v, of kind, fails the check. The reading of metadata
// knows the kind already: it needs no look at the value's first byte again.
func (c metadataCheck) fails(data []byte, v jsonscan.Span, kind jsonscan.Kind) bool {
	switch c {
	case aString:
		return kind != jsonscan.String
	case tokenCount:
		return kind != jsonscan.Number || !wholeNonNegative(data[v.Start:v.End])
	case milliseconds:
		return kind != jsonscan.Number || !nonNegative(data[v.Start:v.End])
	}
	return false
}

// checkMetadataKey checks a recognised metadata key and, when its value fails, says why in the
// parts of the warning that drops it, and reports bad.
func checkMetadataKey(data, key []byte, v jsonscan.Span) (reason softwarn.Parts, bad bool) {
	if !metadataValueFails(data, key, v) {
		return softwarn.Parts{}, false
	}
	tok := data[v.Start:v.End]
	kind := kindOf(tok)
	p := softwarn.Parts{Done: "the key was dropped"}
	switch string(key) {
	case "model", "system_prompt_id":
		p.Expected = "a string"
		switch kind {
		case jsonscan.String:
			return softwarn.Parts{}, false
		case jsonscan.Number:
			p.Found, p.Fix = "the number "+shorten(tok), `send it as a string: "`+shorten(tok)+`"`
		default:
			p.Found, p.Fix = kind.Describe(), nullHint(kind)
		}
		return p, true
	case "total_input_tokens", "total_output_tokens":
		p.Expected = "a whole, non-negative number of tokens"
		return p, numberFails(&p, data, v, kind, wholeNonNegative)
	case "agent_runtime_ms":
		p.Expected = "a non-negative number of milliseconds"
		return p, numberFails(&p, data, v, kind, nonNegative)
	}
	return softwarn.Parts{}, false
}

// numberFails reports whether the value of kind at v fails a number's check passes, and then
// sets what was found and the fix in p.
func numberFails(p *softwarn.Parts, data []byte, v jsonscan.Span, kind jsonscan.Kind, passes func([]byte) bool) bool {
	tok := data[v.Start:v.End]
	switch {
	case kind != jsonscan.Number:
		p.Found, p.Fix = describeValue(tok, kind), unquoteHint(data, v, kind, passes)
		if p.Fix == "" {
			p.Fix = nullHint(kind)
		}
	case !passes(tok):
		p.Found = shorten(tok) + pastDouble(tok)
	default:
		return false
	}
	return true
}

// serializedTwice is the fix for a value of kind k at v that should have been of kind want,
// when it is a string holding the JSON text of one.
func serializedTwice(data []byte, v jsonscan.Span, k, want jsonscan.Kind) string {
	if k != jsonscan.String || !jsonscan.StringHoldsJSON(data, v, want) {
		return ""
	}
	return "the string holds its JSON text: it was serialized twice (json.dumps of a value already serialized): send the " + want.Name() + " itself"
}

// nullHint says how to send no value for a recognised key: null is not one (a model_dump of
// unset fields sends null for each). Its wording names the framework, so it is
// messages.FixNullValue's.
func nullHint(kind jsonscan.Kind) string {
	if kind != jsonscan.Null {
		return ""
	}
	return messages.FixNullValue.String()
}

func wholeNonNegative(number []byte) bool {
	if plainDigits(number) { // nearly every token count: no sign, point or exponent to weigh
		return true
	}
	neg, whole := numberFacts(number)
	return !neg && whole && !overflows(number)
}

func nonNegative(number []byte) bool {
	if number[0] == '-' {
		if neg, _ := numberFacts(number); neg {
			return false
		}
	}
	return !overflows(number)
}

// overflows reports whether the platform's Python reads a validated number as infinity: json.loads
// makes a number with a point or an exponent a float, an IEEE double, and one past the largest
// double (1e400) is inf there, which json.dumps can only write back as Infinity, not JSON. An
// integer literal is an exact int (the scanner has refused one longer than MaxIntDigits, which
// Python does not read). The checks are otherwise made on the number
// exactly, as the published metadata schema states them (1e-400 is not whole, though Python
// rounds it to 0.0).
func overflows(number []byte) bool {
	if len(number) < 309 && !hasByte(number, 'e', 'E') { // no exponent, fewer digits than the largest double
		return false
	}
	d := splitNumber(number)
	if d.frac == nil && !d.hasExp { // an integer literal: a Python int
		return false
	}
	// The value is 0.D × 10^mag, D its significant digits: past 10^309 it is inf, below 10^308
	// it is finite; in between, a double read of at most 800 of them (all that strconv weighs)
	// decides, so that a number megabytes long is never copied.
	var sig [800]byte
	n, mag := 0, len(d.intDigits)+d.exp
	for _, part := range [2][]byte{d.intDigits, d.frac} {
		for _, c := range part {
			switch {
			case n == 0 && c == '0':
				mag--
			case n < len(sig):
				sig[n] = c
				n++
			}
		}
	}
	switch {
	case n == 0 || mag < 309:
		return false
	case mag > 309:
		return true
	}
	f, _ := strconv.ParseFloat("0."+string(sig[:n])+"e309", 64) // the only error is ErrRange
	return math.IsInf(f, 0)
}

func hasByte(tok []byte, a, b byte) bool {
	for _, c := range tok {
		if c == a || c == b {
			return true
		}
	}
	return false
}

// pastDouble says why a number past the largest double fails its check, where "found 1e400"
// alone would not. A negative one fails for its sign, which the message says already.
func pastDouble(number []byte) string {
	if number[0] == '-' || !overflows(number) {
		return ""
	}
	return " (past the largest double: Python reads it as inf)"
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

func kindOf(tok []byte) jsonscan.Kind {
	if c := tok[0]; c == '-' || (c >= '0' && c <= '9') {
		return jsonscan.Number
	}
	return jsonscan.Kind(tok[0])
}

// shorten shows a number from the input in a warning, cut so that a warning stays readable.
func shorten(tok []byte) string { return jsonscan.Cut(string(tok), 40) }

func describeValue(tok []byte, kind jsonscan.Kind) string {
	if kind == jsonscan.String && len(tok) <= 40 {
		return string(tok) + " (a string)"
	}
	return kind.Describe()
}

// unquoteHint suggests sending a number that arrived as a string as a number, when the string
// holds a JSON number that would pass the key's check.
func unquoteHint(data []byte, v jsonscan.Span, kind jsonscan.Kind, passes func([]byte) bool) string {
	if kind != jsonscan.String {
		return ""
	}
	text := jsonscan.StringText(data, v)
	if len(text) > 40 || !jsonscan.IsNumber(text) || !passes(text) {
		return ""
	}
	return "send it as a number: " + string(text)
}

// numberParts is a validated JSON number taken apart: its sign, the digits before and after
// the point (frac is nil without a point), and its exponent, clamped far past any length of
// digits an input can hold.
type numberParts struct {
	neg, hasExp     bool
	intDigits, frac []byte
	exp             int
}

func splitNumber(tok []byte) numberParts {
	var d numberParts
	if d.neg = tok[0] == '-'; d.neg {
		tok = tok[1:]
	}
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	d.intDigits = tok[:i]
	if i < len(tok) && tok[i] == '.' {
		j := i + 1
		for j < len(tok) && tok[j] >= '0' && tok[j] <= '9' {
			j++
		}
		d.frac, i = tok[i+1:j], j
	}
	if i < len(tok) {
		d.hasExp = true
		i++ // 'e' or 'E'
		sign := 1
		if tok[i] == '+' || tok[i] == '-' {
			if tok[i] == '-' {
				sign = -1
			}
			i++
		}
		for ; i < len(tok); i++ {
			if d.exp < math.MaxInt/16 { // no overflow
				d.exp = d.exp*10 + int(tok[i]-'0')
			}
		}
		d.exp *= sign
	}
	return d
}

// numberFacts reads a validated JSON number exactly, without rounding through a float: whether
// it is below zero, and whether its value is whole (10, 10.0, 1e2 and 1.5e1 are; 1.5 and 1e-1
// are not). Minus zero is zero.
func numberFacts(tok []byte) (negative, whole bool) {
	d := splitNumber(tok)
	// The value is the digits intDigits+frac with the point after len(intDigits)+exp of them.
	lastNonZero := -1
	for k, c := range d.intDigits {
		if c != '0' {
			lastNonZero = k
		}
	}
	for k, c := range d.frac {
		if c != '0' {
			lastNonZero = len(d.intDigits) + k
		}
	}
	if lastNonZero < 0 {
		return false, true // zero, however written
	}
	return d.neg, lastNonZero < len(d.intDigits)+d.exp
}

// appendJSON appends the metadata object, or null.
func (m *metadata) appendJSON(dst []byte, s *jsonscan.Scanner) []byte {
	if m.kind != jsonscan.Object {
		return append(dst, "null"...)
	}
	data := s.Data()
	if m.verbatim {
		return append(dst, data[m.span.Start:m.span.End]...)
	}
	dst = append(dst, '{')
	first := true
	for i := range m.members.List {
		mem := &m.members.List[i]
		if !mem.Value().Present() {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		key := mem.Key()
		dst = append(dst, data[key.Start:key.End]...)
		dst = append(dst, ':')
		dst = s.AppendValue(dst, mem.Value(), mem.WS())
	}
	return append(dst, '}')
}
