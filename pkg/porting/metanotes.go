package porting

import (
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// metaKey is a recognised metadata key (schemas/metadata.schema.json), with the other names
// the sources give it (their metaNames, joined at init) and the kind of value a key by another
// name must hold to be noted: under another kind it is something else by that name, not the
// key.
type metaKey struct {
	name   string // as the platform reads it
	folded string // name as foldsTo wants it: lower case, no separators
	kind   jsonscan.Kind
	others []otherName
	lacks  string // what the run is shown without, for want of the key
	noun   string // what the key holds, as an other name's origin says: "the count"
	// pooled: a name several sources give the key is said to be shared before any of them
	// is named ("a name several SDKs share for the count: ..."), so that a porter of one is
	// not told first that the key is another's; otherwise each source's words in turn.
	pooled bool
}

// otherName is a source's name for a recognised key.
type otherName struct {
	name, folded string
	origin       string // whose name it is
	rank         int
}

var metaKeys = [...]metaKey{
	{name: "model", folded: "model", kind: jsonscan.String, lacks: "a model", noun: "the model"},
	{name: "system_prompt_id", folded: "systempromptid", kind: jsonscan.String, lacks: "a system prompt id", noun: "the system prompt id"},
	{name: "total_input_tokens", folded: "totalinputtokens", kind: jsonscan.Number, lacks: "an input token count", noun: "the count", pooled: true},
	{name: "total_output_tokens", folded: "totaloutputtokens", kind: jsonscan.Number, lacks: "an output token count", noun: "the count", pooled: true},
	{name: "agent_runtime_ms", folded: "agentruntimems", kind: jsonscan.Number, lacks: "an agent runtime", noun: "the runtime"},
}

// joinMetaNames gives each of metaKeys the other names of the sources' tables, by rank, each
// with its origin: one source's words, "<whose> name for <noun>[, in <in>]"; or several
// sources', in the order registered: pooled, "a name several SDKs share for <noun>: " and
// their holders, those of one holder together ("A's, B's and C's usage, D's
// usage_metadata"); else "<whose> name for <noun>, in <in>, and <whose>, in <in>".
func joinMetaNames() {
	joinCaches()
	for k := range metaKeys {
		key := &metaKeys[k]
		var names []otherName
		var by [][]metaName // each name's entries, in the order of names
		for _, s := range sources {
			for _, m := range s.metaNames {
				if m.key != key.name {
					continue
				}
				if m.beside != nil {
					besideNames, besideHow = append(besideNames, m), append(besideHow, "("+key.origin([]metaName{m})+")")
					continue
				}
				i := slices.IndexFunc(names, func(o otherName) bool { return o.name == m.name })
				if i < 0 {
					i = len(names)
					names = append(names, otherName{name: m.name, folded: fold(m.name), rank: m.rank})
					by = append(by, nil)
				}
				by[i] = append(by[i], m)
			}
		}
		for i := range names {
			names[i].origin = key.origin(by[i])
		}
		slices.SortStableFunc(names, func(a, b otherName) int { return a.rank - b.rank })
		key.others = names
	}
	besideNames = besideNames[:min(len(besideNames), 64)]
}

// origin is what the note says of a name that the sources of ms give key k.
func (k *metaKey) origin(ms []metaName) string {
	in := func(m metaName) string {
		if m.in == "" {
			return ""
		}
		return ", in " + m.in
	}
	switch {
	case len(ms) == 1:
		return ms[0].whose + " name for " + k.noun + in(ms[0])
	case !k.pooled:
		s := ms[0].whose + " name for " + k.noun + in(ms[0])
		for _, m := range ms[1:] {
			s += ", and " + m.whose + in(m)
		}
		return s
	}
	var holders []string // in the order first met
	var whose [][]string // each holder's sources
	for _, m := range ms {
		i := slices.Index(holders, m.in)
		if i < 0 {
			i = len(holders)
			holders, whose = append(holders, m.in), append(whose, nil)
		}
		whose[i] = append(whose[i], m.whose)
	}
	s := "a name several SDKs share for " + k.noun + ": "
	for i, h := range holders {
		if i > 0 {
			s += ", "
		}
		s += andList(whose[i]) + " " + h
	}
	return s
}

// andList is words joined as a list: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// fold is name as foldsTo wants it: lower case, without separators.
func fold(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '_' || r == '-' || r == ' ':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, name)
}

