package normalize

import (
	"strconv"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// noteList keeps the explain view's notes in input order, the order of the places they concern,
// as the warnings are: a person fixes a result from the top. Each step of lint finds its notes
// in input order (a run: final_response, the top-level keys, the messages, then the tool calls
// nothing answered, known only at the end) and lists at most limit of them, counting the rest;
// close merges the runs and lists the first limit of all. A run's counted notes come after its
// listed ones, so none of them could have been among the first limit: the list is exactly the
// first notes in input order, and memory stays a few limits of notes however many there are.
type noteList struct {
	runs  []noteRun
	limit int
}

// noteRun is the notes one step found, in input order.
type noteRun struct {
	notes []placedNote
	more  int
}

// placedNote is a note and the offset in the input of the place it concerns.
type placedNote struct {
	at int
	w  softwarn.Warning
}

// startRun starts the run of the next step.
func (n *noteList) startRun() { n.runs = append(n.runs, noteRun{}) }

// take says whether to build the current run's next note: past the limit it is only counted.
func (n *noteList) take() bool {
	if len(n.runs) == 0 {
		n.startRun()
	}
	r := &n.runs[len(n.runs)-1]
	if n.limit > 0 && len(r.notes) >= n.limit {
		r.more++
		return false
	}
	return true
}

// add lists w, about the place at offset at in the input, after take said to build it. Within
// a run, notes come in input order.
func (n *noteList) add(at int, w softwarn.Warning) {
	r := &n.runs[len(n.runs)-1]
	r.notes = append(r.notes, placedNote{at: at, w: w})
}

// close merges the runs in input order (on the same place, the earlier run first), lists the
// first limit notes and adds one that counts the rest.
func (n *noteList) close() []softwarn.Warning {
	total, more := 0, 0
	for _, r := range n.runs {
		total += len(r.notes)
		more += r.more
	}
	if total == 0 && more == 0 {
		return nil
	}
	size := total + 1
	if n.limit > 0 {
		size = min(total, n.limit) + 1
	}
	list := make([]softwarn.Warning, 0, size)
	heads := make([]int, len(n.runs))
	for {
		next := -1
		for i, r := range n.runs {
			if heads[i] < len(r.notes) && (next < 0 || r.notes[heads[i]].at < n.runs[next].notes[heads[next]].at) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		if n.limit > 0 && len(list) >= n.limit {
			more++
		} else {
			list = append(list, n.runs[next].notes[heads[next]].w)
		}
		heads[next]++
	}
	if more > 0 {
		list = append(list, softwarn.At("messages").Warning(softwarn.NotesLimited, softwarn.Kept, softwarn.Parts{
			Problem: strconv.Itoa(more) + " more notes were not listed: a record lists at most " + strconv.Itoa(n.limit),
			Fix:     "act on the ones listed and normalize again",
		}))
	}
	return list
}
