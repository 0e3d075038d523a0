package jsonscan

// DefaultMaxDepth is the contract's default limit on nested arrays and objects in a result,
// counting the result object itself: about where the platform's Python parser gives up. It is
// here, at the bottom, so that package normalize, which exports it (normalize.DefaultMaxDepth),
// and messages.Check, which must judge one message as Normalize judges it inside a result, read
// one constant rather than copies that could drift apart.
const DefaultMaxDepth = 1000
