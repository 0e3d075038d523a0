package porting

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// Notes starts the explain view's notes on one result (normalize.Advisor). It is the human path, not the hot one:
// it is told what Normalize reads as it reads it (the result object's members, the messages
// with their members, the kept tool calls) and looks inside a value only where a note depends
// on what the contract does not read (a content list's blocks, a call's other arguments key),
// keeping a few bytes per tool call and decoding nothing; it lists at most as many notes as
// warnings (the rest are counted), so that explain on a hostile transcript stays within a
// small multiple of the input.
func (advisor) Notes(v normalize.View) normalize.Notes {
	l := &linter{v: v}
	for _, r := range l.runs() {
		r.limit = v.WarningLimit()
	}
	l.walk.begin(v)
	return l
}

// linter finds the notes on one result.
type linter struct {
	v                                                   normalize.View
	final, meta, variants, transcript, msgs, unanswered noteRun
	top                                                 topKeys
	walk                                                messageWalk
}

// runs are the linter's runs, in the order closeRuns merges them.
func (l *linter) runs() []*noteRun {
	return []*noteRun{&l.final, &l.meta, &l.variants, &l.transcript, &l.msgs, &l.unanswered}
}

func (l *linter) Member(name []byte, value normalize.Span) { l.top.see(l.v, name, value) }

func (l *linter) MessagesBegin() {
	l.msgs.reset()
	l.walk.begin(l.v)
}

func (l *linter) Message(m normalize.InputMessage) { l.walk.message(m, &l.msgs) }

func (l *linter) End() []softwarn.Warning {
	if l.v.FinalKind() == jsonscan.String && !l.v.Truncated() {
		finalNotes(l.v, &l.final)
	}
	metadataNotes(l.v, &l.meta)
	l.top.note(l.v, &l.variants, &l.transcript)
	l.walk.noteUnanswered(&l.unanswered)
	return closeRuns(l.v.WarningLimit(), l.runs()...)
}

// messageWalk is one pass over the View's messages for the notes. The tool calls are the
// record's (View.Call), in the order the walk meets them; the walk keeps where each is, whether
// it is answered, and a hash of its id: about 20 bytes a call, for there may be a million.
type messageWalk struct {
	v        normalize.View
	data     []byte                 // the input
	owners   []owner                // the kept messages with calls, in order: where kept call k is
	answered []answer               // what answers kept call k
	byID     map[uint64]int32       // call by a hash of its id; the last call with an id wins
	byFolded map[uint64]int32       // first call by a hash of its id folded, once an id is unmatched
	dropped  map[uint64]droppedLink // the ids of dropped messages by their hash, at most maxDroppedIDs
	seed     maphash.Seed
	msg      messageFacts
}

// owner is a kept message with tool calls: its index in the input, and its first call's in
// the View.
type owner struct{ msg, first int32 }

// callRef is where a kept tool call is: message and index in the input.
type callRef struct{ msg, index int32 }

// call is where kept call k is.
func (w *messageWalk) call(k int) callRef {
	i, _ := slices.BinarySearchFunc(w.owners, int32(k), func(o owner, k int32) int { return cmp.Compare(o.first, k) })
	if i == len(w.owners) || w.owners[i].first > int32(k) {
		i-- // the last owner whose first call is before k
	}
	o := w.owners[i]
	return callRef{msg: o.msg, index: int32(k) - o.first}
}

// answer is what answers a kept tool call.
type answer uint8

const (
	unanswered answer = iota
	answered          // a tool message whose tool_call_id is the call's id
	// meant: a tool message that means to answer it but does not link, its id in another
	// case or under tool_use_id. That message's note says what to change; a note on the call
	// asking for another tool message would have the porter send two.
	meant
)

