package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// parseFlags parses args with fs, letting flags and operands mix in any order
// ("normalize FILE --jsonl" as well as "normalize --jsonl FILE"); "--" ends the flags.
// It returns the operands, or errHelp for -h, or a usage error.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usageErrorf("%s: %s; run 'normalizer %s -h'", fs.Name(), flagErrorText(fs, err), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// expectedForm says what a flag's value should look like, for errors: the flag package's own
// error for a number or a duration is a bare "parse error". Empty for other flags and nil.
func expectedForm(f *flag.Flag) string {
	if f == nil {
		return ""
	}
	if _, ok := f.Value.(*byteSize); ok {
		return "" // parseByteSize's errors say it
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return "; expected a duration with its unit, such as 500ms, 30s or 2m"
	case int, int64, uint, uint64:
		return "; expected a whole number"
	case float64:
		return "; expected a number such as 0.9"
	case bool:
		return "; expected true or false"
	}
	return ""
}

// flagErrorText is a parse error of the flag package as the CLI words it: the flag named as
// the help and the docs name it (--name for a long flag, -j for a one-letter one; the package
// writes -name for both) and, for a value the flag refused, the form it expects. A message
// that names no flag (bad flag syntax) is returned as it is.
func flagErrorText(fs *flag.FlagSet, err error) string {
	e, ok := splitFlagError(err.Error())
	if !ok {
		return err.Error()
	}
	text := e.before + "-" + longDash(e.name) + e.name + e.after
	if e.badValue {
		text += expectedForm(fs.Lookup(e.name))
	}
	return text
}

// flagError is a parse error of the flag package cut around the flag it names: the message
// is before + "-" + name + after.
type flagError struct {
	before, name, after string
	badValue            bool // the flag was given a value it refused
}

// splitFlagError cuts a parse error of the flag package around the flag it names. The
// package's messages are "flag provided but not defined: -name", "flag needs an argument:
// -name", "invalid value %q for flag -name: reason" and "invalid boolean value %q for -name:
// reason". The quoted value is skipped as a whole (strconv.QuotedPrefix), so a value that
// holds " for flag -x:" cannot pass for the name. ok is false for a message that names no
// flag this way (bad flag syntax).
func splitFlagError(msg string) (e flagError, ok bool) {
	for _, head := range []string{"flag provided but not defined: -", "flag needs an argument: -"} {
		if name, ok := strings.CutPrefix(msg, head); ok {
			return flagError{before: head[:len(head)-1], name: name}, true
		}
	}
	for _, p := range []struct{ head, mid string }{{"invalid value ", " for flag -"}, {"invalid boolean value ", " for -"}} {
		rest, ok := strings.CutPrefix(msg, p.head)
		if !ok {
			continue
		}
		value, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return flagError{}, false
		}
		tail, ok := strings.CutPrefix(rest[len(value):], p.mid)
		if !ok {
			return flagError{}, false
		}
		name, reason, ok := strings.Cut(tail, ":")
		if !ok {
			return flagError{}, false
		}
		return flagError{before: p.head + value + p.mid[:len(p.mid)-1], name: name, after: ":" + reason, badValue: true}, true
	}
	return flagError{}, false
}

// longDash is the second dash of a long flag's name.
func longDash(name string) string {
	if utf8.RuneCountInString(name) > 1 {
		return "-"
	}
	return ""
}

// printHelp answers -h: the subcommand's usage text, then its flags as the other
// subcommands' help lists theirs: "  --name VALUE   what it does (default D)", the
// descriptions in one column, wrapped to helpWidth, each flag named as errors and the docs
// name it (--name for a long flag, -j for a one-letter one), its value by what it takes (SIZE,
// DURATION, N, or the flag's last word: ADDR, LEVEL), sizes in units (20MiB) and durations as
// they are written (2m, 25s), then -h, --help.
func printHelp(stdout io.Writer, usage string, fs *flag.FlagSet) error {
	type row struct {
		flag  string
		words []string
	}
	var rows []row
	fs.VisitAll(func(f *flag.Flag) {
		_, text := flag.UnquoteUsage(f)
		name := "-" + longDash(f.Name) + f.Name
		if v := helpValue(f); v != "" {
			name += " " + v
		}
		words := strings.Fields(text)
		if d := helpDefault(f); d != "" {
			words = append(words, "(default "+d+")") // one word: never broken
		}
		rows = append(rows, row{name, words})
	})
	rows = append(rows, row{"-h, --help", []string{"show", "this", "help"}})
	column := 0
	for _, r := range rows {
		column = max(column, len(r.flag))
	}
	column += 2 + 3 // the indent, and the gap before the description
	var b strings.Builder
	b.WriteString(usage)
	for _, r := range rows {
		for i, line := range wrapWords(r.words, helpWidth-column) {
			left := ""
			if i == 0 {
				left = "  " + r.flag
			}
			fmt.Fprintf(&b, "%-*s%s\n", column, left, line)
		}
	}
	fmt.Fprint(stdout, b.String())
	return nil
}

