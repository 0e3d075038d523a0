package normalize

import (
	"strings"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// metaKey is a recognised metadata key (schemas/metadata.schema.json), with the other SDKs'
// names a porter may send it under and the kind of value a key by another name must hold to be
// noted: under another kind it is something else by that name, not the key.
type metaKey struct {
	name   string // as the platform reads it
	folded string // name as foldsTo wants it: lower case, no separators
	kind   jsonscan.Kind
	others []otherName
	lacks  string // what the run is shown without, for want of the key
}

// otherName is another SDK's name for a recognised key.
type otherName struct {
	name, folded string
	origin       string // whose name it is
}

var metaKeys = [...]metaKey{
	{name: "model", folded: "model", kind: jsonscan.String, lacks: "a model",
		others: []otherName{{"model_name", "modelname", "LangChain's name for the model, in response_metadata"}}},
	{name: "system_prompt_id", folded: "systempromptid", kind: jsonscan.String, lacks: "a system prompt id"},
	{name: "total_input_tokens", folded: "totalinputtokens", kind: jsonscan.Number, lacks: "an input token count",
		others: []otherName{
			{"input_tokens", "inputtokens", "Anthropic's and OpenAI Responses' name for the count"},
			{"prompt_tokens", "prompttokens", "OpenAI Chat Completions' name for the count"},
		}},
	{name: "total_output_tokens", folded: "totaloutputtokens", kind: jsonscan.Number, lacks: "an output token count",
		others: []otherName{
			{"output_tokens", "outputtokens", "Anthropic's and OpenAI Responses' name for the count"},
			{"completion_tokens", "completiontokens", "OpenAI Chat Completions' name for the count"},
		}},
	{name: "agent_runtime_ms", folded: "agentruntimems", kind: jsonscan.Number, lacks: "an agent runtime"},
}

// The token counts, by their index in metaKeys: what a usage object can supply.
const (
	metaInputTokens  = 2
	metaOutputTokens = 3
)

// usageKeys are the keys SDKs keep their token counts under (OpenAI's and Anthropic's usage,
// LangChain's usage_metadata and token_usage), as foldsTo wants them.
var usageKeys = [...]string{"usage", "usagemetadata", "tokenusage"}

// matches says whether name, not the key itself, is another name for k, and how, for the note.
func (k *metaKey) matches(name []byte) (how string, ok bool) {
	if foldsTo(name, k.folded) {
		return "(keys are matched exactly, case and separators included)", true
	}
	for _, o := range k.others {
		switch {
		case string(name) == o.name:
			return "(" + o.origin + ")", true
		case foldsTo(name, o.folded):
			return "(a spelling of " + o.name + ", " + o.origin + ")", true
		}
	}
	return "", false
}

// metadataNotes notes the metadata keys that mean a recognised key but are read as ordinary
// ones, kept as sent without a check or a warning, so that the run is shown without what they
// hold: another SDK's name for a recognised key (input_tokens, prompt_tokens, model_name), the
// key spelled another way (Model, totalInputTokens, agent-runtime-ms), and token counts under a
// usage object. Only for a recognised key the metadata lacks: when it is there, the porter sends
// it already and the others are data. One note per recognised key, on its first other name in
// input order (a rename makes the key present: one note per name would have the porter send
// it twice); a usage object supplies only the counts no other name did (a rename is the simpler
// fix). It reads the members the record kept (the last metadata, each key's last value,
// unescaped), so a duplicated or escaped key is judged as the record has it; no metadata
// object, no notes.
func metadataNotes(r *Result, n *noteList) {
	m := &r.meta
	if m.kind != jsonscan.Object {
		return
	}
	data := r.s.Data()
	var covered [len(metaKeys)]bool
	for i := range m.members.List {
		for k := range metaKeys {
			covered[k] = covered[k] || string(m.members.Name(data, i)) == metaKeys[k].name
		}
	}
	var notes []placedNote
	for i := range m.members.List {
		if w, ok := otherNameNote(m, data, i, &covered); ok {
			notes = append(notes, placedNote{at: m.members.List[i].Key().Start, w: w})
		}
	}
	for i := range m.members.List {
		if w, ok := usageNote(m, data, i, r.s.MaxDepth(), &covered); ok {
			notes = append(notes, placedNote{at: m.members.List[i].Key().Start, w: w})
		}
	}
	for j := 1; j < len(notes); j++ { // at most a few: an insertion sort into input order
		for l := j; l > 0 && notes[l].at < notes[l-1].at; l-- {
			notes[l], notes[l-1] = notes[l-1], notes[l]
		}
	}
	n.startRun()
	for _, p := range notes {
		if n.take() {
			n.add(p.at, p.w)
		}
	}
}

// otherNameNote is the note on metadata member i when it is another name for a recognised key
// not yet covered, and holds what that key would.
func otherNameNote(m *metadata, data []byte, i int, covered *[len(metaKeys)]bool) (softwarn.Warning, bool) {
	v := m.members.List[i].Value()
	if !v.Present() { // a recognised key that failed its check
		return softwarn.Warning{}, false
	}
	name, kind := m.members.Name(data, i), kindOf(data[v.Start:v.End])
	for k := range metaKeys {
		key := &metaKeys[k]
		if covered[k] || kind != key.kind {
			continue
		}
		if how, ok := key.matches(name); ok {
			covered[k] = true
			name = shownKey(name)
			return softwarn.At("metadata").Key(string(name)).Warn(softwarn.MetadataKeyVariant, softwarn.Kept,
				"found the key "+softwarn.QuoteKey(string(name))+" holding "+kind.Describe()+`, expected "`+key.name+`" `+how+
					"; it was kept as an ordinary key, stored as sent and not checked, so the run is shown without "+key.lacks+
					`; rename it "`+key.name+`"`+failsCheck(data, key, v)), true
		}
	}
	return softwarn.Warning{}, false
}

// failsCheck says what the key's check will find once the key is renamed, when the value fails
// it (output_tokens: -1), so that the porter fixes both at once; the check's own words, without
// what it did ("the key was dropped"), which has not happened yet.
func failsCheck(data []byte, key *metaKey, v jsonscan.Span) string {
	reason := checkMetadata(data, []byte(key.name), v)
	if reason == "" {
		return ""
	}
	found, _, _ := strings.Cut(reason, "; the key was dropped")
	return "; its value would then be dropped: " + found
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
// recognised keys not yet covered: the platform reads no counts inside it.
func usageNote(m *metadata, data []byte, i, depth int, covered *[len(metaKeys)]bool) (softwarn.Warning, bool) {
	v := m.members.List[i].Value()
	name := m.members.Name(data, i)
	if !v.Present() || data[v.Start] != '{' || !isUsageKey(name) {
		return softwarn.Warning{}, false
	}
	var found, want, copies, lacks string
	n := 0
	for k, count := range usageCounts(data[v.Start:v.End], depth, covered) {
		if count == nil {
			continue
		}
		covered[k] = true
		q, w := softwarn.QuoteKey(string(shownKey(count))), `"`+metaKeys[k].name+`"`
		if n > 0 {
			found, want, copies = found+" and ", want+" and ", copies+", "
		}
		found, want, copies, lacks = found+q, want+w, copies+q+" to "+w, metaKeys[k].lacks
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
	return softwarn.At("metadata").Key(string(name)).Warn(softwarn.MetadataKeyVariant, softwarn.Kept,
		"found "+found+" under "+u+", expected "+want+" in metadata itself (the platform reads no counts inside "+u+
			"); "+u+" was kept as an ordinary key, stored as sent, so the run is shown without "+lacks+
			"; copy the run's "+total+" to metadata's own "+keys+": "+copies), true
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
// the key of the first member that holds it as a number, unescaped (nil when none does). As
// in Python, a repeated key's last value counts.
func usageCounts(obj []byte, depth int, covered *[len(metaKeys)]bool) [len(metaKeys)][]byte {
	var keys [len(metaKeys)][]byte
	var isNumber [len(metaKeys)]bool
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
		number := s.Peek() == jsonscan.Number
		s.SkipValue()
		for _, k := range [...]int{metaInputTokens, metaOutputTokens} {
			switch {
			case covered[k]:
			case keys[k] != nil && string(keys[k]) == string(name):
				isNumber[k] = number
			case keys[k] == nil && number:
				if _, ok := metaKeys[k].matches(name); ok {
					keys[k], isNumber[k] = name, true
				}
			}
		}
	}
	for k := range keys {
		if !isNumber[k] || s.Err() != nil {
			keys[k] = nil
		}
	}
	return keys
}