// The token counts and the runtime, by their index in metaKeys.
const (
	metaInputTokens  = 2
	metaOutputTokens = 3
	metaRuntime      = 4
)

// The sources' usage objects, cache counts, output parts, runtimes and names said beside other
// keys (their usageKeys, cached, split, runtimes and metaNames with beside), gathered at init
// by joinMetaNames.
var (
	usageKeys    []string      // as foldsTo wants them
	cacheKeys    []string      // every source's cache counts, as foldsTo wants them, each once
	cacheSources []*cacheShape // the sources' cached, in the order registered
	splits       []*splitShape
	runtimes     []runtimeName
	besideNames  []metaName // the metaNames that are a source's only beside its keys
	besideHow    []string   // what a note says of each of besideNames, made at init
)

// maxCacheKeys bounds cacheKeys, the counts siblings holds (TestMetaKeysAreTheSchemas).
const maxCacheKeys = 4

// joinCaches gathers the sources' usage objects, cache counts, output parts and runtimes.
func joinCaches() {
	for _, s := range sources {
		usageKeys = append(usageKeys, s.usageKeys...)
		if s.cached != nil {
			cacheSources = append(cacheSources, s.cached)
			for _, c := range s.cached.caches {
				if !slices.Contains(cacheKeys, c.folded) {
					cacheKeys = append(cacheKeys, c.folded)
				}
			}
		}
		if s.split != nil {
			splits = append(splits, s.split)
		}
		for _, r := range s.runtimes {
			r.found, r.expected = `the key "`+r.name+`" holding a number`, `"agent_runtime_ms" (`+r.origin+`)`
			r.to = `set "agent_runtime_ms" to the run's time in milliseconds, ` + r.name + ` / 1e6`
			runtimes = append(runtimes, r)
		}
	}
	cacheKeys = cacheKeys[:min(len(cacheKeys), maxCacheKeys)]
	runtimes = runtimes[:min(len(runtimes), 64)]
}

// whoseCache is the index in cacheSources, plus one, of the last registered source whose cache
// counts, or usage object, name is: of a cache count, one of its caches with that spelling (or
// any); of a usage object, one of its holders; 0 when none.
func whoseCache(name []byte, usage bool) int {
	by := 0
	for i, c := range cacheSources {
		for _, n := range c.caches {
			if !usage && foldsTo(name, n.folded) && (n.spelled == "" || string(name) == n.spelled) {
				by = i + 1
			}
		}
		for _, h := range c.holders {
			if usage && foldsTo(name, h) {
				by = i + 1
			}
		}
	}
	return by
}

// matches says whether name, not the key itself, is another name for k, and how, for the note.
func (k *metaKey) matches(name []byte) (how string, ok bool) {
	if foldsTo(name, k.folded) {
		return "(keys are matched exactly, case and separators included)", true
	}
	for _, o := range k.others { // an exact name first: inputTokens is not a spelling of input_tokens
		if string(name) == o.name {
			return "(" + o.origin + ")", true
		}
	}
	for _, o := range k.others {
		if foldsTo(name, o.folded) {
			return "(a spelling of " + o.name + ", " + o.origin + ")", true
		}
	}
	return "", false
}