// messageFacts is what the notes need of one message; its last value of each key counts, as
// in the record. Offsets are in the input.
type messageFacts struct {
	start      int // where the message starts
	isTool     bool
	toolCallID jsonscan.Span // the string token, absent when missing or null
	toolUseID  jsonscan.Span // a source's other name for it (answerLinks): the string token, or absent
	link       int           // which of answerLinks toolUseID is under
	legacy     *legacyMember // a source's legacy member of a call, present and not null
	legacyAt   int
	contentAt  int
	blocks     [maxBlockShapes]int // in content, by their shape in blockShapes
	calls      int                 // in its last tool_calls
	otherArgs  []otherArgs         // the calls whose arguments are under another key: few
	hasContent bool                // content present and not null
	parts      bool                // "parts" is an array
	partKinds  partKinds
	blockList  bool // "blocks" is an array that is not empty
	role       []byte
	hasCalls   bool             // tool_calls present and not null
	hasCallID  bool             // tool_call_id present and not null
	keptAt     [2]keptCandidate // members some source's keptShape may be in, the first two
	kept       int
}

// keptCandidate is a member of a kept message of a name some source's keptShape reads.
type keptCandidate struct {
	name  []byte
	value jsonscan.Span
	shape *keptShape // once note has looked it up
}

// otherArgs is a call whose arguments are under args, input or parameters, not arguments.
type otherArgs struct {
	index, at int
	key       string
}

// begin starts the walk of a messages value.
func (w *messageWalk) begin(v normalize.View) {
	w.v, w.data, w.seed = v, v.Input(), maphash.MakeSeed()
	w.owners, w.answered = w.owners[:0], w.answered[:0]
	w.byID, w.byFolded, w.dropped = map[uint64]int32{}, nil, nil
}

// message gives the notes of message m, just read.
func (w *messageWalk) message(m normalize.InputMessage, n *noteRun) {
	if !m.Kept {
		w.readDropped(m, n)
		return
	}
	w.read(m)
	w.register(m)
	w.noteParts(n, m.Index)
	w.note(n, m.Index)
}

// register records the calls of kept message m, just read.
func (w *messageWalk) register(m normalize.InputMessage) {
	if m.Calls > 0 {
		w.owners = append(w.owners, owner{msg: int32(m.Index), first: int32(m.FirstCall)})
	}
	for j := range m.Calls {
		k := m.FirstCall + j
		w.answered = append(w.answered, unanswered)
		if id, ok := w.callID(k); ok {
			w.byID[maphash.Bytes(w.seed, id)] = int32(k)
			w.addFolded(k, id)
		}
	}
}

// callID is the text of kept call k's id, when it has one (a string).
func (w *messageWalk) callID(k int) ([]byte, bool) {
	data, sp := w.data, w.v.Call(k).ID
	if !sp.Present() || data[sp.Start] != '"' {
		return nil, false
	}
	return jsonscan.StringText(data, sp), true
}

// match is the earlier call whose id is id; false when there is none.
func (w *messageWalk) match(id []byte) (int, bool) {
	k, ok := w.byID[maphash.Bytes(w.seed, id)]
	if !ok {
		return 0, false
	}
	if theirs, _ := w.callID(int(k)); !bytes.Equal(theirs, id) {
		return 0, false // a hash collision
	}
	return int(k), true
}

// answer marks the call that id answers; false when no earlier call has that id.
func (w *messageWalk) answer(id []byte) bool {
	k, ok := w.match(id)
	if ok {
		w.answered[k] = answered
	}
	return ok
}

// mean marks call k (when k >= 0) as meant by a tool message that does not link to it.
func (w *messageWalk) mean(k int) {
	if k >= 0 && w.answered[k] == unanswered {
		w.answered[k] = meant
	}
}

// folded is an id in lower case without surrounding space, for "did you mean"; ids that are
// not valid UTF-8 (lone surrogates) are not folded.
func folded(id []byte) ([]byte, bool) {
	if !utf8.Valid(id) {
		return nil, false
	}
	return bytes.ToLower(bytes.TrimSpace(id)), true
}

// addFolded indexes call k by its folded id, once byFolded exists.
func (w *messageWalk) addFolded(k int, id []byte) {
	if w.byFolded == nil {
		return
	}
	if f, ok := folded(id); ok {
		h := maphash.Bytes(w.seed, f)
		if _, seen := w.byFolded[h]; !seen {
			w.byFolded[h] = int32(k)
		}
	}
}

