package jsonscan

// The contract's default limits on one result. They are here, at the bottom, so that package
// normalize, which exports them (normalize.DefaultMaxDepth, normalize.DefaultMaxWarnings), and
// messages.Check, which must judge one message as Normalize judges it inside a result, read one
// constant each rather than copies that could drift apart.
const (
	// DefaultMaxDepth is the default limit on nested arrays and objects in a result, counting
	// the result object itself: about where the platform's Python parser gives up.
	DefaultMaxDepth = 1000
	// DefaultMaxWarnings is the default number of soft warnings a record lists; past it one
	// warning (warnings_limited) counts the rest.
	DefaultMaxWarnings = 1000
)
