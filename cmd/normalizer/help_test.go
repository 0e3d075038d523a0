package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// subcommands are every subcommand with a help text.
var subcommands = []string{"normalize", "check", "serve", "healthcheck", "version"}

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