// metadataNotes notes the metadata keys that mean a recognised key but are read as ordinary
// ones, kept as sent without a check or a warning, so that the run is shown without what they
// hold: another SDK's name for a recognised key (input_tokens, prompt_tokens, eval_count,
// model_name), the key spelled another way (Model, totalInputTokens, agent-runtime-ms), token
// counts under a usage object, and a runtime in nanoseconds for agent_runtime_ms.
// Only for a recognised key the metadata lacks: when it is there, the porter sends it already
// and the others are data. One note per recognised key, on its first other name in input order
// (a rename makes the key present: one note per name would have the porter send it twice); a
// usage object supplies only the counts no other name did (a rename is the simpler fix). Beside
// a source's cache counts (cacheShape), its input count is a part of the total: the note says to
// send the sum, with its value, taking the cache counts from a usage object when an input_tokens
// at metadata's top has none beside it, or from metadata's top when an input_tokens in a usage
// object has none beside it.
// It reads the members the record kept (the last metadata, each key's last value, unescaped),
// so a duplicated or escaped key is judged as the record has it. Metadata sent as a list of
// one-key objects or of key/value pairs, dropped with a warning, is told to merge them.
func metadataNotes(v normalize.View, n *noteRun) {
	kind, span, m := v.Metadata()
	if kind == jsonscan.Array {
		if w, ok := listNote(v.Input(), span, v.MaxDepth()); ok {
			if n.take() {
				n.add(span.Start, w)
			}
		}
		return
	}
	if kind != jsonscan.Object {
		return
	}
	data := v.Input()
	var covered [len(metaKeys)]bool
	var sib siblings
	for i := range m.Len() {
		name := m.Name(i)
		for k := range metaKeys {
			covered[k] = covered[k] || string(name) == metaKeys[k].name
		}
		sib.see(data, name, m.Value(i))
	}
	if !sib.hasCache() {
		u := usageCache(m, data, v.MaxDepth())
		sib.takeCache(&u)
	}
	var notes []placedNote
	for i := range m.Len() {
		if w, ok := otherNameNote(m, data, i, &covered, &sib); ok {
			notes = append(notes, placedNote{at: m.Key(i).Start, w: w})
		}
	}
	for i := range m.Len() {
		if w, ok := durationNote(m, data, i, &covered, &sib); ok {
			notes = append(notes, placedNote{at: m.Key(i).Start, w: w})
		}
	}
	for i := range m.Len() {
		if w, ok := usageNote(m, data, i, v.MaxDepth(), &covered, &sib); ok {
			notes = append(notes, placedNote{at: m.Key(i).Start, w: w})
		}
	}
	for j := 1; j < len(notes); j++ { // at most a few: an insertion sort into input order
		for l := j; l > 0 && notes[l].at < notes[l-1].at; l-- {
			notes[l], notes[l-1] = notes[l-1], notes[l]
		}
	}
	for _, p := range notes {
		if n.take() {
			n.add(p.at, p.w)
		}
	}
}

// siblings is what the notes on one metadata key need to know of the others: the cache counts
// (their keys and numbers, nil when absent; under, the usage object that holds them when they
// are not beside the count; atTop, when they are in metadata itself and the count under a usage
// object), whose they are, the part of the output a source counts beside its output count, and
// which sources' keys are there.
type siblings struct {
	cache, counts [maxCacheKeys][]byte
	under         []byte
	atTop         bool
	by            int    // whose the counts are: whoseCache's, the greatest seen
	runtimes      uint64 // the runtimes beside one of whose keys (by index)
	beside        uint64 // the besideNames beside one of whose keys (by index)
	// part is an output count's other part (splitShape), and its number.
	part, partCount []byte
	split           *splitShape
}

