package porting

import (
	"strconv"

	"github.com/dystopic/normalizer/pkg/softwarn"
)

// noteRun is the notes one step of the explain view finds, in input order (the places they
// concern, as the warnings are: a person fixes a result from the top). Each step (final_response,
// metadata, the top-level keys, the messages, then the tool calls nothing answered, known only
// at the end) lists at most limit notes, counting the rest; closeRuns merges the runs and lists
// the first limit of all. A run's counted notes come after its listed ones, so none of them
// could have been among the first limit: the list is exactly the first notes in input order,
// and memory stays a few limits of notes however many there are.
type noteRun struct {
	notes []placedNote
	more  int
	limit int
}

// placedNote is a note and the offset in the input of the place it concerns.
type placedNote struct {
	at int
	w  softwarn.Warning
}

// take says whether to build the run's next note: past the limit it is only counted.
func (r *noteRun) take() bool {
	if r.limit > 0 && len(r.notes) >= r.limit {
		r.more++
		return false
	}
	return true
}

// add lists w, about the place at offset at in the input, after take said to build it. Within
// a run, notes come in input order.
func (r *noteRun) add(at int, w softwarn.Warning) {
	r.notes = append(r.notes, placedNote{at: at, w: w})
}

// reset forgets the run's notes.
func (r *noteRun) reset() { r.notes, r.more = r.notes[:0], 0 }

// closeRuns merges runs in input order (on the same place, the earlier run first), lists the
// first limit notes and adds one that counts the rest.
func closeRuns(limit int, runs ...*noteRun) []softwarn.Warning {
	total, more := 0, 0
	for _, r := range runs {
		total += len(r.notes)
		more += r.more
	}
	if total == 0 && more == 0 {
		return nil
	}
	size := total + 1
	if limit > 0 {
		size = min(total, limit) + 1
	}
	list := make([]softwarn.Warning, 0, size)
	heads := make([]int, len(runs))
	for {
		next := -1
		for i, r := range runs {
			if heads[i] < len(r.notes) && (next < 0 || r.notes[heads[i]].at < runs[next].notes[heads[next]].at) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		if limit > 0 && len(list) >= limit {
			more++
		} else {
			list = append(list, runs[next].notes[heads[next]].w)
		}
		heads[next]++
	}
	if more > 0 {
		list = append(list, softwarn.At("messages").Warning(softwarn.NotesLimited, softwarn.Kept, softwarn.Parts{
			Problem: strconv.Itoa(more) + " more notes were not listed: a record lists at most " + strconv.Itoa(limit),
			Fix:     "act on the ones listed and normalize again",
		}))
	}
	return list
}
