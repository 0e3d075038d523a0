// Package deploycheck is what the deployment checks share: the Dockerfile's (deploy/docker)
// and the Kubernetes manifests' (deploy/kubernetes) tests both read image references, and both
// are tables of cases that expect an error or none.
package deploycheck

import (
	"fmt"
	"testing"

	"github.com/distribution/reference"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Image is an image reference as docker reads it: its familiar name (golang,
// gcr.io/distroless/static-debian12), and its tag and digest, each empty when absent.
type Image struct{ Name, Tag, Digest string }

// ParseImage parses ref as docker and kustomize do.
func ParseImage(ref string) (Image, error) {
	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		return Image{}, fmt.Errorf("image %q: %v", ref, err)
	}
	img := Image{Name: reference.FamiliarName(named)}
	if tg, ok := named.(reference.Tagged); ok {
		img.Tag = tg.Tag()
	}
	if dg, ok := named.(reference.Digested); ok {
		img.Digest = dg.Digest().String()
	}
	return img, nil
}

// ErrorWants checks a table case's error: none when want is empty, else one whose text holds
// want.
func ErrorWants(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		assert.NoError(t, err)
		return
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), want)
}
