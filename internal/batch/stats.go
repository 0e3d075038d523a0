package batch

import (
	"github.com/dystopic/normalizer/internal/jsonscan"
	"github.com/dystopic/normalizer/pkg/normalize"
)

// Stats are the totals of a run.
type Stats struct {
	Lines        int64 // input lines read, one output line each
	BytesIn      int64 // input bytes, terminators included
	BytesOut     int64 // output bytes
	Records      int64 // lines that gave a record
	Rejected     Rejections
	Warnings     int64 // soft warnings over all records
	WithWarnings int64 // records with at least one soft warning
	Truncated    int64 // records whose final_response was cut at the cap
	// NotUTF8 is the input's encoding when its first bytes show UTF-16 or UTF-32: its lines
	// were cut where that encoding ends a line, and every one was rejected. Set once Run returns.
	NotUTF8 *jsonscan.Wide
}

// Rejections counts rejected lines by class.
type Rejections struct {
	ResponseShape   int64
	InvalidJSON     int64
	PayloadTooLarge int64
	Other           int64 // errors that are not rejections of the contract; should stay 0
}

// Total is the number of rejected lines.
func (r Rejections) Total() int64 {
	return r.ResponseShape + r.InvalidJSON + r.PayloadTooLarge + r.Other
}

// ByClass lists the non-zero counts in a fixed order.
func (r Rejections) ByClass() []ClassCount {
	var out []ClassCount
	for _, c := range []ClassCount{
		{normalize.ClassInvalidJSON, r.InvalidJSON},
		{normalize.ClassResponseShape, r.ResponseShape},
		{normalize.ClassPayloadTooLarge, r.PayloadTooLarge},
		{normalize.ClassInternal, r.Other},
	} {
		if c.N > 0 {
			out = append(out, c)
		}
	}
	return out
}

// ClassCount is a number of rejections of one class.
type ClassCount struct {
	Class normalize.Class
	N     int64
}

func (s *Stats) count(o Outcome) {
	switch o.Class {
	case "":
		s.Records++
		s.Warnings += int64(o.Warnings)
		if o.Warnings > 0 {
			s.WithWarnings++
		}
		if o.Truncated {
			s.Truncated++
		}
	case normalize.ClassResponseShape:
		s.Rejected.ResponseShape++
	case normalize.ClassInvalidJSON:
		s.Rejected.InvalidJSON++
	case normalize.ClassPayloadTooLarge:
		s.Rejected.PayloadTooLarge++
	default:
		s.Rejected.Other++
	}
}

// add adds the totals of o to s.
func (s *Stats) add(o *Stats) {
	s.Lines += o.Lines
	s.BytesIn += o.BytesIn
	s.BytesOut += o.BytesOut
	s.Records += o.Records
	s.Rejected.ResponseShape += o.Rejected.ResponseShape
	s.Rejected.InvalidJSON += o.Rejected.InvalidJSON
	s.Rejected.PayloadTooLarge += o.Rejected.PayloadTooLarge
	s.Rejected.Other += o.Rejected.Other
	s.Warnings += o.Warnings
	s.WithWarnings += o.WithWarnings
	s.Truncated += o.Truncated
}
