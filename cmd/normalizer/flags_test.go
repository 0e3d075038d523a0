package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFlagErrorDashes: a flag parse error names the flag as the help and the docs do, --name
// for a long flag and -j for a one-letter one, whatever the user typed and whatever the
// value holds.
func TestFlagErrorDashes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string // the whole of stderr
	}{
		{name: "unknown long flag", args: []string{"check", "--explainx", "x"},
			stderr: "normalizer: check: flag provided but not defined: --explainx; run 'normalizer check -h'\n"},
		{name: "unknown long flag typed with one dash", args: []string{"normalize", "-frobnicate"},
			stderr: "normalizer: normalize: flag provided but not defined: --frobnicate; run 'normalizer normalize -h'\n"},
		{name: "unknown one-letter flag", args: []string{"normalize", "-x"},
			stderr: "normalizer: normalize: flag provided but not defined: -x; run 'normalizer normalize -h'\n"},
		{name: "bad value", args: []string{"normalize", "--max-bytes", "1XB"},
			stderr: "normalizer: normalize: invalid value \"1XB\" for flag --max-bytes: found \"1XB\", expected a whole number of bytes such as 1048576, 512KiB or 20MiB; run 'normalizer normalize -h'\n"},
		// The flag package's message holds the value before the flag's name: a value that
		// looks like the rest of the message must not pass for another flag (-j, an int, would
		// add "expected a whole number"; --idle-timeout's hint would be lost).
		{name: "a value that looks like the message", args: []string{"normalize", "--max-bytes", "1 for flag -j: x"},
			stderr: "normalizer: normalize: invalid value \"1 for flag -j: x\" for flag --max-bytes: found \"1 for flag -j: x\", expected a whole number of bytes such as 1048576, 512KiB or 20MiB; run 'normalizer normalize -h'\n"},
		{name: "a duration value that looks like the message", args: []string{"serve", "--idle-timeout", "5 for flag -j: x"},
			stderr: "normalizer: serve: invalid value \"5 for flag -j: x\" for flag --idle-timeout: parse error; expected a duration with its unit, such as 500ms, 30s or 2m; run 'normalizer serve -h'\n"},
		{name: "a boolean value that looks like the message", args: []string{"normalize", "--jsonl= for -j: x"},
			stderr: "normalizer: normalize: invalid boolean value \" for -j: x\" for --jsonl: parse error; expected true or false; run 'normalizer normalize -h'\n"},
		{name: "bad boolean", args: []string{"normalize", "--jsonl=maybe"},
			stderr: "normalizer: normalize: invalid boolean value \"maybe\" for --jsonl: parse error; expected true or false; run 'normalizer normalize -h'\n"},
		{name: "one-letter flag without its value", args: []string{"normalize", "--jsonl", "-j"},
			stderr: "normalizer: normalize: flag needs an argument: -j; run 'normalizer normalize -h'\n"},
		{name: "long flag without its value", args: []string{"normalize", "--max-depth"},
			stderr: "normalizer: normalize: flag needs an argument: --max-depth; run 'normalizer normalize -h'\n"},
		{name: "bad syntax is left as typed", args: []string{"normalize", "---x"},
			stderr: "normalizer: normalize: bad flag syntax: ---x; run 'normalizer normalize -h'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", nil, tt.args...)
			assert.Equal(t, 2, r.code)
			assert.Equal(t, tt.stderr, r.stderr)
		})
	}
}
