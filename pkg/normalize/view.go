package normalize

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/softwarn"
)

// View is a read-only account of what Normalize found in a result and where it is in the
// input: the final answer, the metadata members the record kept, every kept tool call, and
// the warnings; the result object's members and every message that is an object (kept or
// dropped, with its members) are told to an Advisor's Notes as they are read. Advice is given
// from these and from the values at the places they name, without reading the input's
// structure a second time.
//
// The places of the messages are not kept in a table, which would cost more than the record
// itself for a transcript of small messages: they are told as they are read. The call table
// locates every kept call only with WithExplain and an Advisor; without them Calls is 0.
//
// A View is valid only while its Result is: until Release, and while the input is unchanged.
// Spans are byte offsets in Input, the end exclusive.
type View struct{ r *Result }

// View returns what r found and where; see View.
func (r *Result) View() View { r.live(); return View{r} }

// Input is the raw input, as passed to Normalize. It must not be changed.
func (v View) Input() []byte { return v.r.s.Data() }

// MaxDepth is the nesting limit the input was read with, for reading a value in it again.
func (v View) MaxDepth() int { return v.r.s.MaxDepth() }

// WarningLimit is the number of warnings a record lists (WithMaxWarnings), which notes are
// held to as well; 0 means no limit.
func (v View) WarningLimit() int { return v.r.maxWarnings }

// Warnings are the record's soft warnings, each with its path and pointer.
func (v View) Warnings() []softwarn.Warning { return v.r.warn.Warnings() }

// FinalKind is the kind of the final answer: String for a bare string or a final_response
// string, None when a result object has no final_response.
func (v View) FinalKind() jsonscan.Kind { return v.r.finalKind }

// Final is the final_response string token as the record writes it, quotes included: the
// input's own bytes unless it was cut at MaxChars or had lone surrogates replaced.
func (v View) Final() []byte { return v.r.final }

// FinalAt is where the final answer's value starts in the input: 0 for a bare string.
func (v View) FinalAt() int {
	if f := &v.r.fields[fieldFinal]; f.count > 0 {
		return f.last
	}
	return 0
}

// Truncated reports whether final_response was cut at MaxChars.
func (v View) Truncated() bool { return v.r.truncated }

// Count is how often the result object has the top-level key name, one of final_response,
// messages and metadata (the last value counts); 0 for any other name.
func (v View) Count(name string) int {
	for f, n := range fieldNames {
		if n == name {
			return v.r.fields[f].count
		}
	}
	return 0
}

// Metadata is the metadata value: its kind (None when absent), its span, and, for an object,
// the members the record kept, a member whose recognised key failed its check with an absent
// value.
func (v View) Metadata() (kind jsonscan.Kind, span jsonscan.Span, members Object) {
	m := &v.r.meta
	return m.kind, m.span, object(v.r, &m.members, 0, len(m.members.List))
}

// Calls is the number of kept tool calls (with WithExplain and an Advisor), in the order the
// record writes them; while the result is read, those of the messages read so far.
func (v View) Calls() int {
	if !v.r.explain || v.r.advisor == nil {
		return 0
	}
	return v.r.msgs.Calls()
}

// Call is kept tool call k, 0 <= k < Calls().
func (v View) Call(k int) InputCall {
	c := v.r.msgs.Call(k)
	return InputCall{ID: c.ID.Unpack(), Name: c.Name.Unpack(), Arguments: c.Arguments.Unpack(), At: v.r.msgs.CallAt(k)}
}

// InputMessage is a message of the input that is an object, as Notes.Message is told of it.
type InputMessage struct {
	Index int           // its position in the messages array
	Span  jsonscan.Span // the message object
	Kept  bool          // the record keeps it; a dropped one has a warning at its path or deeper
	// Members are its members: each key once, at its first place, with its last value.
	Members Object
	// Its tool calls, when kept: View.Call(FirstCall+j) is its call j, for j < Calls.
	FirstCall, Calls int
}

// InputCall is a kept tool call of the input: the tokens the flat form takes from it, absent when not given,
// and where the call object starts.
type InputCall struct {
	ID, Name, Arguments jsonscan.Span
	At                  int
}

// Object is the members of one object of the input, read-only.
type Object struct {
	m        *jsonscan.Members
	data     []byte
	from, to int
}

func object(r *Result, m *jsonscan.Members, from, to int) Object {
	return Object{m: m, data: r.s.Data(), from: from, to: to}
}

// Len is the number of members.
func (o Object) Len() int { return o.to - o.from }

// Name is the text of member i's key, unescaped.
func (o Object) Name(i int) []byte { return o.m.Name(o.data, o.from+i) }

// Key is member i's key token, quotes included.
func (o Object) Key(i int) jsonscan.Span { return o.m.List[o.from+i].Key() }

// Value is member i's value; absent when the record dropped it.
func (o Object) Value(i int) jsonscan.Span { return o.m.List[o.from+i].Value() }

// Get is the value of the member named name, and whether there is one.
func (o Object) Get(name string) (jsonscan.Span, bool) {
	for i := o.from; i < o.to; i++ {
		if string(o.m.Name(o.data, i)) == name {
			return o.m.List[i].Value(), true
		}
	}
	return jsonscan.Span{}, false
}