// see takes in member name, holding v.
func (sib *siblings) see(data, name []byte, v jsonscan.Span) {
	if !v.Present() || kindOf(data[v.Start:v.End]) != jsonscan.Number {
		return
	}
	for j, c := range cacheKeys {
		if sib.cache[j] == nil && foldsTo(name, c) {
			sib.cache[j], sib.counts[j] = shownKey(name), data[v.Start:v.End]
			sib.by = max(sib.by, whoseCache(name, false))
		}
	}
	for j, r := range runtimes {
		if hasBytes(r.beside, name) {
			sib.runtimes |= 1 << j
		}
	}
	for j, b := range besideNames {
		if hasBytes(b.beside, name) {
			sib.beside |= 1 << j
		}
	}
	sib.seePart(name, data[v.Start:v.End])
}

// seePart takes in a member name holding the number count: the first part of an output count
// (a source's splitShape) met.
func (sib *siblings) seePart(name, count []byte) {
	if sib.part != nil {
		return
	}
	for _, sp := range splits {
		if foldsTo(name, sp.part) {
			sib.part, sib.partCount, sib.split = shownKey(name), count, sp
			return
		}
	}
}

// partSum is the fix's sum of an output count, name holding count, and the part beside it that
// it leaves out: names ("candidatesTokenCount" + "thoughtsTokenCount"), value (10 + 480 = 490,
// "" when a term is not plain digits) and why; "" when name is not the count of the part seen.
func (sib *siblings) partSum(name, count []byte) (names, value, reason string) {
	if sib.part == nil || !foldsTo(name, sib.split.count) {
		return "", "", ""
	}
	names = softwarn.QuoteKey(string(shownKey(name))) + " + " + softwarn.QuoteKey(string(sib.part))
	a, okA := smallCount(count)
	b, okB := smallCount(sib.partCount)
	if okA && okB {
		value = strconv.FormatUint(a, 10) + " + " + strconv.FormatUint(b, 10) + " = " + strconv.FormatUint(a+b, 10)
	}
	return names, value, sib.split.reason
}

// takeCache takes o's cache counts, where they are and whose they are, for a count that has
// none beside it.
func (sib *siblings) takeCache(o *siblings) {
	sib.cache, sib.counts, sib.under, sib.by = o.cache, o.counts, o.under, o.by
}

// hasCache reports whether a cache count was seen.
func (sib *siblings) hasCache() bool {
	for _, c := range sib.cache {
		if c != nil {
			return true
		}
	}
	return false
}

// sum is the fix's sum of an input count, name holding count, and the cache counts beside it
// (names: "input_tokens" + "cache_read_input_tokens", and where they are when under another
// object) with its value when every term is plain digits (value: 12 + 900 = 912, else ""); ""
// when name is no source's input count that leaves out the cache (cacheShape) or no cache count
// is there (the count is then the total). reason says why: the words of the source the counts
// are.
func (sib *siblings) sum(name, count []byte) (names, value, reason string) {
	if !sib.hasCache() {
		return "", "", ""
	}
	c := cacheSources[max(sib.by, 1)-1]
	if !foldsTo(name, c.count) {
		return "", "", ""
	}
	names = softwarn.QuoteKey(string(shownKey(name)))
	total, exact := smallCount(count)
	terms := strconv.FormatUint(total, 10)
	for j, c := range sib.cache {
		if c == nil {
			continue
		}
		names += " + " + softwarn.QuoteKey(string(c))
		n, ok := smallCount(sib.counts[j])
		terms, total, exact = terms+" + "+strconv.FormatUint(n, 10), total+n, exact && ok
	}
	what := "the cache counts"
	if strings.Count(names, " + ") == 1 {
		what = "the cache count"
	}
	switch {
	case sib.under != nil:
		names += " (" + what + " under " + softwarn.QuoteKey(string(shownKey(sib.under))) + ")"
	case sib.atTop:
		names += " (" + what + " in metadata itself)"
	}
	if exact {
		value = terms + " = " + strconv.FormatUint(total, 10)
	}
	return names, value, c.reason
}

// smallCount reads a count written as plain digits, short enough that a few of them add up
// without overflow; ok false for any other number (1E+3, 12.0, a long one), which a sum
// names without adding.
func smallCount(tok []byte) (uint64, bool) {
	if len(tok) == 0 || len(tok) > 18 || !plainDigits(tok) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(tok), 10, 64)
	return n, err == nil
}

