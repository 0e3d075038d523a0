// Package docker checks the Dockerfile at the repository's root: its stages, base images,
// user, build command and health check, without a Docker engine (buildkit's own parser reads it).
package docker

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/deploy/internal/deploycheck"
)

// buildCommand is the one way the binary is built, in the Dockerfile and in
// scripts/build-static.sh alike.
const buildCommand = `CGO_ENABLED=0 go build -trimpath -pgo=auto -ldflags "-s -w -X main.version=${VERSION}"`

type instruction struct {
	cmd   string   // lower case: from, run, healthcheck, ...
	args  []string // the words after the instruction
	flags []string
	json  bool // exec form
	line  string
}

func parseDockerfile(t *testing.T) []instruction {
	t.Helper()
	f, err := os.Open("../../Dockerfile")
	require.NoError(t, err)
	defer f.Close()
	res, err := parser.Parse(f)
	require.NoError(t, err)
	require.Empty(t, res.Warnings)
	var out []instruction
	for _, n := range res.AST.Children {
		in := instruction{cmd: strings.ToLower(n.Value), flags: n.Flags, json: n.Attributes["json"], line: n.Original}
		for a := n.Next; a != nil; a = a.Next {
			in.args = append(in.args, a.Value)
		}
		out = append(out, in)
	}
	return out
}

// finalStage returns the instructions after the last FROM.
func finalStage(ins []instruction) (from instruction, rest []instruction) {
	for i := len(ins) - 1; i >= 0; i-- {
		if ins[i].cmd == "from" {
			return ins[i], ins[i+1:]
		}
	}
	return instruction{}, nil
}

