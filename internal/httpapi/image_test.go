package httpapi

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

func TestDockerfile(t *testing.T) {
	ins := parseDockerfile(t)
	froms := find(ins, "from")
	require.GreaterOrEqual(t, len(froms), 2, "multi-stage build")
	assert.True(t, strings.HasPrefix(froms[0].args[0], "golang:1.26"), "builder image %s", froms[0].args[0])

	var build []instruction
	for _, r := range find(ins, "run") {
		if strings.Contains(r.line, "go build") {
			build = append(build, r)
		}
	}
	require.Len(t, build, 1)
	assert.Contains(t, build[0].line, buildCommand)

	base, final := finalStage(ins)
	image := base.args[0]
	distroless := strings.HasPrefix(image, "gcr.io/distroless/static") && strings.HasSuffix(image, ":nonroot")
	assert.True(t, distroless || image == "scratch", "final base %s: distroless static nonroot or scratch", image)

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
			err := checkNonRootUser(tt.user)
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
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
