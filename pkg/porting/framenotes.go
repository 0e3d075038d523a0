package porting

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Transcripts of other agent frameworks. A porter who returns another framework's messages sends
// messages the contract drops (rule 8: no role, or a role out of the set) or keeps without their
// text ("parts"). The warning says the message was dropped; the explain view adds one note at
// messages[i] that names the shape and the messages to send instead. The shapes, with the
// frameworks' own field names as they serialize, are the sources' tables: messages (a dropped
// message), texts (a kept one whose text is in another member), parts (what a part's members
// say of it), entryKeys and entryTypes (what marks a transcript's entries).

// partKinds is the set of kinds found among a message's "parts". Each source's file names the
// bits of its own kinds (TestSourceTables: no two sources' bits overlap); pkText is any
// source's part that holds text.
type partKinds uint16

// pkText is set for a part that holds text.
const pkText partKinds = 1 << 4

// readParts reads the "parts" value at v: whether it is an array, and the kinds of its parts, by
// the sources' part members (partMembers).
func (w *messageWalk) readParts(v jsonscan.Span) (bool, partKinds) {
	var s jsonscan.Scanner
	data := w.scanner(&s, v)
	if s.Peek() != jsonscan.Array {
		return false, 0
	}
	var kinds partKinds
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			key := s.KeyName()
			k := s.Peek()
			v := s.SkipValue()
			for _, p := range partMembers {
				if p.key != string(key) || p.kind != k {
					continue
				}
				kinds |= p.set
				if p.of != nil {
					kinds |= p.of(jsonscan.StringText(data, v))
				}
			}
		}
	}
	return true, kinds
}

// foreignFacts is what the notes need of a dropped message; the last value of each key counts.
type foreignFacts struct {
	start    int
	role     jsonscan.Span // the string token, absent when missing, null or not a string
	noRole   bool          // missing or null
	typ      jsonscan.Span // "type", a string token
	source   jsonscan.Span // "source", a string token
	kind     jsonscan.Span // "kind", a string token
	parts    bool          // "parts" is an array
	kinds    partKinds
	data     bool          // "data" is an object (langchain.go's messages_to_dict)
	step     bool          // "step_number" is a number
	stepOut  bool          // "model_output", "observations" or "tool_calls" beside it (readDropped reads the last)
	object   jsonscan.Span // "object", a string token
	choices  bool          // "choices" is an array
	other    bool          // a member that is not one of a chat stream delta's (isDeltaKey)
	kwargs   bool          // "kwargs" is an object
	classID  jsonscan.Span // "id" when it is an array (a serialized class's path)
	stepNum  bool          // "stepNumber" is a number
	rawItem  bool          // "rawItem" or "raw_item" is an object
	rawCamel bool          // and is spelled "rawItem"
	raw      bool          // "raw" is a string (crewai.go's TaskOutput)
	agent    bool          // "agent" is a string
	expected bool          // "expected_output" or "description" is present
	history  bool          // "messages" is an array that is not empty
}

// noteForeign notes dropped message i, whose facts are f, when it is in the shape of another
// framework's message. The note is built only when it is listed: a transcript of a million
// dropped messages is counted past the limit, not written out.
func (w *messageWalk) noteForeign(n *noteRun, i int, f *foreignFacts) {
	if shape := w.messageShapeOf(f); shape != nil && n.take() {
		n.add(f.start, messageAt(i).Warning(shape.code, softwarn.Dropped, shape.note(w, *f)))
	}
}

// messageShapeOf is the sources' message shape f is in, of the lowest rank among those it
// matches; nil when none, or when the message's own warning says all there is (a role out of
// the set, which no shape of a message without a role matches).
func (w *messageWalk) messageShapeOf(f *foreignFacts) *messageShape {
	var best *messageShape
	for _, s := range sources {
		for j := range s.messages {
			if sh := &s.messages[j]; (best == nil || sh.rank < best.rank) && sh.is(w, *f) {
				best = sh
			}
		}
	}
	return best
}

// readForeign reads the value v of member key of a dropped message into f.
func (w *messageWalk) readForeign(key []byte, v jsonscan.Span, f *foreignFacts) {
	if string(key) == "parts" {
		f.parts, f.kinds = w.readParts(v)
		return
	}
	k := kindOf(w.data[v.Start:v.End])
	switch string(key) {
	case "role":
		f.role, f.noRole = w.stringAt(v), k == jsonscan.Null
	case "type":
		f.typ = w.stringAt(v)
	case "source":
		f.source = w.stringAt(v)
	case "kind":
		f.kind = w.stringAt(v)
	case "data":
		f.data = k == jsonscan.Object
	case "step_number":
		f.step = k == jsonscan.Number
	case "model_output", "observations":
		f.stepOut = true
	case "object":
		f.object = w.stringAt(v)
	case "choices":
		f.choices = k == jsonscan.Array
	case "kwargs":
		f.kwargs = k == jsonscan.Object
	case "id":
		if k == jsonscan.Array {
			f.classID = v
		}
	case "stepNumber":
		f.stepNum = k == jsonscan.Number
	case "rawItem", "raw_item":
		f.rawItem, f.rawCamel = k == jsonscan.Object, string(key) == "rawItem"
	case "raw":
		f.raw = k == jsonscan.String
	case "agent":
		f.agent = k == jsonscan.String
	case "expected_output", "description":
		f.expected = true
	case "messages":
		f.history = textKind(w.data[v.Start:v.End]) == jsonscan.Array
	}
}

