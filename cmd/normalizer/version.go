package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3"; when empty, the
// module version from the build information is used.
var version string

const versionUsage = `Usage: normalizer version

Prints the version of normalizer (set with -ldflags "-X main.version=...", else the
module version and the VCS revision recorded by the Go toolchain), then the Go version
and platform it was built with.
`

// runVersion is `normalizer version`.
func runVersion(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if done, err := parseNoOperands(fs, args, versionUsage, stdout); done || err != nil {
		return err
	}
	fmt.Fprintf(stdout, "normalizer %s\n", buildVersion())
	fmt.Fprintf(stdout, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

// buildVersion is the version of this binary, as `normalizer version` prints it and serve logs
// it at start-up.
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionString(version, info)
}

// versionString describes the build: the -X version or the module version, then the VCS
// revision, time and dirty flag when the toolchain recorded them.
func versionString(ldflags string, info *debug.BuildInfo) string {
	v := ldflags
	if v == "" && info != nil {
		v = info.Main.Version
	}
	if v == "" {
		v = "(unknown)"
	}
	if info == nil {
		return v
	}
	var rev, at, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if at != "" {
		at = ", " + at
	}
	return fmt.Sprintf("%s (%s%s%s)", v, rev, at, dirty)
}