// usageCache is the cache counts in the first usage object of metadata, for a count at
// metadata's top when none are beside it: {"input_tokens": 42, "usage": {"input_tokens": 42,
// "cache_read_input_tokens": 1800}} is a usage object with its input count copied out.
func usageCache(m normalize.Object, data []byte, depth int) siblings {
	var all [len(metaKeys)]bool // no count wanted, only the cache counts
	for k := range all {
		all[k] = true
	}
	for i := range m.Len() {
		v, name := m.Value(i), m.Name(i)
		if !v.Present() || data[v.Start] != '{' || !isUsageKey(name) {
			continue
		}
		_, _, sib := usageCounts(data[v.Start:v.End], depth, &all)
		if !sib.hasCache() {
			continue
		}
		sib.under = name
		sib.by = max(sib.by, whoseCache(name, true))
		return sib
	}
	return siblings{}
}

// otherNameNote is the note on metadata member i when it is another name for a recognised key
// not yet covered, and holds what that key would.
func otherNameNote(m normalize.Object, data []byte, i int, covered *[len(metaKeys)]bool, sib *siblings) (softwarn.Warning, bool) {
	v := m.Value(i)
	if !v.Present() { // a recognised key that failed its check
		return softwarn.Warning{}, false
	}
	name, kind := m.Name(i), kindOf(data[v.Start:v.End])
	for k := range metaKeys {
		key := &metaKeys[k]
		if covered[k] || kind != key.kind {
			continue
		}
		if how, ok := key.matches(name); ok {
			covered[k] = true
			for j, b := range besideNames {
				if sib.beside&(1<<j) != 0 && b.key == key.name && string(name) == b.name {
					how = besideHow[j]
				}
			}
			fix := `rename it "` + key.name + `"` + failsCheck(data, key, v)
			if names, value, reason := sib.sum(name, data[v.Start:v.End]); k == metaInputTokens && names != "" {
				if value != "" {
					value = ", " + value
				}
				fix = `set "` + key.name + `" to the sum ` + names + value + reason
			}
			if names, value, reason := sib.partSum(name, data[v.Start:v.End]); k == metaOutputTokens && names != "" {
				if value != "" {
					value = ", " + value
				}
				fix = `set "` + key.name + `" to the sum ` + names + value + reason
			}
			name = shownKey(name)
			return softwarn.At("metadata").Key(string(name)).Warning(softwarn.MetadataKeyVariant, softwarn.Kept, softwarn.Parts{
				Found:    "the key " + softwarn.QuoteKey(string(name)) + " holding " + kind.Describe(),
				Expected: `"` + key.name + `" ` + how,
				Done:     keptUnchecked + key.lacks,
				Fix:      fix}), true
		}
	}
	return softwarn.Warning{}, false
}

// failsCheck says what the key's check will find once the key is renamed, when the value fails
// it (output_tokens: -1), so that the porter fixes both at once; the check's own words, without
// what it did ("the key was dropped"), which has not happened yet.
func failsCheck(data []byte, key *metaKey, v jsonscan.Span) string {
	reason, bad := normalize.CheckMetadataValue(key.name, data, v)
	if !bad {
		return ""
	}
	return "; its value would then be dropped: " + softwarn.Parts{Found: reason.Found, Expected: reason.Expected}.Message()
}

// keptUnchecked is what was done about a key by another name: the run is shown without what
// follows.
const keptUnchecked = "it was kept as an ordinary key, stored as sent and not checked, so the run is shown without "

