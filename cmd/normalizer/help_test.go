package main

import (
	"flag"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// subcommands are every subcommand with a help text.
var subcommands = []string{"normalize", "check", "serve", "healthcheck", "version", "view"}

// helpFlags are the flags a help text lists: the first word of each line that starts, after
// its indent, with a dash ("  --addr string", "  -j N", "  -h, --help").
func helpFlags(help string) []string {
	var flags []string
	for _, line := range strings.Split(help, "\n") {
		if !strings.HasPrefix(line, "  ") {
			continue
		}
		word, _, _ := strings.Cut(strings.TrimLeft(line, " "), " ")
		word = strings.TrimRight(word, ",")
		if strings.HasPrefix(word, "-") {
			flags = append(flags, word)
		}
	}
	return flags
}

// TestHelpNamesFlagsAsErrorsDo: every help lists a long flag as --name and a one-letter flag
// as -x, the spelling errors use; for serve and healthcheck (whose listing comes from the
// flag package, which writes -name for both) the error for each listed flag given without
// its value names it exactly as the help does.
func TestHelpNamesFlagsAsErrorsDo(t *testing.T) {
	for _, cmd := range subcommands {
		t.Run(cmd, func(t *testing.T) {
			r := runCmd(t, "", nil, cmd, "-h")
			require.Equal(t, 0, r.code, r.stderr)
			for _, flag := range helpFlags(r.stdout) {
				name := strings.TrimLeft(flag, "-")
				want := "-" + name
				if utf8.RuneCountInString(name) > 1 {
					want = "--" + name
				}
				assert.Equal(t, want, flag, "%s -h lists a flag as %q", cmd, flag)
			}
		})
	}
	for _, cmd := range []string{"serve", "healthcheck"} {
		t.Run(cmd+" errors", func(t *testing.T) {
			flags := helpFlags(runCmd(t, "", nil, cmd, "-h").stdout)
			require.NotEmpty(t, flags)
			for _, flag := range flags {
				if flag == "-h" { // "-h, --help"
					continue
				}
				r := runCmd(t, "", nil, cmd, flag)
				assert.Equal(t, exitUsage, r.code)
				assert.Contains(t, r.stderr, "flag needs an argument: "+flag+";", "%s -h lists %s", cmd, flag)
			}
		})
	}
}

// TestHelpLineWidths: no line of a subcommand's help is wider than 100 columns (a tab, which
// the flag package's listing indents with, counts to the next multiple of 8).
func TestHelpLineWidths(t *testing.T) {
	for _, cmd := range subcommands {
		t.Run(cmd, func(t *testing.T) {
			r := runCmd(t, "", nil, cmd, "-h")
			require.Equal(t, 0, r.code, r.stderr)
			for _, line := range strings.Split(r.stdout, "\n") {
				assert.LessOrEqual(t, columns(line), 100, "%s -h: %q", cmd, line)
			}
		})
	}
	r := runCmd(t, "", nil, "-h")
	for _, line := range strings.Split(r.stdout, "\n") {
		assert.LessOrEqual(t, columns(line), 100, "normalizer -h: %q", line)
	}
}

// columns is the width of line on a terminal with tab stops every 8 columns.
func columns(line string) int {
	n := 0
	for _, r := range line {
		if r == '\t' {
			n += 8 - n%8
			continue
		}
		n++
	}
	return n
}

// serve -h lists its flags as normalize -h and check -h do: "  --name VALUE", then the
// description in one column, sizes in units and durations as written, then -h, --help.
func TestServeHelpLayout(t *testing.T) {
	r := runCmd(t, "", nil, "serve", "-h")
	require.Equal(t, 0, r.code, r.stderr)
	_, listing, ok := strings.Cut(r.stdout, "\nFlags:\n")
	require.True(t, ok, r.stdout)
	for _, want := range []string{
		"--body-limit SIZE ", "(default 20MiB)", "--max-header-bytes SIZE ", "(default 64KiB)",
		"--linger-bytes SIZE ", "(default 256MiB)", "--idle-timeout DURATION ", "(default 2m)",
		"(default 25s)", "--read-timeout DURATION ", "(default 1m)", "--max-in-flight N ", "--addr ADDR ",
		"--memory-limit-ratio X ", "(default 0.9)", "--memory-budget SIZE ", "(default auto)",
	} {
		assert.Contains(t, listing, want)
	}
	assert.NotRegexp(t, `\d{7,}|\dm0s|\dh0m`, listing, "a size in bytes or a duration with its zero units")
	assert.True(t, strings.HasSuffix(listing, "  -h, --help                       show this help\n"), listing)
	lines := strings.Split(strings.TrimSuffix(listing, "\n"), "\n")
	column := strings.Index(lines[0], "address to listen on")
	require.Positive(t, column)
	var fs serveFlags
	flags := 0
	newServeFlagSet(&fs).VisitAll(func(*flag.Flag) { flags++ })
	listed := 0
	for _, line := range lines {
		if strings.HasPrefix(line, "  -") {
			listed++
			assert.Equal(t, " ", line[column-1:column], "the description starts at column %d: %q", column, line)
			assert.NotEqual(t, " ", line[column:column+1], "%q", line)
		} else {
			assert.Equal(t, strings.Repeat(" ", column), line[:column], "a continuation line is in the description's column: %q", line)
		}
	}
	assert.Equal(t, flags+1, listed, "every flag, and -h")
}

func TestWrapWords(t *testing.T) {
	assert.Equal(t, []string{"one two", "three"}, wrapWords([]string{"one", "two", "three"}, 8))
	assert.Equal(t, []string{"a", "longerthanwidth", "b"}, wrapWords([]string{"a", "longerthanwidth", "b"}, 5))
	assert.Equal(t, []string{"aaa", "bb --flag"}, wrapWords([]string{"aaa", "bb", "--flag"}, 7), "no line starts with a dash")
	assert.Equal(t, []string{""}, wrapWords(nil, 10))
}

func TestByteSizeString(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1: "1", 1023: "1023", 1024: "1KiB", 20 << 20: "20MiB", 3 << 30: "3GiB", 1536: "1536", 1<<20 + 1024: "1025KiB"} {
		b := byteSize(n)
		assert.Equal(t, want, b.String())
		var back byteSize
		require.NoError(t, back.Set(b.String()))
		assert.Equal(t, n, int64(back), "String is what Set reads")
	}
}