// didYouMean suggests the id of an earlier call k that id matches but for case or surrounding
// space (k is -1 when there is none). The folded index is built the first time it is needed:
// most transcripts never do.
func (w *messageWalk) didYouMean(id []byte) (hint string, k int) {
	if w.byFolded == nil {
		w.byFolded = map[uint64]int32{}
		for k := range w.answered {
			if theirs, ok := w.callID(k); ok {
				w.addFolded(k, theirs)
			}
		}
	}
	f, ok := folded(id)
	if !ok {
		return "", -1
	}
	c, ok := w.byFolded[maphash.Bytes(w.seed, f)]
	if !ok {
		return "", -1
	}
	theirs, _ := w.callID(int(c))
	if g, _ := folded(theirs); bytes.Equal(theirs, id) || !bytes.Equal(f, g) {
		return "", -1
	}
	return "; did you mean " + jsonscan.ShortToken(tokenText(w.data, w.v.Call(int(c)).ID)) + "? ids are matched exactly", int(c)
}

// tokenText is the token at sp, as written.
func tokenText(data []byte, sp jsonscan.Span) string { return string(data[sp.Start:sp.End]) }

// noteUnanswered notes the calls no tool message answered, nor meant to.
func (w *messageWalk) noteUnanswered(n *noteRun) {
	data := w.data
	for k := range w.answered {
		if w.answered[k] != unanswered || !n.take() {
			continue
		}
		c := w.call(k)
		at := messageAt(int(c.msg)).Key("tool_calls").Index(int(c.index))
		call := w.v.Call(k)
		name := jsonscan.ShortToken(tokenText(data, call.Name))
		// Inside the call's object: after its start, where a note on its arguments' key is.
		where := int(call.Name.Start)
		if text, ok := w.callID(k); ok {
			id := jsonscan.ShortToken(tokenText(data, call.ID))
			if j, ok := w.answeredByDropped(text, c.msg); ok {
				n.add(min(where, int(call.ID.Start)), at.Warning(softwarn.ToolCallUnanswered, softwarn.Kept, softwarn.Parts{
					Problem: "tool call " + name + " (id " + id + ") is answered only by " + messageAt(j).Path() +
						", which was dropped (see its warning), so the trace shows this call unanswered",
					Fix: "make " + messageAt(j).Path() + " valid as its warning says, rather than adding another tool message"}))
				continue
			}
			n.add(min(where, int(call.ID.Start)), at.Warning(softwarn.ToolCallUnanswered, softwarn.Kept, softwarn.Parts{
				Problem: "tool call " + name + " (id " + id + ") has no tool message answering it",
				Fix:     "add {\"role\": \"tool\", \"tool_call_id\": " + id + ", \"content\": <the result>} after it"}))
			continue
		}
		n.add(where, at.Warning(softwarn.ToolCallUnanswered, softwarn.Kept, softwarn.Parts{
			Problem: "tool call " + name + " has no id, so no tool message can answer it",
			Fix:     "give it an id and answer it with {\"role\": \"tool\", \"tool_call_id\": <the id>, \"content\": ...}"}))
	}
}

// messageAt is where kept message i is; built only for a note.
func messageAt(i int) softwarn.Loc { return softwarn.At("messages").Index(i) }

// The parts of a message that notes concern, given in the order the message holds them.
const (
	partResult = iota
	partLegacy
	partContent
	partArguments
	partKept // a member in a source's keptShape (sources.go)
)

// note gives the notes of kept message i, whose facts were just read, in the order of the keys
// they concern.
func (w *messageWalk) note(n *noteRun, i int) {
	m := &w.msg
	var parts [4 + len(m.keptAt)]struct{ at, part int }
	k := 0
	add := func(at, part int) { parts[k] = struct{ at, part int }{at, part}; k++ }
	if m.isTool {
		add(w.resultAt(), partResult)
	}
	if m.legacy != nil {
		add(m.legacyAt, partLegacy)
	}
	if m.blocks != [maxBlockShapes]int{} {
		add(m.contentAt, partContent)
	}
	if len(m.otherArgs) > 0 {
		add(m.otherArgs[0].at, partArguments)
	}
	for j := range m.kept {
		c := &m.keptAt[j]
		if c.shape = w.keptShapeOf(c.name, w.keptMember(c.value)); c.shape != nil {
			add(c.value.Start, partKept)
		}
	}
	for j := 1; j < k; j++ { // at most six: an insertion sort
		for l := j; l > 0 && parts[l].at < parts[l-1].at; l-- {
			parts[l], parts[l-1] = parts[l-1], parts[l]
		}
	}
	for _, p := range parts[:k] {
		switch p.part {
		case partResult:
			w.noteResult(n, i)
		case partLegacy:
			w.noteLegacy(n, i)
		case partContent:
			w.noteContent(n, i)
		case partArguments:
			w.noteArguments(n, i)
		case partKept:
			w.noteKept(n, i, p.at)
		}
	}
}

