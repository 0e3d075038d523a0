package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// foldsTo reports whether name is want spelled another way: without the separators '_', '-'
// and ' ' and in lower case (ASCII), name is want, which is written that way. It finds the keys
// a sender meant but wrote in another case or style (Final_Response, finalResponse,
// meta-data), without allocating.
func foldsTo(name []byte, want string) bool {
	n := 0
	for _, c := range name {
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if n >= len(want) || c != want[n] {
			return false
		}
		n++
	}
	return n == len(want)
}

// keyVariant is a top-level key of the record that a sender may spell another way, with the
// forms foldsTo matches (the key and its singular or plural) and the kind of value a variant
// must hold to be noted: under another kind it is something else by that name (a status
// "message" string), not the key misspelt.
type keyVariant struct {
	key    string // the record's key
	forms  [2]string
	kind   jsonscan.Kind
	effect string // what the record lacks for want of the key
}

var keyVariants = [...]keyVariant{
	{key: "messages", forms: [2]string{"messages", "message"}, kind: jsonscan.Array,
		effect: "so the record has no messages and rich mode is off"},
	{key: "metadata", forms: [2]string{"metadata", "metadatas"}, kind: jsonscan.Object,
		effect: "so the record has no metadata"},
}

// matches says whether name is a variant of the key, and how it differs, for the note.
func (v *keyVariant) matches(name []byte) (how string, ok bool) {
	switch {
	case foldsTo(name, v.forms[0]):
		return "keys are matched exactly, case and separators included", true
	case foldsTo(name, v.forms[1]):
		return "keys are matched exactly", true
	}
	return "", false
}

// topKeys is what the notes on the result object's keys need of them: the first key that is
// messages or metadata spelled another way (Messages, message, meta_data, metaData), noted when
// the key itself is absent (rule 4 ignores unknown keys without a warning, which leaves a
// porter with no rich mode and no idea why), and a transcript under another name, noted when
// nothing else holds one.
type topKeys struct {
	variants   [len(keyVariants)]variantSeen
	transcript transcriptKey
}

// variantSeen is the first key that is a variant of a keyVariant.
type variantSeen struct {
	name []byte // cut as the note shows it
	at   int    // where its value starts
	how  string
}

// see looks at the top-level member name, whose value is at val.
func (t *topKeys) see(v normalize.View, name []byte, val normalize.Span) {
	if string(name) == "messages" {
		return
	}
	data := v.Input()
	kind := kindOf(data[val.Start:val.End])
	t.transcript.see(data, name, kind, val, v.MaxDepth())
	for i := range keyVariants {
		kv, seen := &keyVariants[i], &t.variants[i]
		if seen.name != nil || kind != kv.kind {
			continue
		}
		if how, ok := kv.matches(name); ok {
			if len(name) > softwarn.MaxKeyShown+4 { // the key is shown cut: copy no more of it
				name = name[:softwarn.MaxKeyShown+4]
			}
			*seen = variantSeen{name: append([]byte{}, name...), at: val.Start, how: how}
		}
	}
}

// before reports whether v was seen, and before o or o was not.
func (v *variantSeen) before(o *variantSeen) bool {
	return v.name != nil && (o.name == nil || v.at < o.at)
}

// note gives the notes on the keys, once the result object is read: the variants of the keys
// the object lacks, in input order, into variants, and the transcript key into transcript.
func (t *topKeys) note(v normalize.View, variants, transcript *noteRun) {
	var order [len(keyVariants)]int
	for i := range order { // a few: an insertion sort by the place of the variant
		order[i] = i
		for j := i; j > 0 && t.variants[order[j]].before(&t.variants[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		kv, seen := &keyVariants[i], &t.variants[i]
		if seen.name != nil && v.Count(kv.key) == 0 && variants.take() {
			variants.add(seen.at, variantNote(seen.name, kv, seen.how))
		}
	}
	// A transcript under another name, when nothing else holds one: no "messages", and no
	// variant of it.
	if t.transcript.at > 0 && v.Count("messages") == 0 && t.variants[0].name == nil && transcript.take() {
		transcript.add(t.transcript.at, t.transcript.note())
	}
}

// variantNote is the note on name, a variant of kv's key.
func variantNote(name []byte, kv *keyVariant, how string) softwarn.Warning {
	want := kv.key
	return softwarn.At(string(name)).Warning(softwarn.TopLevelKeyVariant, softwarn.Dropped, softwarn.Parts{
		Found:    "the key " + softwarn.QuoteKey(string(name)) + " holding " + kv.kind.Describe(),
		Expected: `"` + want + `" (` + how + `)`,
		Done:     "it was dropped with the other unknown keys, " + kv.effect,
		Fix:      `rename it "` + want + `"`})
}
