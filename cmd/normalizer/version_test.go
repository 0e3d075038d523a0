package main

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionCommand(t *testing.T) {
	r := runCmd(t, "", nil, "version")
	r0 := r
	assert.Equal(t, 0, r.code)
	assert.Regexp(t, `^normalizer \S+.*\n`+runtime.Version()+` `+runtime.GOOS+`/`+runtime.GOARCH+`\n$`, r.stdout)

	r = runCmd(t, "", nil, "version", "-h")
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "Usage: normalizer version")

	for _, flag := range []string{"--version", "-version", "-v"} {
		v := runCmd(t, "", nil, flag)
		assert.Equal(t, 0, v.code, flag)
		assert.Equal(t, r0.stdout, v.stdout, "%s prints what version does", flag)
		assert.Empty(t, v.stderr, flag)
	}
	r = runCmd(t, "", nil, "--version", "extra")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `version: found "extra", expected no arguments`)

	r = runCmd(t, "", nil, "version", "extra")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `version: found "extra", expected no arguments`)
}

func TestVersionString(t *testing.T) {
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	tests := []struct {
		name    string
		ldflags string
		info    *debug.BuildInfo
		want    string
	}{
		{name: "ldflags win", ldflags: "v9.9.9", info: &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}}, want: "v9.9.9"},
		{name: "module version", info: &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}}, want: "v1.0.0"},
		{name: "vcs", info: vcs, want: "v1.2.3 (0123456789ab, 2026-01-02T03:04:05Z, modified)"},
		{name: "ldflags and vcs", ldflags: "v2", info: vcs, want: "v2 (0123456789ab, 2026-01-02T03:04:05Z, modified)"},
		{name: "no build info", want: "(unknown)"},
		{name: "no build info, ldflags", ldflags: "v3", want: "v3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, versionString(tt.ldflags, tt.info))
		})
	}
}
