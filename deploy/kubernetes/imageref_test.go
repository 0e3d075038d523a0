package kubernetes

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/deploy/internal/deploycheck"
)

// placeholderTag is the tag deployment.yaml and kustomization.yaml carry until whoever deploys
// sets the version (docs/http.md, "Kubernetes"): it names no image, so the pull fails instead of
// running whatever a moving tag points at.
const placeholderTag = "unset-version"

// versionTag is what a pinned tag looks like: the VERSION the image was built with, as
// `git describe --tags --always` prints it (v1.2.3, v1.2.3-4-gabc1234, or a bare commit).
// latest, dev, main and the like move, so they are not versions.
var versionTag = regexp.MustCompile(`^(v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z][0-9A-Za-z.-]*)?|[0-9a-f]{7,40})$`)

// pinnedImage checks that an image reference names one build: a digest, or a version tag (or
// the placeholder). An untagged reference pulls latest, so it is rejected like :latest.
func pinnedImage(ref string) error {
	img, err := deploycheck.ParseImage(ref)
	switch {
	case err != nil:
		return err
	case img.Digest != "":
		return nil
	case img.Tag == "":
		return fmt.Errorf("image %q has no tag, so it pulls latest; expected a version tag such as :v1.2.3", ref)
	case img.Tag == "latest":
		return fmt.Errorf("image %q: latest moves; expected a version tag such as :v1.2.3", ref)
	case img.Tag != placeholderTag && !versionTag.MatchString(img.Tag):
		return fmt.Errorf("image %q: tag %q is not a version (vX.Y.Z, git describe, or %q); expected a tag that names one build", ref, img.Tag, placeholderTag)
	}
	return nil
}

// kustomization is the part of kustomize's Kustomization type (sigs.k8s.io/kustomize/api/types,
// too large a module for one test) these manifests use. Decoded strictly, a field outside it
// fails the test: add it here, with a check, when the kustomization needs it.
type kustomization struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Resources  []string         `json:"resources"`
	Images     []kustomizeImage `json:"images"`
}

// kustomizeImage is kustomize's images entry: it rewrites every image named Name.
type kustomizeImage struct {
	Name    string `json:"name"`
	NewName string `json:"newName,omitempty"`
	NewTag  string `json:"newTag,omitempty"`
	Digest  string `json:"digest,omitempty"`
}

// imageName is the reference without its tag or digest, as kustomize matches it.
func imageName(ref string) (string, error) {
	img, err := deploycheck.ParseImage(ref)
	return img.Name, err
}

// apply returns the image kustomize runs for ref: unchanged unless the entry names it, else
// with the entry's new name, tag or digest (a digest replaces the tag).
func (k kustomizeImage) apply(ref string) (string, error) {
	name, err := imageName(ref)
	if err != nil {
		return "", err
	}
	want, err := imageName(k.Name)
	if err != nil {
		return "", err
	}
	if name != want {
		return ref, nil
	}
	img, _ := deploycheck.ParseImage(ref)
	if k.NewName != "" {
		name = k.NewName
	}
	switch {
	case k.Digest != "":
		return name + "@" + k.Digest, nil
	case k.NewTag != "":
		return name + ":" + k.NewTag, nil
	}
	if img.Digest != "" {
		return name + "@" + img.Digest, nil
	}
	if img.Tag != "" {
		return name + ":" + img.Tag, nil
	}
	return name, nil
}

func TestKustomization(t *testing.T) {
	var k kustomization
	decodeStrict(t, "kustomization.yaml", &k, "Kustomization")
	assert.Equal(t, "kustomize.config.k8s.io/v1beta1", k.APIVersion)

	files, err := filepath.Glob("*.yaml")
	require.NoError(t, err)
	files = slices.DeleteFunc(files, func(f string) bool { return f == "kustomization.yaml" })
	assert.ElementsMatch(t, files, k.Resources, "kubectl apply -k applies every manifest")

	d, _ := loadDeployment(t)
	var images []string
	for _, c := range d.Spec.Template.Spec.Containers {
		assert.NoError(t, pinnedImage(c.Image), "deployment.yaml, applied without kustomize")
		images = append(images, c.Image)
	}
	require.NotEmpty(t, k.Images, "the kustomization sets the image's version")
	for _, entry := range k.Images {
		assert.True(t, matchesAny(t, entry, images), "images entry %q names no image of the Deployment: it would change nothing", entry.Name)
	}
	for _, img := range images {
		for _, entry := range k.Images {
			img, err = entry.apply(img)
			require.NoError(t, err)
		}
		assert.NoError(t, pinnedImage(img), "the image kubectl apply -k runs")
	}
}