func find(ins []instruction, cmd string) []instruction {
	var out []instruction
	for _, in := range ins {
		if in.cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

// globalArgs returns the ARGs declared before the first FROM, the only ones a FROM line can
// use, with their defaults (expanded, as the builder expands them) and whether each has one.
func globalArgs(t *testing.T, ins []instruction) map[string]*string {
	t.Helper()
	args := map[string]*string{}
	var env []string
	for _, in := range ins {
		if in.cmd == "from" {
			break
		}
		if in.cmd != "arg" {
			continue
		}
		for _, a := range in.args {
			name, def, hasDefault := strings.Cut(a, "=")
			if !hasDefault {
				args[name] = nil
				continue
			}
			v, _, err := shell.NewLex('\\').ProcessWord(def, shell.EnvsFromSlice(env))
			require.NoError(t, err, in.line)
			args[name] = &v
			env = append(env, name+"="+v)
		}
	}
	return args
}

// baseImage is the image a FROM line names once its variables are expanded with the global
// ARGs' values: their defaults, overridden by build (what --build-arg NAME=value gives).
// Every variable it uses must be a global ARG with a value, or the build would pull an image
// named by an empty string.
func baseImage(from instruction, args map[string]*string, build map[string]string) (string, error) {
	if len(from.args) == 0 {
		return "", fmt.Errorf("%s: no image", from.line)
	}
	var env []string
	for name, def := range args {
		if v, ok := build[name]; ok {
			env = append(env, name+"="+v)
		} else if def != nil {
			env = append(env, name+"="+*def)
		}
	}
	res, err := shell.NewLex('\\').ProcessWordWithMatches(from.args[0], shell.EnvsFromSlice(env))
	if err != nil {
		return "", fmt.Errorf("%s: %v", from.line, err)
	}
	if len(res.Unmatched) > 0 {
		return "", fmt.Errorf("%s: %s is not a global ARG with a value; expected ARG NAME=default before the first FROM", from.line, strings.Join(slices.Sorted(maps.Keys(res.Unmatched)), ", "))
	}
	return res.Result, nil
}

// checkBuilderImage: the build stage is Go 1.26's official image, by tag, optionally pinned to a
// digest (golang:1.26@sha256:...), never a moving latest.
func checkBuilderImage(image string) error {
	img, err := deploycheck.ParseImage(image)
	if err != nil {
		return err
	}
	name, tag := img.Name, img.Tag
	if name != "golang" || (tag != "1.26" && !strings.HasPrefix(tag, "1.26.") && !strings.HasPrefix(tag, "1.26-")) {
		return fmt.Errorf("builder image %s; expected golang:1.26 (a 1.26 tag, optionally @sha256:...)", image)
	}
	return nil
}

// checkRuntimeImage: the final stage is distroless static as its nonroot variant (no shell, no
// libc), or scratch, optionally pinned to a digest.
func checkRuntimeImage(image string) error {
	if image == "scratch" {
		return nil
	}
	img, err := deploycheck.ParseImage(image)
	if err != nil {
		return err
	}
	name, tag := img.Name, img.Tag
	if !strings.HasPrefix(name, "gcr.io/distroless/static") || tag != "nonroot" {
		return fmt.Errorf("final base image %s; expected gcr.io/distroless/static*:nonroot (optionally @sha256:...) or scratch", image)
	}
	return nil
}

func TestDockerfile(t *testing.T) {
	ins := parseDockerfile(t)
	froms := find(ins, "from")
	require.GreaterOrEqual(t, len(froms), 2, "multi-stage build")
	args := globalArgs(t, ins)
	builder, err := baseImage(froms[0], args, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(builder, "golang:1.26"), "builder image %s", builder)
	assert.NoError(t, checkBuilderImage(builder))

	var build []instruction
	for _, r := range find(ins, "run") {
		if strings.Contains(r.line, "go build") {
			build = append(build, r)
		}
	}
	require.Len(t, build, 1)
	assert.Contains(t, build[0].line, buildCommand)

	base, final := finalStage(ins)
	image, err := baseImage(base, args, nil)
	require.NoError(t, err)
	distroless := strings.HasPrefix(image, "gcr.io/distroless/static") && strings.HasSuffix(image, ":nonroot")
	assert.True(t, distroless || image == "scratch", "final base %s: distroless static nonroot or scratch", image)
	assert.NoError(t, checkRuntimeImage(image))

	users := find(final, "user")
	require.NotEmpty(t, users, "the final stage sets a USER")
	require.Len(t, users[len(users)-1].args, 1, "USER user[:group]")
	assert.NoError(t, checkNonRootUser(users[len(users)-1].args[0]))

	expose := find(final, "expose")
	require.Len(t, expose, 1)
	assert.Equal(t, []string{"8080"}, expose[0].args)

	hc := find(final, "healthcheck")
	require.Len(t, hc, 1)
	require.NotEmpty(t, hc[0].args)
	assert.Equal(t, "CMD", hc[0].args[0])
	assert.Equal(t, []string{"/normalizer", "healthcheck"}, hc[0].args[1:], "exec form, no shell")
	assert.Contains(t, hc[0].line, `["/normalizer", "healthcheck"]`)

	ep := find(final, "entrypoint")
	require.Len(t, ep, 1)
	assert.True(t, ep[0].json, "ENTRYPOINT in exec form")
	assert.Equal(t, []string{"/normalizer"}, ep[0].args)
	if cmd := find(final, "cmd"); len(cmd) > 0 {
		assert.True(t, cmd[len(cmd)-1].json, "CMD in exec form")
	}
	copies := find(final, "copy")
	require.NotEmpty(t, copies)
	assert.Contains(t, copies[0].flags, "--from=build")
}

// A release pipeline pins the base images by digest with --build-arg, without editing the
// Dockerfile: each FROM names its image through a global ARG whose default is the tag, and the
// pinned references still meet the rules above.
func TestBaseImagesPinnedByBuildArg(t *testing.T) {
	ins := parseDockerfile(t)
	args := globalArgs(t, ins)
	froms := find(ins, "from")
	stages := map[string]instruction{"BUILDER_IMAGE": froms[0], "RUNTIME_IMAGE": froms[len(froms)-1]}
	for name, from := range stages {
		require.Contains(t, args, name, "the Dockerfile declares ARG %s before the first FROM", name)
		require.NotNil(t, args[name], "ARG %s has a default, so a plain docker build works", name)
		assert.Equal(t, "${"+name+"}", from.args[0], "%s names its image through ARG %s", from.line, name)
	}
	const digest = "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	build := map[string]string{"BUILDER_IMAGE": *args["BUILDER_IMAGE"] + digest, "RUNTIME_IMAGE": *args["RUNTIME_IMAGE"] + digest}
	builder, err := baseImage(stages["BUILDER_IMAGE"], args, build)
	require.NoError(t, err)
	assert.Equal(t, build["BUILDER_IMAGE"], builder)
	assert.NoError(t, checkBuilderImage(builder))
	runtime, err := baseImage(stages["RUNTIME_IMAGE"], args, build)
	require.NoError(t, err)
	assert.Equal(t, build["RUNTIME_IMAGE"], runtime)
	assert.NoError(t, checkRuntimeImage(runtime))
}

func TestBaseImage(t *testing.T) {
	def := func(s string) *string { return &s }
	args := map[string]*string{"IMG": def("golang:1.26"), "NODEF": nil}
	tests := []struct {
		name    string
		from    string
		build   map[string]string
		want    string
		wantErr string
	}{
		{name: "literal", from: "golang:1.26", want: "golang:1.26"},
		{name: "default", from: "${IMG}", want: "golang:1.26"},
		{name: "short form", from: "$IMG", want: "golang:1.26"},
		{name: "build arg wins", from: "${IMG}", build: map[string]string{"IMG": "golang:1.26@sha256:abc"}, want: "golang:1.26@sha256:abc"},
		{name: "no default, given", from: "${NODEF}", build: map[string]string{"NODEF": "scratch"}, want: "scratch"},
		{name: "no default", from: "${NODEF}", wantErr: "NODEF is not a global ARG with a value"},
		{name: "undeclared", from: "${OTHER}", wantErr: "OTHER is not a global ARG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := baseImage(instruction{cmd: "from", args: []string{tt.from}, line: "FROM " + tt.from}, args, tt.build)
			deploycheck.ErrorWants(t, err, tt.wantErr)
			if err == nil {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

func TestCheckBaseImages(t *testing.T) {
	const digest = "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name    string
		check   func(string) error
		image   string
		wantErr string
	}{
		{name: "builder tag", check: checkBuilderImage, image: "golang:1.26"},
		{name: "builder patch tag", check: checkBuilderImage, image: "golang:1.26.8"},
		{name: "builder variant", check: checkBuilderImage, image: "golang:1.26-bookworm"},
		{name: "builder pinned", check: checkBuilderImage, image: "golang:1.26" + digest},
		{name: "builder on docker.io", check: checkBuilderImage, image: "docker.io/library/golang:1.26"},
		{name: "builder latest", check: checkBuilderImage, image: "golang:latest", wantErr: "expected golang:1.26"},
		{name: "builder other minor", check: checkBuilderImage, image: "golang:1.260", wantErr: "expected golang:1.26"},
		{name: "builder digest only", check: checkBuilderImage, image: "golang" + digest, wantErr: "expected golang:1.26"},
		{name: "builder malformed", check: checkBuilderImage, image: "golang:", wantErr: "invalid reference format"},
		{name: "runtime tag", check: checkRuntimeImage, image: "gcr.io/distroless/static-debian12:nonroot"},
		{name: "runtime pinned", check: checkRuntimeImage, image: "gcr.io/distroless/static-debian12:nonroot" + digest},
		{name: "runtime scratch", check: checkRuntimeImage, image: "scratch"},
		{name: "runtime as root", check: checkRuntimeImage, image: "gcr.io/distroless/static-debian12:latest", wantErr: "expected gcr.io/distroless/static*:nonroot"},
		{name: "runtime with a shell", check: checkRuntimeImage, image: "gcr.io/distroless/static-debian12:debug-nonroot", wantErr: "expected gcr.io/distroless/static*:nonroot"},
		{name: "runtime with libc", check: checkRuntimeImage, image: "gcr.io/distroless/base-debian12:nonroot", wantErr: "expected gcr.io/distroless/static*:nonroot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deploycheck.ErrorWants(t, tt.check(tt.image), tt.wantErr)
		})
	}
}

// checkNonRootUser checks a USER value, user[:group]: the user part must name someone other
// than root, whatever the group. A numeric user is a uid as the runtime parses it, so 00 is
// root too; a variable cannot be checked here, so it is refused. The group may be 0: it gives
// no root privileges (and some platforms run images as an arbitrary uid in group 0).
func checkNonRootUser(user string) error {
	name, _, _ := strings.Cut(user, ":")
	if strings.Contains(user, "$") {
		return fmt.Errorf("USER %s: a variable; expected a literal non-root user", user)
	}
	if name == "" {
		return fmt.Errorf("USER %s: no user; expected a non-root user such as 65532:65532", user)
	}
	if uid, err := strconv.ParseUint(name, 10, 32); name == "root" || (err == nil && uid == 0) {
		return fmt.Errorf("USER %s: user %s is root; expected a non-root user such as 65532:65532", user, name)
	}
	return nil
}

func TestCheckNonRootUser(t *testing.T) {
	tests := []struct {
		name    string
		user    string
		wantErr string
	}{
		{name: "distroless nonroot ids", user: "65532:65532"},
		{name: "uid only", user: "65532"},
		{name: "named", user: "nonroot"},
		{name: "named with group", user: "nonroot:nonroot"},
		{name: "root group", user: "65532:0"},
		{name: "root", user: "root", wantErr: "is root"},
		{name: "uid 0", user: "0", wantErr: "is root"},
		{name: "uid 0 group 0", user: "0:0", wantErr: "is root"},
		{name: "root with root group", user: "root:root", wantErr: "is root"},
		{name: "uid 0 with a non-root group", user: "0:65532", wantErr: "is root"},
		{name: "root with a non-root group", user: "root:nonroot", wantErr: "is root"},
		{name: "uid 0 with leading zeros", user: "000:65532", wantErr: "is root"},
		{name: "no user", user: ":65532", wantErr: "no user"},
		{name: "variable", user: "${UID}:65532", wantErr: "a variable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deploycheck.ErrorWants(t, checkNonRootUser(tt.user), tt.wantErr)
		})
	}
}

func TestBuildStaticScriptMatchesDockerfile(t *testing.T) {
	b, err := os.ReadFile("../../scripts/build-static.sh")
	require.NoError(t, err)
	assert.Contains(t, string(b), buildCommand+` -o "$out" ./cmd/normalizer`)
	d, err := os.ReadFile("../../Dockerfile")
	require.NoError(t, err)
	assert.Contains(t, string(d), buildCommand+` -o /out/normalizer ./cmd/normalizer`)
}

// docs/http.md's "Docker" section quotes the build command and names the base images' ARGs: the
// quote must be the Dockerfile's, not an older one.
func TestDocsQuoteTheDockerfile(t *testing.T) {
	b, err := os.ReadFile("../../docs/http.md")
	require.NoError(t, err)
	_, section, found := strings.Cut(string(b), "\n## Docker\n")
	require.True(t, found, "docs/http.md has a \"## Docker\" section")
	section, _, _ = strings.Cut(section, "\n## ")
	assert.True(t, strings.Contains(section, "`"+buildCommand+"`"), "the section does not quote the build command as the Dockerfile runs it: `%s`", buildCommand)
	for name := range globalArgs(t, parseDockerfile(t)) {
		assert.True(t, strings.Contains(section, "`"+name+"`"), "the section does not name the Dockerfile's ARG `%s`", name)
	}
}

func TestDockerignoreKeepsBuildInputs(t *testing.T) {
	b, err := os.ReadFile("../../.dockerignore")
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		for _, needed := range []string{"go.mod", "go.sum", "cmd", "pkg", "internal", "schemas"} {
			assert.NotEqual(t, needed, line, "the build needs %s", needed)
		}
	}
	assert.Contains(t, string(b), ".git\n")
}
