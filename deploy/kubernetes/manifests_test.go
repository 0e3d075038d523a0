package kubernetes

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/internal/memlimit"
)

// decodeStrict decodes a manifest into v; an unknown or misspelt field is an error.
func decodeStrict(t *testing.T, file string, v any, wantKind string) {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, yaml.UnmarshalStrict(b, v), file)
	var tm metav1.TypeMeta
	require.NoError(t, yaml.Unmarshal(b, &tm))
	assert.Equal(t, wantKind, tm.Kind, file)
}

func TestEveryManifestIsChecked(t *testing.T) {
	files, err := filepath.Glob("*.yaml")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"deployment.yaml", "hpa.yaml", "pdb.yaml", "service.yaml"}, files,
		"a new manifest needs a strict decoding test")
}

func TestStrictDecodingCatchesTypos(t *testing.T) {
	var d appsv1.Deployment
	err := yaml.UnmarshalStrict([]byte("apiVersion: apps/v1\nkind: Deployment\nspec:\n  replica: 2\n"), &d)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replica")
}

func loadDeployment(t *testing.T) (*appsv1.Deployment, corev1.Container) {
	t.Helper()
	var d appsv1.Deployment
	decodeStrict(t, "deployment.yaml", &d, "Deployment")
	require.Equal(t, "apps/v1", d.APIVersion)
	require.Len(t, d.Spec.Template.Spec.Containers, 1)
	return &d, d.Spec.Template.Spec.Containers[0]
}

func TestDeployment(t *testing.T) {
	d, c := loadDeployment(t)
	assert.Equal(t, d.Spec.Selector.MatchLabels, d.Spec.Template.Labels, "the selector matches the pods")

	require.NotNil(t, c.LivenessProbe)
	require.NotNil(t, c.ReadinessProbe)
	assert.Equal(t, "/healthz", c.LivenessProbe.HTTPGet.Path)
	assert.Equal(t, "/readyz", c.ReadinessProbe.HTTPGet.Path)
	assert.Equal(t, "http", c.ReadinessProbe.HTTPGet.Port.String())
	require.Len(t, c.Ports, 1)
	assert.Equal(t, int32(8080), c.Ports[0].ContainerPort)

	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		assert.Contains(t, c.Resources.Requests, r)
		assert.Contains(t, c.Resources.Limits, r)
	}

	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	for name := range env {
		if strings.HasPrefix(name, "NORMALIZER_") {
			assert.Contains(t, knownEnv, name, "the service has no such setting")
		}
	}

	sc := c.SecurityContext
	require.NotNil(t, sc)
	assert.True(t, *sc.RunAsNonRoot)
	assert.True(t, *sc.ReadOnlyRootFilesystem)
	assert.False(t, *sc.AllowPrivilegeEscalation)
	require.NotNil(t, sc.Capabilities)
	assert.Equal(t, []corev1.Capability{"ALL"}, sc.Capabilities.Drop)
	psc := d.Spec.Template.Spec.SecurityContext
	require.NotNil(t, psc)
	assert.True(t, *psc.RunAsNonRoot)
	assert.NotZero(t, *psc.RunAsUser)
}

// knownEnv are the service's settings (cmd/normalizer/serve.go): NORMALIZER_ and the flag name.
var knownEnv = []string{"NORMALIZER_ADDR", "NORMALIZER_BODY_LIMIT", "NORMALIZER_MAX_DEPTH", "NORMALIZER_MAX_IN_FLIGHT",
	"NORMALIZER_RETRY_AFTER", "NORMALIZER_READ_HEADER_TIMEOUT", "NORMALIZER_READ_TIMEOUT", "NORMALIZER_WRITE_TIMEOUT",
	"NORMALIZER_IDLE_TIMEOUT", "NORMALIZER_MAX_HEADER_BYTES", "NORMALIZER_SHUTDOWN_GRACE", "NORMALIZER_DRAIN_DELAY",
	"NORMALIZER_LOG_LEVEL", "NORMALIZER_LOG_FORMAT", "NORMALIZER_MEMORY_LIMIT", "NORMALIZER_MEMORY_LIMIT_RATIO"}

// The Go soft memory limit is a fraction of the container's limit, applied by serve: the
// Deployment hands serve the limit in bytes and does not set GOMEMLIMIT, which would win and,
// taken from the same field, equal the hard limit.
func TestMemoryLimitWiring(t *testing.T) {
	_, c := loadDeployment(t)
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	assert.NotContains(t, env, "GOMEMLIMIT", "GOMEMLIMIT would override the ratio; serve derives the soft limit")

	ml, ok := env["NORMALIZER_MEMORY_LIMIT"]
	require.True(t, ok, "NORMALIZER_MEMORY_LIMIT is set")
	assert.Empty(t, ml.Value, "it comes from the container's limit, not a fixed value")
	require.NotNil(t, ml.ValueFrom, "NORMALIZER_MEMORY_LIMIT comes from the memory limit")
	ref := ml.ValueFrom.ResourceFieldRef
	require.NotNil(t, ref, "through resourceFieldRef")
	assert.Equal(t, "limits.memory", ref.Resource)
	assert.Equal(t, c.Name, ref.ContainerName)
	assert.True(t, ref.Divisor.IsZero() || ref.Divisor.Value() == 1, "bytes: divisor %s would change the unit", ref.Divisor.String())

	plan := softLimit(t, c)
	limit := c.Resources.Limits[corev1.ResourceMemory]
	assert.Equal(t, limit.Value(), plan.Limit)
	assert.Less(t, plan.SoftLimit, limit.Value(), "the soft limit leaves headroom under the hard one")
}