// durationNote is the note on metadata member i when it is a source's runtime in nanoseconds
// (runtimeName), beside one of that source's other keys, and agent_runtime_ms is not covered:
// the same run time, where agent_runtime_ms is in milliseconds. A rename would show it a
// million times too long.
func durationNote(m normalize.Object, data []byte, i int, covered *[len(metaKeys)]bool, sib *siblings) (softwarn.Warning, bool) {
	v := m.Value(i)
	if covered[metaRuntime] || sib.runtimes == 0 || !v.Present() || kindOf(data[v.Start:v.End]) != jsonscan.Number {
		return softwarn.Warning{}, false
	}
	for j, r := range runtimes {
		if sib.runtimes&(1<<j) == 0 || string(m.Name(i)) != r.name {
			continue
		}
		covered[metaRuntime] = true
		example := ""
		if ms, ok := nanosToMillis(data[v.Start:v.End]); ok {
			example = " (" + string(data[v.Start:v.End]) + " ns is " + ms + " ms)"
		}
		return softwarn.At("metadata").Key(r.name).Warning(softwarn.MetadataKeyVariant, softwarn.Kept, softwarn.Parts{
			Found:    r.found,
			Expected: r.expected,
			Done:     keptUnchecked + "an agent runtime",
			Fix:      r.to + example}), true
	}
	return softwarn.Warning{}, false
}

// nanosToMillis writes a whole number of nanoseconds in milliseconds, exactly: the point moved
// six places. Only for plain digits of a plausible length: another number is not rewritten.
func nanosToMillis(tok []byte) (string, bool) {
	if len(tok) > 24 || !plainDigits(tok) {
		return "", false
	}
	digits := strings.TrimLeft(string(tok), "0")
	if len(digits) < 7 {
		digits = strings.Repeat("0", 7-len(digits)) + digits
	}
	whole, frac := digits[:len(digits)-6], strings.TrimRight(digits[len(digits)-6:], "0")
	if frac == "" {
		return whole, true
	}
	return whole + "." + frac, true
}

// shownKey is as much of a key as a note shows (softwarn cuts it further): a hostile key can be
// megabytes, and is not copied for a note.
func shownKey(name []byte) []byte {
	if len(name) > softwarn.MaxKeyShown+4 {
		return name[:softwarn.MaxKeyShown+4]
	}
	return name
}

// usageNote is the note on metadata member i when it is a usage object holding token counts for
// recognised keys not yet covered: the platform reads no counts inside it. top is what metadata
// itself holds: cache counts there, when the usage object has none, go into the sum.
func usageNote(m normalize.Object, data []byte, i, depth int, covered *[len(metaKeys)]bool, top *siblings) (softwarn.Warning, bool) {
	v := m.Value(i)
	name := m.Name(i)
	if !v.Present() || data[v.Start] != '{' || !isUsageKey(name) {
		return softwarn.Warning{}, false
	}
	counts, values, sib := usageCounts(data[v.Start:v.End], depth, covered)
	if !sib.hasCache() && top.under == nil && top.hasCache() {
		sib.takeCache(top)
		sib.atTop = true
	}
	sib.by = max(sib.by, whoseCache(name, true))
	var found, want, copies, lacks, reason string
	n := 0
	for k, count := range counts {
		if count == nil {
			continue
		}
		covered[k] = true
		q, w := softwarn.QuoteKey(string(shownKey(count))), `"`+metaKeys[k].name+`"`
		if n > 0 {
			found, want, copies = found+" and ", want+" and ", copies+", "
		}
		from := q
		if names, value, why := sib.sum(count, values[k]); k == metaInputTokens && names != "" {
			switch {
			case value != "" && strings.HasSuffix(names, ")"): // (the cache counts in metadata itself, 42 + 900 = 942)
				names = names[:len(names)-1] + ", " + value + ")"
			case value != "":
				names += " (" + value + ")"
			}
			from, reason = names, why
		}
		if names, value, why := sib.partSum(count, values[k]); k == metaOutputTokens && names != "" {
			if value != "" {
				names += " (" + value + ")"
			}
			from, reason = names, reason+why
		}
		found, want, copies, lacks = found+q, want+w, copies+from+" to "+w, metaKeys[k].lacks
		n++
	}
	if n == 0 {
		return softwarn.Warning{}, false
	}
	total, keys := "total", "key"
	if n > 1 {
		lacks, total, keys = "token counts", "totals", "keys"
	}
	name = shownKey(name)
	u := softwarn.QuoteKey(string(name))
	return softwarn.At("metadata").Key(string(name)).Warning(softwarn.MetadataKeyVariant, softwarn.Kept, softwarn.Parts{
		Found:    found + " under " + u,
		Expected: want + " in metadata itself (the platform reads no counts inside " + u + ")",
		Done:     u + " was kept as an ordinary key, stored as sent, so the run is shown without " + lacks,
		Fix:      "copy the run's " + total + " to metadata's own " + keys + ": " + copies + reason}), true
}