// text is the text of the string token sp, or "" when it is absent or longer than any value
// the notes look for (a hostile value of megabytes is not copied for them).
func (w *messageWalk) text(sp jsonscan.Span) string { return string(w.shortText(sp)) }

// shortText is text without the copy, for comparing: shortToken's, for tokens of at most 66
// bytes.
func (w *messageWalk) shortText(sp jsonscan.Span) []byte {
	if !sp.Present() {
		return nil
	}
	return shortToken(w.data[sp.Start:sp.End], 67)
}

// noteParts notes kept message i, just read, when it has no "content" and a source holds its
// text in another member (textShape): the record keeps it, but the trace shows it without its
// text.
func (w *messageWalk) noteParts(n *noteRun, i int) {
	m := &w.msg
	if m.hasContent {
		return
	}
	for _, s := range sources {
		for _, t := range s.texts {
			if !t.is(m) {
				continue
			}
			if n.take() {
				n.add(m.start, messageAt(i).Warning(t.code, softwarn.Kept, t.note(m)))
			}
			return
		}
	}
}

// textNotShown is what was done about a message whose text is not in "content".
const textNotShown = "the message was kept, but the trace shows it without its text"

// The top-level keys a porter sends a transcript under instead of "messages" are the sources'
// transcripts (transcriptNames), each with whose name it is. Rule 4 ignores them silently: the
// explain view notes the first that holds an array of objects in the shape of messages
// (holdsMessages), when the result has no "messages" (nor a variant of it, which has a note of
// its own). The list is short on purpose: each name is one that a framework gives to the
// transcript a porter has in hand.

// transcriptKey is the first top-level key of transcriptNames that holds an array of messages.
type transcriptKey struct {
	at  int // where its value starts; 0 when none was found
	key *transcriptName
}

// see looks at the top-level member name, whose value of kind k is at v.
func (t *transcriptKey) see(data, name []byte, k jsonscan.Kind, v jsonscan.Span, depth int) {
	if t.at > 0 || k != jsonscan.Array {
		return
	}
	for i := range transcriptNames {
		if key := &transcriptNames[i]; string(name) == key.key {
			if holdsMessages(data[v.Start:v.End], depth) {
				t.at, t.key = v.Start, key
			}
			return
		}
	}
}

// transcriptEntries is how many entries of an array holdsMessages looks at.
const transcriptEntries = 8

// holdsMessages is whether the array arr holds objects in the shape of messages: one of its first
// entries has a key of a source's entryKeys, or a "type" of its entryTypes. An array of the
// application's own records ({"name", "status"}) under a name such as "steps" or "history" is
// no transcript, and is not noted.
func holdsMessages(arr []byte, depth int) bool {
	var s jsonscan.Scanner
	s.Reset(arr, depth)
	n := 0
	for ok := s.ArrayStart(); ok && n < transcriptEntries; ok = s.ArrayNext() {
		n++
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			key := s.KeyName()
			v := s.SkipValue()
			if string(key) == "type" && v.Present() && arr[v.Start] == '"' && hasBytes(entryTypes, jsonscan.StringText(arr, v)) {
				return true
			}
			if hasBytes(entryKeys, key) {
				return true
			}
		}
	}
	return false
}

// note is the note on the key.
func (t *transcriptKey) note() softwarn.Warning {
	name, from := t.key.key, ""
	if t.key.origin != "" {
		from = `, and "` + name + `" is ` + t.key.origin
	}
	send := `if it holds the run's transcript, send it as "messages", each entry a chat message {"role": "system", "user", "assistant" or "tool", "content": ...}`
	if t.key.fix != "" {
		send = t.key.fix
	}
	return softwarn.At(name).Warning(t.key.code, softwarn.Dropped, softwarn.Parts{
		Found:    `the key "` + name + `" holding an array of objects`,
		Expected: `"messages" (the platform reads a transcript only from "messages"` + from + `)`,
		Done:     "it was dropped with the other unknown keys, so the record has no messages and rich mode is off",
		Fix:      send})
}

// hasBytes is whether b is one of list, without a copy of b.
func hasBytes(list []string, b []byte) bool {
	for _, l := range list {
		if string(b) == l {
			return true
		}
	}
	return false
}
