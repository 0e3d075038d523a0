package normalize

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
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
	field  int
	forms  [2]string
	kind   jsonscan.Kind
	effect string // what the record lacks for want of the key
}

var keyVariants = [...]keyVariant{
	{field: fieldMessages, forms: [2]string{"messages", "message"}, kind: jsonscan.Array,
		effect: "so the record has no messages and rich mode is off"},
	{field: fieldMetadata, forms: [2]string{"metadata", "metadatas"}, kind: jsonscan.Object,
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

// topLevel reads the result object's members again. It returns the value of the last
// "messages" key (the one that counts), found without decoding the rest (a final_response of
// megabytes is not copied for it), and notes the first key that is messages or metadata spelled
// another way (Messages, message, meta_data, metaData) when the key itself is absent: rule 4
// ignores unknown keys without a warning, which leaves a porter with no rich mode and no idea why.
func topLevel(r *Result, n *noteList) jsonscan.Span {
	var s jsonscan.Scanner
	s.Reset(r.s.Data(), r.s.MaxDepth())
	var last jsonscan.Span
	if s.Peek() != jsonscan.Object {
		return last
	}
	n.startRun()
	var done [len(keyVariants)]bool
	for i, v := range keyVariants {
		done[i] = r.fields[v.field].count > 0 // the key itself is there: a variant is something else
	}
	var transcript transcriptKey
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := s.KeyName()
		isMessages := string(name) == "messages"
		kind := s.Peek()
		v := s.SkipValue()
		if isMessages {
			last = v
			continue
		}
		transcript.see(r.s.Data(), name, kind, v, r.s.MaxDepth())
		for i := range keyVariants {
			kv := &keyVariants[i]
			if done[i] || kind != kv.kind {
				continue
			}
			if how, ok := kv.matches(name); ok {
				done[i] = true
				if n.take() {
					n.add(v.Start, variantNote(name, kv, how))
				}
			}
		}
	}
	// A transcript under another name, when nothing else holds one: no "messages", and no
	// variant of it noted (done says either).
	if transcript.at > 0 && !done[0] {
		n.startRun()
		if n.take() {
			n.add(transcript.at, transcript.note())
		}
	}
	return last
}

// variantNote is the note on name, a variant of kv's key.
func variantNote(name []byte, kv *keyVariant, how string) softwarn.Warning {
	if len(name) > softwarn.MaxKeyShown+4 { // the key is shown cut: copy no more of it
		name = name[:softwarn.MaxKeyShown+4]
	}
	want := fieldNames[kv.field]
	return softwarn.At(string(name)).Warning(softwarn.TopLevelKeyVariant, softwarn.Dropped, softwarn.Parts{
		Found:    "the key " + softwarn.QuoteKey(string(name)) + " holding " + kv.kind.Describe(),
		Expected: `"` + want + `" (` + how + `)`,
		Done:     "it was dropped with the other unknown keys, " + kv.effect,
		Fix:      `rename it "` + want + `"`})
}