// matchesAny reports whether the images entry names one of the images.
func matchesAny(t *testing.T, entry kustomizeImage, images []string) bool {
	t.Helper()
	want, err := imageName(entry.Name)
	require.NoError(t, err)
	for _, img := range images {
		name, err := imageName(img)
		require.NoError(t, err)
		if name == want {
			return true
		}
	}
	return false
}

func TestPinnedImage(t *testing.T) {
	tests := []struct {
		name    string
		ref     string
		wantErr string
	}{
		{name: "release", ref: "ghcr.io/dystopic/normalizer:v1.2.3"},
		{name: "release without v", ref: "ghcr.io/dystopic/normalizer:1.2.3"},
		{name: "pre-release", ref: "ghcr.io/dystopic/normalizer:v1.3.0-rc.1"},
		{name: "git describe past a tag", ref: "ghcr.io/dystopic/normalizer:v1.2.3-4-gabc1234"},
		{name: "commit", ref: "ghcr.io/dystopic/normalizer:a68bdbe"},
		{name: "placeholder", ref: "ghcr.io/dystopic/normalizer:" + placeholderTag},
		{name: "digest", ref: "ghcr.io/dystopic/normalizer@sha256:" + sha},
		{name: "tag and digest", ref: "ghcr.io/dystopic/normalizer:latest@sha256:" + sha},
		{name: "latest", ref: "ghcr.io/dystopic/normalizer:latest", wantErr: "latest moves"},
		{name: "untagged", ref: "ghcr.io/dystopic/normalizer", wantErr: "has no tag"},
		{name: "untagged on a registry with a port", ref: "localhost:5000/normalizer", wantErr: "has no tag"},
		{name: "untagged docker hub", ref: "normalizer", wantErr: "has no tag"},
		{name: "moving branch tag", ref: "ghcr.io/dystopic/normalizer:main", wantErr: "is not a version"},
		{name: "default build version", ref: "ghcr.io/dystopic/normalizer:dev", wantErr: "is not a version"},
		{name: "dirty build", ref: "ghcr.io/dystopic/normalizer:a68bdbe-dirty", wantErr: "is not a version"},
		{name: "malformed", ref: "ghcr.io/Dystopic/normalizer:v1.2.3", wantErr: "must be lowercase"},
		{name: "empty tag", ref: "ghcr.io/dystopic/normalizer:", wantErr: "invalid reference format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := pinnedImage(tt.ref)
			deploycheck.ErrorWants(t, err, tt.wantErr)
		})
	}
}

const sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestKustomizeImageApply(t *testing.T) {
	const img = "ghcr.io/dystopic/normalizer:" + placeholderTag
	tests := []struct {
		name  string
		entry kustomizeImage
		ref   string
		want  string
	}{
		{name: "new tag", entry: kustomizeImage{Name: "ghcr.io/dystopic/normalizer", NewTag: "v1.2.3"}, ref: img, want: "ghcr.io/dystopic/normalizer:v1.2.3"},
		{name: "digest replaces the tag", entry: kustomizeImage{Name: "ghcr.io/dystopic/normalizer", Digest: "sha256:" + sha}, ref: img, want: "ghcr.io/dystopic/normalizer@sha256:" + sha},
		{name: "new name keeps the tag", entry: kustomizeImage{Name: "ghcr.io/dystopic/normalizer", NewName: "registry.example/normalizer"}, ref: img, want: "registry.example/normalizer:" + placeholderTag},
		{name: "another image untouched", entry: kustomizeImage{Name: "ghcr.io/dystopic/other", NewTag: "v1.2.3"}, ref: img, want: img},
		{name: "a typo in the name changes nothing", entry: kustomizeImage{Name: "ghcr.io/dystopic/normaliser", NewTag: "v1.2.3"}, ref: img, want: img},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.entry.apply(tt.ref)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