// noteLegacy notes kept message i's legacy member (legacyMember).
func (w *messageWalk) noteLegacy(n *noteRun, i int) {
	if l := w.msg.legacy; n.take() {
		n.add(w.msg.legacyAt, messageAt(i).Key(l.member).Warning(l.code, softwarn.Kept, l.parts))
	}
}

// noteContent notes the content blocks of kept message i in a source's shape (blockShape).
func (w *messageWalk) noteContent(n *noteRun, i int) {
	m := &w.msg
	for j, b := range blockShapes {
		if m.blocks[j] > 0 && n.take() {
			n.add(m.contentAt, messageAt(i).Key("content").Warning(b.code, softwarn.Kept, softwarn.Parts{
				Problem: "holds " + plural(m.blocks[j], b.noun),
				Fix:     b.fix}))
		}
	}
}

// noteArguments notes the calls whose arguments are under another SDK's key. Rule 9 leaves
// that key out of the flat form, as the platform does, without a warning (the record must be
// the platform's, byte for byte): the note says so, with the action "dropped".
func (w *messageWalk) noteArguments(n *noteRun, i int) {
	for _, c := range w.msg.otherArgs {
		if n.take() {
			key := strconv.Quote(c.key)
			n.add(c.at, messageAt(i).Key("tool_calls").Index(c.index).Warning(softwarn.ToolCallArgumentsKey, softwarn.Dropped, softwarn.Parts{
				Problem: "has no \"arguments\" but has " + key + " (" + argumentsKeyOrigin(c.key) + "), which the flat form does not keep",
				Done:    "the arguments under " + key + " were dropped from the record, so the trace shows this call without arguments",
				Fix:     "rename the key " + key + " to \"arguments\""}))
		}
	}
}

// resultAt is where the note on a tool message's link to its call goes: its tool_call_id, its
// tool_use_id, or the message itself.
func (w *messageWalk) resultAt() int {
	switch m := &w.msg; {
	case m.toolCallID.Present():
		return m.toolCallID.Start
	case m.toolUseID.Present():
		return m.toolUseID.Start
	default:
		return m.start
	}
}

// noteResult links tool message i to the call it answers, or notes why it cannot be. A call
// that the message means but does not link to gets no note of its own (see meant).
func (w *messageWalk) noteResult(n *noteRun, i int) {
	m := &w.msg
	switch {
	case m.toolCallID.Present():
		id := jsonscan.StringText(w.data, m.toolCallID)
		if w.answer(id) || w.noteAnswersDropped(n, i, id, m.toolCallID) {
			return
		}
		hint, k := w.didYouMean(id)
		w.mean(k)
		if n.take() {
			n.add(m.toolCallID.Start, messageAt(i).Key("tool_call_id").Warning(softwarn.ToolResultUnmatched, softwarn.Kept, softwarn.Parts{
				Problem: "tool_call_id " + jsonscan.ShortToken(tokenText(w.data, m.toolCallID)) + " answers no earlier tool call, so the trace cannot link this result to its call",
				Fix:     "use the id of the assistant tool call it answers" + hint}))
		}
	case m.toolUseID.Present():
		w.noteToolUseID(n, i)
	default:
		if n.take() {
			n.add(m.start, messageAt(i).Warning(softwarn.ToolResultUnmatched, softwarn.Kept, softwarn.Parts{
				Problem: "a tool message without tool_call_id, so the trace cannot link this result to its call",
				Fix:     w.idFix()}))
		}
	}
}

// idFix is the fix of a tool message without tool_call_id: to add it, or, when a member of the
// message holds its call's id where a source's message does (a keptShape's id), to move it.
func (w *messageWalk) idFix() string {
	for j := range w.msg.kept {
		c := &w.msg.keptAt[j]
		for _, s := range sources {
			for _, sh := range s.kept {
				if sh.id == "" || sh.member != string(c.name) {
					continue
				}
				if id := member(w.data[c.value.Start:c.value.End], sh.id, w.v.MaxDepth()); len(id) > 2 && id[0] == '"' {
					return sh.idFix
				}
			}
		}
	}
	return "add \"tool_call_id\": <the id of the assistant tool call it answers>"
}

