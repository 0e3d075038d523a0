package messages

// The record's fixes that name a framework or an API. A soft warning's text is part of the
// record, so its wording is the contract's; it lives here, in the package below normalize that
// words the record's warnings, so that package normalize names no framework (a test holds it
// to that). roleFix and typedItem in check.go word those of messages; the table below those
// that package normalize gives, by name.

// A RecordFix names a fix of the record's wording that package normalize gives.
type RecordFix uint8

const (
	// FixNullValue: a recognised key with null for its value, which a model_dump of unset
	// fields sends for each.
	FixNullValue RecordFix = iota
)

// recordFixes are the fixes' texts, by RecordFix.
var recordFixes = [...]string{
	FixNullValue: "leave the key out when there is no value (Pydantic: model_dump(exclude_none=True))",
}

// String is the fix as the record words it.
func (f RecordFix) String() string { return recordFixes[f] }