// softLimit is the soft limit serve derives from the Deployment: the container's memory limit
// (what resourceFieldRef hands it) and the ratio the manifest sets, through serve's own code.
func softLimit(t *testing.T, c corev1.Container) memlimit.Plan {
	t.Helper()
	ratio := memlimit.DefaultRatio
	for _, e := range c.Env {
		if e.Name == "NORMALIZER_MEMORY_LIMIT_RATIO" {
			r, err := strconv.ParseFloat(e.Value, 64)
			require.NoError(t, err, "NORMALIZER_MEMORY_LIMIT_RATIO")
			ratio = r
		}
	}
	limit := c.Resources.Limits[corev1.ResourceMemory]
	plan, err := memlimit.Resolve(memlimit.Config{Limit: limit.Value(), LimitFrom: "limits.memory",
		Ratio: ratio, RatioFrom: "NORMALIZER_MEMORY_LIMIT_RATIO"})
	require.NoError(t, err)
	return plan
}

// The kubelet must not kill a pod that is still draining: its grace period covers the drain
// delay plus the service's own shutdown grace.
func TestTerminationGraceCoversShutdown(t *testing.T) {
	d, c := loadDeployment(t)
	var drain, grace string
	for _, e := range c.Env {
		switch e.Name {
		case "NORMALIZER_DRAIN_DELAY":
			drain = e.Value
		case "NORMALIZER_SHUTDOWN_GRACE":
			grace = e.Value
		}
	}
	total := mustDuration(t, drain) + mustDuration(t, grace)
	require.NotNil(t, d.Spec.Template.Spec.TerminationGracePeriodSeconds)
	assert.Greater(t, float64(*d.Spec.Template.Spec.TerminationGracePeriodSeconds), total)
}

func mustDuration(t *testing.T, s string) float64 {
	t.Helper()
	d, err := time.ParseDuration(s)
	require.NoError(t, err, s)
	return d.Seconds()
}

func TestService(t *testing.T) {
	var s corev1.Service
	decodeStrict(t, "service.yaml", &s, "Service")
	_, c := loadDeployment(t)
	require.Len(t, s.Spec.Ports, 1)
	assert.Equal(t, c.Ports[0].Name, s.Spec.Ports[0].TargetPort.String())
	d, _ := loadDeployment(t)
	assert.Equal(t, d.Spec.Template.Labels, s.Spec.Selector)
}

func TestHorizontalPodAutoscaler(t *testing.T) {
	var h autoscalingv2.HorizontalPodAutoscaler
	decodeStrict(t, "hpa.yaml", &h, "HorizontalPodAutoscaler")
	assert.Equal(t, "autoscaling/v2", h.APIVersion)
	d, _ := loadDeployment(t)
	assert.Equal(t, "Deployment", h.Spec.ScaleTargetRef.Kind)
	assert.Equal(t, d.Name, h.Spec.ScaleTargetRef.Name)
	require.NotNil(t, h.Spec.MinReplicas)
	assert.GreaterOrEqual(t, *h.Spec.MinReplicas, int32(2), "two replicas so the PDB can allow a disruption")
	assert.Greater(t, h.Spec.MaxReplicas, *h.Spec.MinReplicas)
	require.NotEmpty(t, h.Spec.Metrics)
}

func TestPodDisruptionBudget(t *testing.T) {
	var p policyv1.PodDisruptionBudget
	decodeStrict(t, "pdb.yaml", &p, "PodDisruptionBudget")
	d, _ := loadDeployment(t)
	assert.Equal(t, d.Spec.Selector.MatchLabels, p.Spec.Selector.MatchLabels)
	require.NotNil(t, p.Spec.MinAvailable)
	assert.Less(t, p.Spec.MinAvailable.IntValue(), int(*d.Spec.Replicas), "the budget leaves room to drain a node")
}

func TestMemoryLimitFitsInFlightBodies(t *testing.T) {
	_, c := loadDeployment(t)
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	body := resource.MustParse(strings.TrimSuffix(env["NORMALIZER_BODY_LIMIT"], "B")) // 20MiB -> 20Mi
	inFlight := resource.MustParse(env["NORMALIZER_MAX_IN_FLIGHT"])
	worst := 3 * body.Value() * inFlight.Value() // body, record and scratch per request
	// Under the soft limit, not just the hard one: a live heap above the soft limit makes the
	// GC run continuously, and what is left above it is for memory the heap does not count.
	assert.Less(t, worst, softLimit(t, c).SoftLimit, "max in flight x 3 x body limit must fit in the Go soft memory limit")
}