// noteToolUseID notes tool message i, which has its call's id under a source's other name for
// it (answerLinks) and no tool_call_id: renaming the key links it.
func (w *messageWalk) noteToolUseID(n *noteRun, i int) {
	m := &w.msg
	l := answerLinks[m.link]
	id := jsonscan.StringText(w.data, m.toolUseID)
	value := jsonscan.ShortToken(tokenText(w.data, m.toolUseID))
	p := softwarn.Parts{
		Problem: l.problem,
		Fix:     l.fix,
	}
	if k, ok := w.match(id); ok {
		w.mean(k)
		c := w.call(k)
		p.Fix += ": its value " + value + " is the id of the tool call at " + messageAt(int(c.msg)).Key("tool_calls").Index(int(c.index)).Path()
	} else {
		hint, k := w.didYouMean(id)
		w.mean(k)
		p.Fix += ", and use the id of the assistant tool call it answers: " + value + " answers no earlier tool call" + hint
	}
	if n.take() {
		n.add(m.toolUseID.Start, messageAt(i).Key(l.member).Warning(softwarn.ToolResultUnmatched, softwarn.Kept, p))
	}
}

// read reads the facts of kept message m, from its members, into w.msg.
func (w *messageWalk) read(m normalize.InputMessage) {
	f := &w.msg
	*f = messageFacts{start: m.Span.Start, otherArgs: f.otherArgs[:0]}
	o := m.Members
	for j := range o.Len() {
		v := o.Value(j)
		if keptMembers[string(o.Name(j))] && f.kept < len(f.keptAt) {
			f.keptAt[f.kept] = keptCandidate{name: o.Name(j), value: v}
			f.kept++
		}
		switch string(o.Name(j)) {
		case "role":
			s := w.stringAt(v)
			f.isTool = s.Present() && string(jsonscan.StringText(w.data, s)) == "tool"
			f.role = w.shortText(s)
		case "tool_call_id":
			f.toolCallID = w.stringAt(v)
			f.hasCallID = w.data[v.Start] != 'n'
		case "content":
			f.contentAt, f.hasContent = v.Start, w.data[v.Start] != 'n'
			f.blocks = w.contentBlocks(v)
		case "tool_calls":
			f.hasCalls = w.data[v.Start] != 'n'
			w.readCalls(m)
		case "parts":
			f.parts, f.partKinds = w.readParts(v)
		case "blocks":
			f.blockList = textKind(w.data[v.Start:v.End]) == jsonscan.Array
		default:
			w.readOther(o.Name(j), v)
		}
	}
}

// readOther reads member name of a kept message, holding v, when it is a source's: its link to
// its call under another name (answerLinks; the last one counts), or its legacy member.
func (w *messageWalk) readOther(name []byte, v jsonscan.Span) {
	f := &w.msg
	if l := answerLinkOf(name); l >= 0 {
		f.toolUseID, f.link = w.stringAt(v), l
		return
	}
	for j := range legacyMembers {
		if l := &legacyMembers[j]; string(name) == l.member {
			f.legacy, f.legacyAt = nil, v.Start
			if w.data[v.Start] != 'n' {
				f.legacy = l
			}
		}
	}
}

// readCalls reads the kept calls of m into w.msg: those without arguments whose arguments are
// under another key.
func (w *messageWalk) readCalls(m normalize.InputMessage) {
	f := &w.msg
	f.calls, f.otherArgs = m.Calls, f.otherArgs[:0]
	for j := range m.Calls {
		c := w.v.Call(m.FirstCall + j)
		if c.Arguments.Present() {
			continue
		}
		if key := w.otherArgumentsKey(c.At); key != "" {
			f.otherArgs = append(f.otherArgs, otherArgs{index: j, at: c.At, key: key})
		}
	}
}

// scanner resets s to read the value at v, and returns it: the offsets s gives are v.Start
// less than the input's.
func (w *messageWalk) scanner(s *jsonscan.Scanner, v jsonscan.Span) []byte {
	data := w.data[v.Start:v.End]
	s.Reset(data, w.v.MaxDepth())
	return data
}