func isUsageKey(name []byte) bool {
	for _, u := range usageKeys {
		if foldsTo(name, u) {
			return true
		}
	}
	return false
}

// usageCounts reads a usage object and returns, for each recognised token count not covered,
// the key of the first member that holds it as a number, unescaped (nil when none does), and
// that number's text, and the cache counts beside them. As in the record, a repeated key's last
// value counts.
func usageCounts(obj []byte, depth int, covered *[len(metaKeys)]bool) (keys, values [len(metaKeys)][]byte, sib siblings) {
	var s jsonscan.Scanner
	s.Reset(obj, depth)
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		raw, flags := s.Key()
		name := raw
		if flags&jsonscan.Escaped != 0 {
			// A key that long holds no count's name but for separators: not copied.
			if len(raw) > 4*softwarn.MaxKeyShown {
				s.SkipValue()
				continue
			}
			name = s.KeyName()
		}
		var number []byte // the value's text when it is a number
		if v := s.SkipValue(); v.Present() && kindOf(obj[v.Start:v.End]) == jsonscan.Number {
			number = obj[v.Start:v.End]
		}
		for _, k := range [...]int{metaInputTokens, metaOutputTokens} {
			switch {
			case covered[k]:
			case keys[k] != nil && string(keys[k]) == string(name):
				values[k] = number
			case keys[k] == nil && number != nil:
				if _, ok := metaKeys[k].matches(name); ok {
					keys[k], values[k] = name, number
				}
			}
		}
		if number != nil {
			sib.seePart(name, number)
		}
		for j, c := range cacheKeys {
			switch {
			case sib.cache[j] != nil && string(sib.cache[j]) == string(name):
				sib.counts[j] = number
			case sib.cache[j] == nil && number != nil && foldsTo(name, c):
				sib.cache[j], sib.counts[j] = name, number
			}
		}
	}
	for k := range keys {
		if values[k] == nil || s.Err() != nil {
			keys[k], values[k] = nil, nil
		}
	}
	for j := range sib.cache {
		if sib.counts[j] == nil || s.Err() != nil {
			sib.cache[j], sib.counts[j] = nil, nil
		}
		if sib.cache[j] != nil {
			sib.by = max(sib.by, whoseCache(sib.cache[j], false))
		}
	}
	return keys, values, sib
}

// listShown is how many of a list's keys the merged object in a note shows.
const listShown = 3

