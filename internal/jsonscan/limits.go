package jsonscan

// DefaultMaxDepth is the contract's default limit on nested arrays and objects in a result,
// counting the result object itself: about where the platform's Python parser gives up. It is
// here, at the bottom, so that package normalize, which exports it (normalize.DefaultMaxDepth),
// and messages.Check, which must judge one message as Normalize judges it inside a result, read
// one constant rather than copies that could drift apart.
const DefaultMaxDepth = 1000

// MaxIntDigits is the most digits an integer literal (a number without a fraction or an
// exponent) may have, its sign not counted: what the platform's parser, CPython's json, reads.
// json.loads makes such a literal an int, and since the fix for CVE-2020-10735 (Python 3.11,
// and the 3.7-3.10 security releases of September 2022) int() refuses a string of more than
// sys.get_int_max_str_digits() digits, 4300 by default: "Exceeds the limit (4300 digits) for
// integer string conversion". A record holding a longer one cannot be read there, so it is
// malformed here too. A number with a fraction or an exponent is a float there, read at any
// length (1e400 and a 5000-digit 1.5 are inf, a value, not an error).
const MaxIntDigits = 4300