// stringAt is v when it is a string token, else absent.
func (w *messageWalk) stringAt(v jsonscan.Span) jsonscan.Span { return stringIn(w.data, v) }

// stringIn is v when it is a string token in data, else absent.
func stringIn(data []byte, v jsonscan.Span) jsonscan.Span {
	if v.Present() && data[v.Start] == '"' {
		return v
	}
	return jsonscan.Span{}
}

// contentBlocks counts the content blocks of the content at v in a source's shape
// (blockShapes), which the trace does not link.
func (w *messageWalk) contentBlocks(v jsonscan.Span) (counts [maxBlockShapes]int) {
	var s jsonscan.Scanner
	data := w.scanner(&s, v)
	if s.Peek() != jsonscan.Array {
		return counts
	}
	for ok := s.ArrayStart(); ok; ok = s.ArrayNext() {
		if s.Peek() != jsonscan.Object {
			s.SkipValue()
			continue
		}
		var typ []byte
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			isType := string(s.KeyName()) == "type"
			if v := stringIn(data, s.SkipValue()); isType {
				typ = nil
				if v.Present() {
					typ = jsonscan.StringText(data, v)
				}
			}
		}
		for j, b := range blockShapes {
			if typ != nil && string(typ) == b.typ {
				counts[j]++
			}
		}
	}
	return counts
}

// otherArgumentsKey is the other key the arguments of the call object at offset at are under,
// or "". As in the record, the nested shape ({"function": {"name", "arguments"}}) takes them
// from function.
func (w *messageWalk) otherArgumentsKey(at int) string {
	var s jsonscan.Scanner
	s.Reset(w.data[at:], w.v.MaxDepth()) // the object only is read
	var entry, function argumentsKeys
	nested := false
	for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
		name := s.KeyName()
		if string(name) != "function" {
			entry.see(name)
			s.SkipValue()
			continue
		}
		if nested = s.Peek() == jsonscan.Object; !nested {
			s.SkipValue()
			continue
		}
		function = argumentsKeys{}
		for ok := s.ObjectStart(); ok; ok = s.ObjectNext() {
			function.see(s.KeyName())
			s.SkipValue()
		}
	}
	if nested {
		entry = function
	}
	if entry.arguments {
		return ""
	}
	return entry.other
}

// argumentsKeys is what readCall notes of one object's keys.
type argumentsKeys struct {
	arguments bool
	other     string
}

func (a *argumentsKeys) see(name []byte) {
	switch string(name) {
	case "arguments":
		a.arguments = true
	default:
		if a.other == "" && isArgumentsKey(name) {
			a.other = string(name)
		}
	}
}

// argumentsKeyOrigin is whose name for a call's arguments key is (a source's argumentKeys), or
// "" when none's.
func argumentsKeyOrigin(key string) string {
	for _, a := range argumentKeys {
		if key == a.key {
			return a.origin
		}
	}
	return ""
}

// isArgumentsKey is whether name is a source's argumentKeys.
func isArgumentsKey(name []byte) bool {
	for _, a := range argumentKeys {
		if string(name) == a.key {
			return true
		}
	}
	return false
}

// keptMembers are the names of the members some source's keptShape reads.
var keptMembers = map[string]bool{}

func init() {
	for _, s := range sources {
		for _, k := range s.kept {
			keptMembers[k.member] = true
		}
	}
}

// keptMember is what a keptShape reads of the kept message just read, with its member's
// value v.
func (w *messageWalk) keptMember(v jsonscan.Span) keptMember {
	return keptMember{value: v, role: w.msg.role, calls: w.msg.hasCalls, id: w.msg.hasCallID}
}

// noteKept notes the member of kept message i whose value starts at at, in a source's
// keptShape.
func (w *messageWalk) noteKept(n *noteRun, i, at int) {
	for j := range w.msg.kept {
		c := &w.msg.keptAt[j]
		if c.value.Start != at || c.shape == nil || !n.take() {
			continue
		}
		n.add(at, messageAt(i).Key(string(c.name)).Warning(c.shape.code, softwarn.Kept, c.shape.note(w, w.keptMember(c.value))))
	}
}
