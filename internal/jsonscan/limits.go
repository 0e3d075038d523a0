package jsonscan

// DefaultMaxDepth is the contract's default limit on nested arrays and objects in a result,
// counting the result object itself, with a margin under where the platform's parser, CPython's
// json, gives up. Python 3.11's json counts each level against the interpreter's recursion limit
// (sys.getrecursionlimit(), 1000), less every Python frame on the stack when json.loads is
// called: it reads 995 levels at a module's top level, 976 in a Flask view, and RecursionError
// past that; 3.12 reads 1497 and 3.13 9998, whatever the call depth. A record nests no deeper
// than its result, so at 900 a record is read by json.loads called up to 96 frames deep. It is
// here, at the bottom, so that package normalize, which exports it (normalize.DefaultMaxDepth),
// and messages.Check, which must judge one message as Normalize judges it inside a result, read
// one constant rather than copies that could drift apart.
const DefaultMaxDepth = 900

// pythonMaxDepth is the deepest nesting Python 3.11's json reads at a module's top level (at
// its default recursion limit): what the message of the default limit names.
const pythonMaxDepth = 995

// MaxIntDigits is the most digits an integer literal (a number without a fraction or an
// exponent) may have, its sign not counted: what the platform's parser, CPython's json, reads.
// json.loads makes such a literal an int, and since the fix for CVE-2020-10735 (Python 3.11,
// and the 3.7-3.10 security releases of September 2022) int() refuses a string of more than
// sys.get_int_max_str_digits() digits, 4300 by default: "Exceeds the limit (4300 digits) for
// integer string conversion". A record holding a longer one cannot be read there, so it is
// malformed here too. A number with a fraction or an exponent is a float there, read at any
// length (1e400 and a 5000-digit 1.5 are inf, a value, not an error).
const MaxIntDigits = 4300