// helpWidth is the widest line of a flag listing.
const helpWidth = 96

// helpValue names what a flag takes, for its help line: "" for a boolean.
func helpValue(f *flag.Flag) string {
	switch f.Value.(type) {
	case *byteSize, *budgetFlag:
		return "SIZE"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "VALUE"
	}
	switch g.Get().(type) {
	case bool:
		return ""
	case time.Duration:
		return "DURATION"
	case int, int64, uint, uint64:
		return "N"
	case float64:
		return "X"
	}
	last := f.Name[strings.LastIndexByte(f.Name, '-')+1:]
	return strings.ToUpper(last)
}

// helpDefault is a flag's default as its help line gives it: sizes in units (byteSize's
// String), durations without their zero parts (2m, not 2m0s); "" for a zero default, which is
// left out.
func helpDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "0s", "false":
		return ""
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, ok := g.Get().(time.Duration); ok {
			if d, err := time.ParseDuration(f.DefValue); err == nil {
				return shortDuration(d)
			}
		}
	}
	return f.DefValue
}

// shortDuration writes d as time.Duration does, without the zero units it ends with: 2m, 1h30m,
// 25s, 500ms.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// wrapWords puts words on lines of at most width bytes, a space between two (a longer word gets
// a line of its own). A line never starts with a dash, so that a continuation line cannot be
// taken for a flag's line: the word before goes with it, over the width if it must.
func wrapWords(words []string, width int) []string {
	var lines []string
	for len(words) > 0 {
		n, size := 1, len(words[0])
		for n < len(words) && size+1+len(words[n]) <= width {
			size += 1 + len(words[n])
			n++
		}
		for n > 1 && n < len(words) && strings.HasPrefix(words[n], "-") {
			n--
		}
		for n < len(words) && strings.HasPrefix(words[n], "-") { // over width, rather than a dash first
			n++
		}
		lines = append(lines, strings.Join(words[:n], " "))
		words = words[n:]
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	return lines
}

// noOperands refuses operands for a subcommand that takes none.
// parseNoOperands is parseFlags for a subcommand that takes no operands. With -h it prints the
// help and reports done, for the subcommand to return at once.
func parseNoOperands(fs *flag.FlagSet, args []string, usage string, stdout io.Writer) (done bool, err error) {
	operands, err := parseFlags(fs, args)
	if errors.Is(err, errHelp) {
		return true, printHelp(stdout, usage, fs)
	}
	if err != nil {
		return false, err
	}
	return false, noOperands(fs.Name(), operands)
}

func noOperands(name string, operands []string) error {
	if len(operands) > 0 {
		return usageErrorf("%s: found %q, expected no arguments", name, strings.Join(operands, " "))
	}
	return nil
}

// errHelp is returned by parseFlags for -h; the subcommand prints its help on stdout.
var errHelp = errors.New("help requested")

// byteSize is a flag.Value for a number of bytes: 1048576, 512KiB, 20MiB, 1GiB, 5MB, 1e6.
type byteSize int64

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
	{"B", 1},
}

// String writes the size in the largest binary unit that divides it (20MiB, 64KiB), else in
// bytes: what Set reads back, and what help texts show.
func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

func parseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(t, 64)
		if ferr != nil || f != float64(int64(f)) {
			return 0, fmt.Errorf("found %q, expected a whole number of bytes such as 1048576, 512KiB or 20MiB", s)
		}
		n = int64(f)
	}
	if n < 0 {
		return 0, fmt.Errorf("found %q, expected a size of 0 or more", s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("found %q, expected a size below 8 EiB", s)
	}
	return n * mult, nil
}

// budgetFlag is --memory-budget: auto (a share of the Go soft memory limit, when one is in
// force), off, or a size (0 is off too).
type budgetFlag struct {
	auto bool
	size byteSize
}

func (b *budgetFlag) String() string {
	switch {
	case b.auto:
		return "auto"
	case b.size == 0:
		return "off"
	}
	return b.size.String()
}

func (b *budgetFlag) Set(s string) error {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "auto", "off":
		b.auto, b.size = t == "auto", 0
		return nil
	}
	var size byteSize
	if err := size.Set(s); err != nil {
		return fmt.Errorf("%v, or auto, or off", err)
	}
	b.auto, b.size = false, size
	return nil
}