// listNote is the note on metadata sent as a list of one-key objects ([{"model": "m"},
// {"total_input_tokens": 3}]) or of key/value pairs ([{"key": "model", "value": "m"}]): what a
// dict's items, a Go map's or a config's entries become when serialized as a list. The platform
// drops it with a warning that says an object was expected; the note says which object. Every
// entry must have the shape, and their keys must differ (a list of records repeats its key), or
// the list is something else and has no note. It reads the list
// without copying it: the first few keys, unescaped, and a count.
func listNote(data []byte, v jsonscan.Span, depth int) (softwarn.Warning, bool) {
	var s jsonscan.Scanner
	s.Reset(data[v.Start:v.End], depth)
	pairs, entries := false, 0
	var shown [listShown][]byte
	var seen listKeySet
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			return softwarn.Warning{}, false
		}
		key, id, isPair, ok := listEntry(&s, entries == 0 || pairs, entries < listShown)
		if !ok || (entries > 0 && isPair != pairs) || !seen.add(id) {
			return softwarn.Warning{}, false
		}
		pairs = isPair
		if entries < listShown {
			shown[entries] = key
		}
		entries++
	}
	if s.Err() != nil || entries == 0 {
		return softwarn.Warning{}, false
	}
	merged := "{"
	for j, key := range shown[:min(entries, listShown)] {
		if j > 0 {
			merged += ", "
		}
		merged += softwarn.QuoteKey(string(shownKey(key))) + ": ..."
	}
	if entries > listShown {
		merged += ", ..."
	}
	merged += "}"
	found, how := plural(entries, "object")+" of one key", "merge them into one object"
	if entries > 1 {
		found += " each"
	} else {
		how = "send that object itself, not a list of it"
	}
	if pairs {
		found, how = plural(entries, `{"key": ..., "value": ...} pair`), "send one object, each pair's key a member holding its value"
	}
	return softwarn.At("metadata").Warning(softwarn.MetadataAsList, softwarn.Dropped, softwarn.Parts{
		Found:    "a list of " + found,
		Expected: "one object",
		Done:     "metadata was dropped, as its warning says, so the run is shown without it",
		Fix:      how + ": " + merged}), true
}

// maxListKeys is how many keys of a metadata list listKeySet remembers: a later key is checked
// against them, not remembered (some 16 KiB at most, whatever the list).
const maxListKeys = 1024

// listKeySet is the keys of a metadata list's entries, by a hash of their JSON text. A dict's items
// or a map's entries never repeat a key: a list whose entries do ([{"name": "env"}, {"name":
// "team"}]) is a list of records, and merging it would keep only the last.
type listKeySet struct {
	seed   maphash.Seed
	hashes map[uint64]struct{}
}

// add takes in key, the JSON text of an entry's key; false when it was seen before.
func (k *listKeySet) add(key []byte) bool {
	if k.hashes == nil {
		k.seed, k.hashes = maphash.MakeSeed(), make(map[uint64]struct{})
	}
	h := maphash.Bytes(k.seed, key)
	if _, ok := k.hashes[h]; ok {
		return false
	}
	if len(k.hashes) < maxListKeys {
		k.hashes[h] = struct{}{}
	}
	return true
}

// listEntry reads one entry of a metadata list, an object at the scanner: ok when it is one
// member (its key) or, when pairs may be, exactly "key" and "value", the key a string (its
// text), and the JSON text of its key (id, not copied). The key is decoded only when want.
func listEntry(s *jsonscan.Scanner, pairsMayBe, want bool) (key, id []byte, isPair, ok bool) {
	members := 0
	var first, firstID, pairKey, pairID []byte
	hasKey, hasValue := false, false
	for more := s.ObjectStart(); more; more = s.ObjectNext() {
		raw, _ := s.Key()
		if members == 0 {
			firstID = raw
			if want {
				first = s.KeyName()
			}
		}
		members++
		switch string(raw) {
		case "key":
			hasKey = true
			v := s.SkipValue()
			if !v.Present() || s.Data()[v.Start] != '"' {
				hasKey = false
				pairsMayBe = false
			} else {
				pairID = s.Data()[v.Start:v.End]
				if want {
					pairKey = jsonscan.StringText(s.Data(), v)
				}
			}
			continue
		case "value":
			hasValue = true
		}
		s.SkipValue()
	}
	switch {
	case members == 1:
		return first, firstID, false, true
	case members == 2 && pairsMayBe && hasKey && hasValue:
		return pairKey, pairID, true, true
	}
	return nil, nil, false, false
}
