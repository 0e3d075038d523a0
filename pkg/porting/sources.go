package porting

import (
	"slices"

	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// A source is a framework, an API or a program whose output porters send, and what this
// package knows of it: one table per kind of place a shape of its output is found at, each
// entry how the shape is recognised, its code and its fix. A source is one file that holds
// its table and registers it (register); the engine files read the tables and name no source.
type source struct {
	name string // as a test names it, and a reader of the table
	// syntax: text of another kind than JSON that the source writes, by what the scanner
	// found, for the reason of an InvalidJSON rejection.
	syntax []syntaxShape
	// transcripts: the top-level keys the source sends a transcript under instead of
	// "messages", for a top_level_transcript_key note.
	transcripts []transcriptShape
	// messages: a message the contract drops (no role, or a role out of the set) in the shape
	// of the source's messages, for a note at it.
	messages []messageShape
	// kept: a member of a kept message where the source holds what the trace reads from
	// another member (tool calls, a tool result's link), for a note at it.
	kept []keptShape
	// results: a result object without final_response (and without rule 3's probe keys)
	// that is the source's result object, model response or transcript, for the hint of its
	// rejection; rank orders the shapes of every source. probes: a result object whose probe
	// key (rule 3's: final_output, output, message) holds no text in the source's shape, for
	// the sentence rule 3's message adds. arrays: a top-level array in the source's shape sent
	// instead of the result object, for the hint of its rejection.
	results []resultShape
	probes  []resultShape
	arrays  []valueShape
	// factKeys: the keys of a result object whose values the source's results and probes read
	// (objectFacts.value), besides the keys every shape reads; answerKeys: the keys the source
	// sends its answer under instead of final_response, for the hint that says to rename one.
	factKeys, answerKeys []string
	// responses: the source's model response whose JSON text was sent as final_response, for
	// a final_response_object_json note.
	responses []responseShape
	// values and lists: an object, or a list, in the source's shape sent as final_response, for
	// the hint of its rejection.
	values, lists []valueShape
	// printed: the text a language prints of the source's object for people, not JSON, sent as
	// final_response instead of the answer in it, for a final_response_repr note.
	printed []printedShape
	// placeholders: the text the source prints for a missing value, or for an object it was not
	// told how to write, sent as final_response, for a final_response_placeholder note.
	placeholders []placeholder
	// turns: an element of messages in the source's shape that is a turn (a tool call, an
	// answer, a tool's result), for the advice on the rejection of an empty final_response.
	turns []turnShape
	// metaNames: the source's names for a recognised metadata key, for a
	// metadata_key_variant note on a key sent by that name.
	metaNames []metaName
	// usageKeys: the objects the source keeps its token counts in, as foldsTo wants them; cached,
	// its input count that leaves out the prompt cache; split, its output count that leaves out a
	// part; runtimes, its members that hold the run's time: for the metadata notes.
	usageKeys []string
	cached    *cacheShape
	split     *splitShape
	runtimes  []runtimeName
	// answerLinks: the members a tool result of the source links to its call by, other than
	// "tool_call_id", read of a message that has no tool_call_id.
	answerLinks []answerLink
	// legacy: a kept message's member in which the source held its calls before tool_calls,
	// which the trace does not read, for a note at it.
	legacy []legacyMember
	// blocks: the content blocks of the source that hold tool calls or results, which the
	// trace does not link, for a note on a kept message's content.
	blocks []blockShape
	// argumentKeys: the key the source's tool calls hold their arguments under instead of
	// "arguments", which the flat form does not keep, for a note on the call.
	argumentKeys []argumentsKey
	// outputs: a tool's output in the source's shape sent whole as a tool message's content
	// (the message is dropped), for a note at it.
	outputs []outputShape
	// texts: a kept message without "content" whose text the source holds in another member,
	// for a note at it.
	texts []textShape
	// parts: what the members of a part of a message's "parts" say of its kind, for the notes
	// on a message with parts.
	parts []partMember
	// entryKeys: keys that only a transcript's entries hold among the source's shapes, and
	// entryTypes: the "type" of an entry that only the source's messages have, for
	// holdsMessages (a transcript under another key than "messages").
	entryKeys, entryTypes []string
}

// A textShape is a kept message without "content" that holds its text in another member, as a
// source's messages do, recognised by is from what the walk read of it; note says what it
// is and how to send its text in "content".
type textShape struct {
	code softwarn.Code
	is   func(m *messageFacts) bool
	note func(m *messageFacts) softwarn.Parts
}

// A partMember is a member of an object in a message's "parts", named key, holding a value of
// kind: the part is of the kinds set, and, when of is set, of those of says of the member's
// string text.
type partMember struct {
	key  string
	kind jsonscan.Kind
	set  partKinds
	of   func(text []byte) partKinds
}

// partMembers, entryKeys and entryTypes are every source's, gathered at init.
var (
	partMembers           []partMember
	entryKeys, entryTypes []string
)

// An outputShape is a tool's output object in a source's shape, recognised by read from obj, a
// dropped tool message's content (ok false when it is not the shape); note says, from what read
// found, what it is and what to send instead.
type outputShape struct {
	code softwarn.Code
	read func(obj []byte, maxDepth int) (o outputFacts, ok bool)
	note func(o outputFacts) softwarn.Parts
}

// outputFacts is what an outputShape's read found of a tool's output: its kind (the text of its
// type), and what to send in its place.
type outputFacts struct {
	kind []byte
	send string
}

// An answerLink is a member a source's tool result holds its call's id in, and whose name it
// is (origin: "X's name for it").
type answerLink struct {
	member, origin string
	problem, fix   string // the note's, made at init
}

// A legacyMember is a member a source's messages held their calls in before tool_calls: the
// note at it (code, parts: its problem and fix in one clause).
type legacyMember struct {
	member string
	code   softwarn.Code
	parts  softwarn.Parts
}

// A blockShape is a content block of type typ: a note on a kept message's content that holds
// some says it holds that many of noun ("X tool_use block") and fix.
type blockShape struct {
	typ, noun, fix string
	code           softwarn.Code
}

// maxBlockShapes bounds blockShapes, which messageFacts counts (TestSourceTables).
const maxBlockShapes = 4

// An argumentsKey is the key a source's tool calls hold their arguments under, and whose name
// it is.
type argumentsKey struct{ key, origin string }

// Every source's answerLinks, legacy members, block shapes and arguments keys, gathered at init.
var (
	answerLinks   []answerLink
	legacyMembers []legacyMember
	blockShapes   []blockShape
	argumentKeys  []argumentsKey
)

// answerLinkOf is the index of key in answerLinks, or -1.
func answerLinkOf(key []byte) int {
	for i, l := range answerLinks {
		if string(key) == l.member {
			return i
		}
	}
	return -1
}

// A metaName is a source's name for the recognised metadata key key: name, whose it is
// (a possessive: "X's", "X's older") and where the source holds it (in: "usage", or "").
// rank orders a key's names: a key spelled another way is taken for the first whose folded
// form it has (INPUT_TOKENS is a spelling of input_tokens before inputTokens). The note says
// whose, where several sources give the name, in the order the sources are registered
// (metaKey.pooled says how).
type metaName struct {
	key, name string
	rank      int
	whose, in string
	// beside: the name is the source's only beside one of these keys, and is then said to be
	// its, whoever else gives it (another entry of the name says whose it is otherwise).
	beside []string
}

// A cacheShape is a source's input count that leaves out the prompt cache: beside the cache
// counts, the run's input (total_input_tokens) is their sum, not the count.
type cacheShape struct {
	count  string      // the input count, as foldsTo wants it
	caches []cacheName // the cache counts
	// holders: the usage objects (as foldsTo wants them) under which cache counts are this
	// source's, whatever their names.
	holders []string
	reason  string // why the sum, after the fix that names it
}

// A cacheName is a cache count, as foldsTo wants it; spelled, when not "", is the only spelling
// that says the count is this source's (another is another source's, or any).
type cacheName struct{ folded, spelled string }

// A splitShape is a source's output count (count, as foldsTo wants it) that leaves out a part of
// the output counted beside it (part): the run's output is their sum.
type splitShape struct {
	count, part string
	reason      string // why the sum, after the fix that names it
}

// A runtimeName is a member in which a source holds the run's time in nanoseconds, name, said
// to be the source's (origin) beside one of its other keys (beside): another's member of that
// name may be in another unit, and is not noted.
type runtimeName struct {
	name                string
	beside              []string
	origin              string
	found, expected, to string // the note's, made at init
}

// A valueShape is a value sent as final_response that holds the answer somewhere inside,
// recognised by hint, which says what it is and where the text is (ok false when v is not the
// shape). rank orders the shapes a value may be in: the lowest says.
type valueShape struct {
	rank int
	hint func(v []byte, maxDepth int) (shapeHint, bool)
}

// firstValueHint is the hint of the first of shapes, in rank order, that v is in; none when
// it is in none.
func firstValueHint(shapes []valueShape, v []byte, maxDepth int) shapeHint {
	for _, sh := range shapes {
		if h, ok := sh.hint(v, maxDepth); ok {
			return h
		}
	}
	return shapeHint{}
}

// objectValues and listValues are the sources' values and lists, by rank, gathered at init.
var objectValues, listValues []valueShape

// A turnShape is an element of messages in a source's shape, recognised by read from what the
// engine read of it once (turnFacts): which turn it is (a call, with what it is, how to run the
// loop on and what to send after it in the SDK's words; an answer, and where its text is; a
// tool's result; another turn), ok false when the element is not the shape. A shape with part
// set has no read: an assistant message whose content holds a part of type part is the call
// turn call (text set when its content holds text parts too). rank orders the shapes an
// element may be in: the lowest says.
type turnShape struct {
	rank int
	read func(e turnFacts) (t turn, ok bool)
	part string
	call turn
}

// turnShapes are the sources' turns, by rank, and callParts the types of the content parts
// that call a tool (the turn shapes' part), gathered at init.
var (
	turnShapes []turnShape
	callParts  []string
)

// A responseShape is a model API's response, recognised by note from obj, the object that
// final_response's text holds (read with the result's depth limit); dict: the text was written
// with spaces, as json.dumps writes a dict. note says what it is and where its
// answer's text is, or, with answer "", that it holds none (the model stopped at a tool call);
// ok is false when obj is not this shape.
type responseShape struct {
	note func(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool)
}

// A printedShape is an object of a source as a language prints it for people (str() of a
// dict, an object's own form Name(key=…)), recognised by note from what readPrinted read of
// final_response's text (python_repr.go reads the one language whose printed objects porters
// send), of which it reads the top-level keys keys. note says what the text is and where its
// answer is; is false when the text is not the shape, and the next by rank is asked; what ""
// when it is but holds no answer to name (a turn that stopped at a tool call, an empty value),
// and no note is given. rank orders the shapes: the lowest that is says.
type printedShape struct {
	rank int
	keys []string
	note func(p printedText) (what, answer string, is bool)
}

// printedShapes are the sources' printed shapes, by rank, and printedKeys the keys they read,
// gathered at init; maxPrintedKeys bounds printedKeys, which readPrinted keeps the values of
// (TestSourceTables).
var (
	printedShapes []printedShape
	printedKeys   []string
)

const maxPrintedKeys = 12

// printedAs is what the first printed shape, by rank, says of t, final_response's text: ok is
// false when t is in none, or in one that holds no answer to name.
func printedAs(t []byte) (what, answer string, ok bool) {
	p := readPrinted(t)
	for _, s := range printedShapes {
		if what, answer, is := s.note(p); is {
			return what, answer, what != ""
		}
	}
	return "", "", false
}

// A placeholder is a text that stands for no answer, sent as final_response: says what prints
// it (a missing value, or an object not told how to write itself), fix what to send instead
// ("" for noAnswerFix). Each language writes its missing value its own way, and naming the
// right one tells the porter where to look.
type placeholder struct{ text, says, fix string }

// placeholderOf is the placeholder whose text is t, or nil.
func placeholderOf(t []byte) *placeholder {
	for i := range placeholders {
		if string(t) == placeholders[i].text {
			return &placeholders[i]
		}
	}
	return nil
}

// A messageShape is a dropped message in the shape of a source's messages, recognised by is
// from what was read of it; note says what it is and the messages to send instead.
type messageShape struct {
	// rank orders the shapes a message may match: the lowest names it. A message without a
	// role (foreignFacts.noRole) that has "parts" is one of the shapes of rank 4 or 5, or
	// none.
	rank int
	code softwarn.Code
	is   func(w *messageWalk, f foreignFacts) bool
	note func(w *messageWalk, f foreignFacts) softwarn.Parts
}

// droppedMessage is what was done about a message a messageShape notes.
const droppedMessage = "the message was dropped"

// A syntaxShape is text of another kind than JSON, recognised by what the scanner found at
// it (normalize.Found.Kind); reason is the InvalidJSON reason that says what writes it and
// how to send JSON instead (normalize.Found.Key's ending aside).
type syntaxShape struct {
	found  normalize.FoundKind
	reason func(normalize.Found) string
}

// A transcriptShape is a top-level key holding a transcript, recognised by its name when it
// holds objects in the shape of messages (holdsMessages).
type transcriptShape struct {
	key  string
	code softwarn.Code
	// origin says whose name the key is. Where several sources use the key, the note says
	// lead and their origins joined with " and ", in the order the sources are registered.
	lead, origin string
	fix          string // the fix; "" for the generic one (send the entries as "messages")
}

// factKeys and answerKeys are every source's, each key once, gathered at init. They are
// declared before sources: Go initializes a source's var after every var its shapes read, in
// the order of declaration, and one declared after sources would register the sources that read
// it after those of the files that follow theirs (TestSourceOrder).
var factKeys, answerKeys []string

// sources are the registered sources, in the order of their files' names (the order Go
// initializes them in).
var sources []*source

// register adds s to sources, for the engine's tables; a source's file calls it once, for its
// package-level var.
func register(s source) *source {
	sources = append(sources, &s)
	return &s
}

// syntaxShapeFor is the syntax shape for what the scanner found, or nil.
func syntaxShapeFor(k normalize.FoundKind) *syntaxShape {
	for _, s := range sources {
		for i := range s.syntax {
			if s.syntax[i].found == k {
				return &s.syntax[i]
			}
		}
	}
	return nil
}

// responseShapeFor is what the first source's response shape says of obj, or ok false.
func responseShapeFor(obj []byte, maxDepth int, dict bool) (what, answer string, ok bool) {
	for _, s := range sources {
		for _, r := range s.responses {
			if what, answer, ok = r.note(obj, maxDepth, dict); ok {
				return what, answer, true
			}
		}
	}
	return "", "", false
}

// syntaxHint gives an InvalidJSON rejection found at text of another kind than JSON the reason
// that says which program writes such text and how to send JSON instead; the scanner's own
// reason says only what the bytes are.
func syntaxHint(e *normalize.InvalidJSONError) {
	sh := syntaxShapeFor(e.Found.Kind)
	if e.Found.Kind == normalize.FoundSyntax || sh == nil {
		return
	}
	e.Reason = sh.reason(e.Found)
	if e.Found.Key {
		e.Reason += jsonscan.KeyExpected
	}
}

// A transcriptName is a top-level key of the transcripts, with what its note says of it.
type transcriptName struct {
	key, origin, fix string
	code             softwarn.Code
}

// transcriptNames are the keys of every source's transcripts, in the order first registered.
var transcriptNames []transcriptName

// init gathers the tables, after every source's var has registered it.
func init() {
	transcriptNames = joinTranscripts()
	joinMetaNames()
	for _, s := range sources {
		for _, l := range s.answerLinks {
			l.problem = "a tool message with \"" + l.member + "\" (" + l.origin + ") but no \"tool_call_id\", so the trace cannot link this result to its call"
			l.fix = "rename \"" + l.member + "\" to \"tool_call_id\""
			answerLinks = append(answerLinks, l)
		}
		legacyMembers = append(legacyMembers, s.legacy...)
		blockShapes = append(blockShapes, s.blocks...)
		argumentKeys = append(argumentKeys, s.argumentKeys...)
		partMembers = append(partMembers, s.parts...)
		entryKeys = append(entryKeys, s.entryKeys...)
		entryTypes = append(entryTypes, s.entryTypes...)
	}
	blockShapes = blockShapes[:min(len(blockShapes), maxBlockShapes)]
	for _, s := range sources {
		objectValues, listValues = append(objectValues, s.values...), append(listValues, s.lists...)
		printedShapes = append(printedShapes, s.printed...)
		placeholders = append(placeholders, s.placeholders...)
		turnShapes = append(turnShapes, s.turns...)
		for _, t := range s.turns {
			if t.part != "" {
				callParts = append(callParts, t.part)
			}
		}
	}
	byRank := func(a, b valueShape) int { return a.rank - b.rank }
	slices.SortStableFunc(objectValues, byRank)
	slices.SortStableFunc(listValues, byRank)
	slices.SortStableFunc(printedShapes, func(a, b printedShape) int { return a.rank - b.rank })
	for _, sh := range printedShapes {
		for _, k := range sh.keys {
			if !slices.Contains(printedKeys, k) {
				printedKeys = append(printedKeys, k)
			}
		}
	}
	printedKeys = printedKeys[:min(len(printedKeys), maxPrintedKeys)]
	slices.SortStableFunc(turnShapes, func(a, b turnShape) int { return a.rank - b.rank })
	gatherShapes()
}

// joinTranscripts gathers the sources' transcript shapes by key: a key several sources use
// says its first lead, then their origins joined with " and ".
func joinTranscripts() []transcriptName {
	var names []transcriptName
	index := map[string]int{}
	for _, s := range sources {
		for _, t := range s.transcripts {
			i, seen := index[t.key]
			switch {
			case !seen:
				i, index[t.key] = len(names), len(names)
				names = append(names, transcriptName{key: t.key, origin: t.lead, fix: t.fix, code: t.code})
			case t.origin != "":
				names[i].origin += " and "
			}
			names[i].origin += t.origin
		}
	}
	return names
}

// generic are the shapes that are no source's: a transcript under the plain word for one, a
// chat message as one of its entries, and the turns of a chat transcript.
var generic = register(source{
	transcripts: []transcriptShape{{key: "transcript", code: softwarn.TopLevelTranscriptKey}},
	// the keys of a chat message, and of one that names its author another way
	entryKeys: []string{"role", "content", "tool_calls", "speaker", "text"},
	values:    []valueShape{{rank: 1, hint: partValue}, {rank: 3, hint: messageStopped}, {rank: 7, hint: chatMessageValue}},
	lists:     []valueShape{{rank: 1, hint: partListValue}},
	// a function schema's word, as some SDKs send a call's arguments
	argumentKeys: []argumentsKey{{key: "parameters", origin: "a function schema's name"}},
	// a tool message first; a turn not the assistant's before the assistant's calls and text
	turns: []turnShape{{rank: 1, read: toolTurn}, {rank: 7, read: otherTurn}, {rank: 9, read: callsTurn},
		{rank: 10, read: textTurn}, {rank: 13, read: partsTextTurn}},
})

// A keptShape is a member of a kept message, named member, in which a source holds what the
// trace reads only from the contract's own members (the calls of "tool_calls", a tool message's
// "tool_call_id"), recognised by is from its value and the message's role; note says what it
// holds and where to send it. A message whose contract member already holds that is not noted.
type keptShape struct {
	member string
	code   softwarn.Code
	is     func(w *messageWalk, k keptMember) bool
	note   func(w *messageWalk, k keptMember) softwarn.Parts
	// id, when set, is the key of the member's object under which the source's tool message
	// holds its call's id, and idFix the fix of the tool_result_unmatched note on a tool
	// message without "tool_call_id" that holds a string there: where the id is to move from.
	id, idFix string
}

// keptMember is what a keptShape reads of a kept message: its member's value, and what of the
// message's contract members the note depends on.
type keptMember struct {
	value jsonscan.Span // the member's value
	role  []byte        // the message's role, when a short string; nil otherwise
	calls bool          // "tool_calls" is present and not null
	id    bool          // "tool_call_id" is present and not null
}

// keptShapeOf is the sources' kept shape of member name that k is in, the first registered;
// nil when none.
func (w *messageWalk) keptShapeOf(name []byte, k keptMember) *keptShape {
	for _, s := range sources {
		for j := range s.kept {
			if sh := &s.kept[j]; sh.member == string(name) && sh.is(w, k) {
				return sh
			}
		}
	}
	return nil
}

// A resultShape is a result object in a source's shape sent as the handler's result,
// recognised by hint from what the hints read of it (objectFacts: a fact key's value by
// f.value, and for a probe the probe key in f.probe), which says what it is and where its
// answer is (ok false when f is not the shape). rank orders the shapes an object may be in,
// from the surest sign to the weakest: the lowest says. probe: a result shape that probeHint
// tries too, before the probes, since the shape may hold a probe key. A shape names only a
// value that holds text: a hint that names an empty value would be rejected in turn.
type resultShape struct {
	rank  int
	probe bool
	hint  func(f *objectFacts) (shapeHint, bool)
}

// resultShapes and probeShapes are the sources' results and probes, by rank; arrayValues their
// arrays, by rank; gathered at init.
var (
	resultShapes, probeShapes []resultShape
	arrayValues               []valueShape
)

// maxFactKeys bounds factKeys, which objectFacts keeps in arrays (TestSourceTables).
const maxFactKeys = 20

// gatherShapes gathers the sources' result shapes, probes, arrays, fact keys and answer keys.
func gatherShapes() {
	for _, s := range sources {
		resultShapes = append(resultShapes, s.results...)
		probeShapes = append(probeShapes, s.probes...)
		arrayValues = append(arrayValues, s.arrays...)
		for _, k := range s.factKeys {
			if !slices.Contains(factKeys, k) {
				factKeys = append(factKeys, k)
			}
		}
		for _, k := range s.answerKeys {
			if !slices.Contains(answerKeys, k) {
				answerKeys = append(answerKeys, k)
			}
		}
	}
	factKeys = factKeys[:min(len(factKeys), maxFactKeys)]
	byRank := func(a, b resultShape) int { return a.rank - b.rank }
	slices.SortStableFunc(resultShapes, byRank)
	slices.SortStableFunc(probeShapes, byRank)
	slices.SortStableFunc(arrayValues, func(a, b valueShape) int { return a.rank - b.rank })
}

// also adds to the hint's fix what says more of it.
func (h shapeHint) also(s string) shapeHint { h.fix += s; return h }
