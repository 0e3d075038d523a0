package porting

import (
	"bytes"
	"hash/maphash"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// maxDroppedIDs bounds the ids of dropped messages that the explain walk indexes: about 80
// bytes each in the map, 320 KiB at most (measured), however many messages a transcript drops.
// An id first met past it is not indexed, and a note on its partner says what it says without
// the index.
const maxDroppedIDs = 4096

// droppedLink is what dropped messages say about one tool-call id: the record has neither its
// call nor its answer, but a note on a kept partner can name the dropped message, whose warning
// gives the real cause, rather than ask for a message the porter did send.
type droppedLink struct {
	id     jsonscan.Span32 // one string token of the id in the messages array, to tell a hash collision
	call   int32           // the last dropped message with a tool call of this id, or -1
	index  int32           // that call's index in its tool_calls
	answer int32           // the last dropped message whose tool_call_id is this id, or -1
}

// readDropped reads dropped message m, from its members: for the ids that link it to kept
// messages, its tool_call_id (or, without one, a source's other name for it: answerLinks, as a
// result block of another API sent as a message has, which its warning says how to convert) and
// the ids of its tool calls; and for another framework's shape, which it notes. Each key's last value counts, as in the record.
func (w *messageWalk) readDropped(m normalize.InputMessage, n *noteRun) {
	i := m.Index
	f := foreignFacts{start: m.Span.Start, noRole: true}
	var callID, useID, content jsonscan.Span
	o := m.Members
	for j := range o.Len() {
		v, key := o.Value(j), o.Name(j)
		if !isDeltaKey(key) {
			f.other = true
		}
		switch string(key) {
		case "content":
			content = v
		case "tool_call_id":
			callID = w.stringAt(v)
		case "tool_calls":
			f.stepOut = true // a memory step's, beside "step_number" (smolagents.go)
			w.readDroppedCalls(v, i)
		default:
			if answerLinkOf(key) >= 0 { // the last one counts, as tool_call_id's
				useID = w.stringAt(v)
				continue
			}
			w.readForeign(key, v, &f)
		}
	}
	if !callID.Present() {
		callID = useID
	}
	if callID.Present() {
		w.linkDropped(callID, func(l *droppedLink) { l.answer = int32(i) })
	}
	w.noteForeign(n, i, &f)
	w.noteToolOutput(n, i, &f, content)
}

// noteToolOutput notes dropped tool message i, whose facts are f, when its content, at sp, is
// an object in a source's shape of a tool's output (outputShape) sent whole. The note is built
// only when it is listed.
func (w *messageWalk) noteToolOutput(n *noteRun, i int, f *foreignFacts, sp jsonscan.Span) {
	if !sp.Present() || w.data[sp.Start] != '{' || string(w.shortText(f.role)) != "tool" {
		return
	}
	obj, depth := w.data[sp.Start:sp.End], w.v.MaxDepth()
	for _, s := range sources {
		for _, o := range s.outputs {
			facts, ok := o.read(obj, depth)
			if !ok {
				continue
			}
			if n.take() {
				n.add(sp.Start, messageAt(i).Key("content").Warning(o.code, softwarn.Dropped, o.note(facts)))
			}
			return
		}
	}
}

// readDroppedCalls reads the tool_calls value of dropped message i, at v: the calls' ids,
// wherever a call fails.
func (w *messageWalk) readDroppedCalls(v jsonscan.Span, i int) {
	var s jsonscan.Scanner
	data := w.scanner(&s, v)
	if s.Peek() != jsonscan.Array {
		return
	}
	j := 0
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			j++
			continue
		}
		var id jsonscan.Span
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			isID := string(s.KeyName()) == "id"
			if sv := stringIn(data, s.SkipValue()); isID {
				id = sv // the last id counts, as in the record
			}
		}
		if id.Present() {
			id = jsonscan.Span{Start: v.Start + id.Start, End: v.Start + id.End}
			index := int32(j)
			w.linkDropped(id, func(l *droppedLink) { l.call, l.index = int32(i), index })
		}
		j++
	}
}

// linkDropped updates the link of the id whose string token is at id in the messages array,
// adding it while fewer than maxDroppedIDs are indexed.
func (w *messageWalk) linkDropped(id jsonscan.Span, set func(*droppedLink)) {
	text := jsonscan.StringText(w.data, id)
	h := maphash.Bytes(w.seed, text)
	l, ok := w.dropped[h]
	switch {
	case ok && !bytes.Equal(jsonscan.StringText(w.data, l.id.Unpack()), text):
		return // a hash collision: the first id keeps the place
	case !ok && len(w.dropped) >= maxDroppedIDs:
		return
	case !ok:
		if w.dropped == nil {
			w.dropped = map[uint64]droppedLink{}
		}
		l = droppedLink{id: id.Pack(), call: -1, answer: -1}
	}
	set(&l)
	w.dropped[h] = l
}

// droppedLinkOf is what dropped messages say about id, if any does.
func (w *messageWalk) droppedLinkOf(id []byte) (droppedLink, bool) {
	if len(w.dropped) == 0 {
		return droppedLink{}, false
	}
	l, ok := w.dropped[maphash.Bytes(w.seed, id)]
	if !ok || !bytes.Equal(jsonscan.StringText(w.data, l.id.Unpack()), id) {
		return droppedLink{}, false
	}
	return l, true
}

// noteAnswersDropped notes kept tool message i, whose tool_call_id (the token tok) is the id of
// a call in a message that was dropped before it; false when no dropped message has that call.
func (w *messageWalk) noteAnswersDropped(n *noteRun, i int, id []byte, tok jsonscan.Span) bool {
	l, ok := w.droppedLinkOf(id)
	if !ok || l.call < 0 {
		return false
	}
	if n.take() {
		dropped := messageAt(int(l.call))
		n.add(tok.Start, messageAt(i).Key("tool_call_id").Warning(softwarn.ToolResultUnmatched, softwarn.Kept, softwarn.Parts{
			Problem: "tool_call_id " + jsonscan.ShortToken(tokenText(w.data, tok)) + " is the id of the tool call at " + dropped.Key("tool_calls").Index(int(l.index)).Path() +
				", but " + dropped.Path() + " was dropped (see its warning), so the trace cannot link this result to its call",
			Fix: "make " + dropped.Path() + " valid as its warning says, and this result will link to its call"}))
	}
	return true
}

// answeredByDropped is the dropped message after kept message msg that answers id, the id of
// one of its calls; false when there is none.
func (w *messageWalk) answeredByDropped(id []byte, msg int32) (int, bool) {
	l, ok := w.droppedLinkOf(id)
	if !ok || l.answer <= msg {
		return 0, false
	}
	return int(l.answer), true
}
