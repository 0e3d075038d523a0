package kubernetes

import (
	"errors"
	"fmt"
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
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dystopic/normalizer/deploy/internal/deploycheck"

	"github.com/dystopic/normalizer/internal/httpapi"
	"github.com/dystopic/normalizer/internal/memlimit"
)

// decodeStrict decodes a manifest into v; an unknown, misspelt or duplicated field is an error.
func decodeStrict(t *testing.T, file string, v any, wantKind string) {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, unmarshalStrict(b, v), file)
	var tm metav1.TypeMeta
	require.NoError(t, yaml.Unmarshal(b, &tm))
	assert.Equal(t, wantKind, tm.Kind, file)
}

// unmarshalStrict decodes YAML as the API server's strict field validation does: field names
// match case-sensitively (sigs.k8s.io/json; yaml.UnmarshalStrict uses encoding/json, which
// would take "Replicas" for "replicas"), and unknown or duplicate fields are errors.
func unmarshalStrict(b []byte, v any) error {
	j, err := yaml.YAMLToJSONStrict(b)
	if err != nil {
		return err
	}
	strict, err := kjson.UnmarshalStrict(j, v)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

func TestEveryManifestIsChecked(t *testing.T) {
	files, err := filepath.Glob("*.yaml")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"deployment.yaml", "hpa.yaml", "kustomization.yaml", "pdb.yaml", "service.yaml"}, files,
		"a new manifest needs a strict decoding test")
}

func TestStrictDecodingCatchesTypos(t *testing.T) {
	tests := []struct {
		name    string
		spec    string
		wantErr string
	}{
		{name: "valid", spec: "  revisionHistoryLimit: 5\n"},
		{name: "misspelt", spec: "  replica: 2\n", wantErr: `unknown field "spec.replica"`},
		{name: "wrong case", spec: "  RevisionHistoryLimit: 5\n", wantErr: `unknown field "spec.RevisionHistoryLimit"`},
		{name: "duplicate", spec: "  revisionHistoryLimit: 5\n  revisionHistoryLimit: 6\n", wantErr: "revisionHistoryLimit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d appsv1.Deployment
			err := unmarshalStrict([]byte("apiVersion: apps/v1\nkind: Deployment\nspec:\n"+tt.spec), &d)
			deploycheck.ErrorWants(t, err, tt.wantErr)
		})
	}
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

	var env []string
	for _, e := range c.Env {
		env = append(env, e.Name)
	}
	assert.Empty(t, unknownSettings(env, serveEnv(t)), "normalizer serve has no flag for these (cmd/normalizer/serve.go)")

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

// serve sizes itself to the memory limit (a soft limit of 0.9 x it, a budget of 80 % of that),
// so a loaded pod uses about its limit: a request below it lets the scheduler pack pods by a
// size they outgrow, and under node memory pressure the kubelet evicts first the pods whose use
// exceeds their request.
func TestMemoryRequestIsTheLimit(t *testing.T) {
	_, c := loadDeployment(t)
	request, limit := c.Resources.Requests[corev1.ResourceMemory], c.Resources.Limits[corev1.ResourceMemory]
	assert.Zero(t, request.Cmp(limit), "requests.memory %s; expected limits.memory %s: a loaded serve grows to its soft limit, %d bytes",
		request.String(), limit.String(), softLimit(t, c).SoftLimit)
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

// goMaxProcs is the GOMAXPROCS the Go runtime (1.25 and later) chooses under a CPU limit on a
// node with at least that many CPUs: the limit rounded up, and never below 2
// (adjustCgroupGOMAXPROCS in runtime/cgroup_linux.go).
func goMaxProcs(limit resource.Quantity) int64 {
	return max((limit.MilliValue()+999)/1000, 2)
}

// The CPU limit gives each of the GOMAXPROCS threads a whole CPU of quota (a limit of 1 gets 2
// threads, which run out of a 1-CPU quota in half of each period and are throttled for the
// rest). The HPA's target is relative to the request: under 100 %, the average use it holds
// stays under what the scheduler reserves; and at the HPA's floor, with one pod gone (the most
// the PDB allows), the others carry its share of that load under their limit.
func TestCPU(t *testing.T) {
	_, c := loadDeployment(t)
	request, limit := c.Resources.Requests[corev1.ResourceCPU], c.Resources.Limits[corev1.ResourceCPU]
	procs := goMaxProcs(limit)
	assert.GreaterOrEqual(t, limit.MilliValue(), procs*1000,
		"limits.cpu %s: the Go runtime runs GOMAXPROCS=%d, more threads than the quota has CPUs; expected a whole number of CPUs, at least 2", limit.String(), procs)
	assert.LessOrEqual(t, request.Cmp(limit), 0, "requests.cpu %s over limits.cpu %s", request.String(), limit.String())

	h := loadHPA(t)
	target := cpuTarget(t, h)
	assert.Less(t, target, 100.0, "the HPA's CPU target is relative to requests.cpu: past 100 %% it holds pods above what the scheduler reserved")
	floor := float64(*h.Spec.MinReplicas)
	load := floor * target / 100 * request.AsApproximateFloat64()
	perPod := load / (floor - 1)
	assert.Less(t, perPod, limit.AsApproximateFloat64(),
		"at %g replicas and %g %% of %s, one pod gone leaves %.2f CPU to each of the others; expected under limits.cpu %s", floor, target, request.String(), perPod, limit.String())
}

// cpuTarget is the HPA's average CPU utilization target, in percent of requests.cpu.
func cpuTarget(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler) float64 {
	t.Helper()
	for _, m := range h.Spec.Metrics {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == corev1.ResourceCPU &&
			m.Resource.Target.Type == autoscalingv2.UtilizationMetricType && m.Resource.Target.AverageUtilization != nil {
			return float64(*m.Resource.Target.AverageUtilization)
		}
	}
	require.Fail(t, "the HPA has no CPU utilization target")
	return 0
}

func TestGoMaxProcs(t *testing.T) {
	tests := []struct {
		limit string
		want  int64
	}{
		{limit: "500m", want: 2}, {limit: "1", want: 2}, {limit: "2", want: 2}, {limit: "2500m", want: 3}, {limit: "4", want: 4},
	}
	for _, tt := range tests {
		t.Run(tt.limit, func(t *testing.T) {
			assert.Equal(t, tt.want, goMaxProcs(resource.MustParse(tt.limit)))
		})
	}
}

// The kubelet must not kill a pod that is still draining: its grace period covers the drain
// delay plus the service's own shutdown grace, plus the wait serve gives cut-off handlers after
// it (httpapi.HandlersExitWait), so that even the worst case exits by itself.
func TestTerminationGraceCoversShutdown(t *testing.T) {
	d, c := loadDeployment(t)
	total := mustDuration(t, envValue(t, c, "NORMALIZER_DRAIN_DELAY")) + mustDuration(t, envValue(t, c, "NORMALIZER_SHUTDOWN_GRACE"))
	require.NotNil(t, d.Spec.Template.Spec.TerminationGracePeriodSeconds)
	assert.Greater(t, float64(*d.Spec.Template.Spec.TerminationGracePeriodSeconds), total)
	assert.Greater(t, float64(*d.Spec.Template.Spec.TerminationGracePeriodSeconds), total+httpapi.HandlersExitWait.Seconds(),
		"drain delay + shutdown grace + httpapi.HandlersExitWait")
}

// Endpoint propagation: after the kubelet marks the pod unready, the endpoint controller, then
// kube-proxy and any load balancer, act on it; a second or two on a quiet cluster.
const endpointPropagation = 3.0 // seconds

// On SIGTERM serve answers /readyz 503 but serves on for the drain delay before the listener
// closes: the pod must be out of every endpoint list by then. The kubelet marks it unready after
// failureThreshold failed probes, a period apart, the last taking up to its timeout, and the
// change then propagates; the drain delay must outlast all of it. failureThreshold is at least 2,
// so that one slow probe of a busy pod does not take it out of the endpoints.
func TestDrainOutlastsReadiness(t *testing.T) {
	_, c := loadDeployment(t)
	p := c.ReadinessProbe
	require.NotNil(t, p)
	assert.GreaterOrEqual(t, p.FailureThreshold, int32(2), "readiness failureThreshold: one slow probe would take a serving pod out")
	unready := float64(p.PeriodSeconds*p.FailureThreshold + p.TimeoutSeconds)
	drain := mustDuration(t, envValue(t, c, "NORMALIZER_DRAIN_DELAY"))
	assert.Greater(t, drain, unready+endpointPropagation,
		"NORMALIZER_DRAIN_DELAY %gs; expected more than readiness periodSeconds %d x failureThreshold %d + timeoutSeconds %d + %gs of propagation, or the listener closes while the pod still gets traffic",
		drain, p.PeriodSeconds, p.FailureThreshold, p.TimeoutSeconds, endpointPropagation)
}

// envValue is the value the container sets for a variable; the test fails if it sets none.
func envValue(t *testing.T, c corev1.Container, name string) string {
	t.Helper()
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	require.Failf(t, "variable not set", "the container sets no %s", name)
	return ""
}

func mustDuration(t *testing.T, s string) float64 {
	t.Helper()
	d, err := time.ParseDuration(s)
	require.NoError(t, err, s)
	return d.Seconds()
}

// The pods spread over nodes and zones, so that one node or zone going takes few of them; as a
// preference (ScheduleAnyway), since a hard constraint leaves pods Pending when the node or zone
// they should go to is full or cordoned, or when nodes carry no zone label. Each constraint counts this Deployment's pods only, and
// of one revision (pod-template-hash), so a rollout's new pods spread among themselves.
func TestTopologySpread(t *testing.T) {
	d, _ := loadDeployment(t)
	pods := labels.Set(d.Spec.Template.Labels)
	var keys []string
	for _, c := range d.Spec.Template.Spec.TopologySpreadConstraints {
		keys = append(keys, c.TopologyKey)
		assert.Equal(t, corev1.ScheduleAnyway, c.WhenUnsatisfiable, "%s: a hard constraint can leave pods Pending", c.TopologyKey)
		assert.EqualValues(t, 1, c.MaxSkew, c.TopologyKey)
		require.NotNil(t, c.LabelSelector, "%s: without a selector the constraint counts no pods", c.TopologyKey)
		sel, err := metav1.LabelSelectorAsSelector(c.LabelSelector)
		require.NoError(t, err)
		assert.True(t, sel.Matches(pods), "%s: selector %s does not match the pods' labels %s", c.TopologyKey, sel, pods)
		assert.Equal(t, d.Spec.Selector.MatchLabels, c.LabelSelector.MatchLabels, "%s: this Deployment's pods only", c.TopologyKey)
		assert.Equal(t, []string{appsv1.DefaultDeploymentUniqueLabelKey}, c.MatchLabelKeys, c.TopologyKey)
	}
	assert.ElementsMatch(t, []string{corev1.LabelHostname, corev1.LabelTopologyZone}, keys)
}

// For every Service in the namespace, Kubernetes injects variables named after it into each
// container unless enableServiceLinks is false: for service.yaml's normalizer,
// NORMALIZER_SERVICE_HOST, NORMALIZER_PORT, NORMALIZER_PORT_80_TCP and more, in the prefix of
// serve's own settings (and of any future setting of that name).
func TestNoServiceLinks(t *testing.T) {
	var s corev1.Service
	decodeStrict(t, "service.yaml", &s, "Service")
	require.NotEmpty(t, s.Spec.Ports)
	prefix := strings.ToUpper(strings.ReplaceAll(s.Name, "-", "_"))
	d, _ := loadDeployment(t)
	links := d.Spec.Template.Spec.EnableServiceLinks
	assert.True(t, links != nil && !*links,
		"enableServiceLinks is unset or true; expected false: Service %s would inject %s_SERVICE_HOST, %s_PORT, %s_PORT_%d_TCP ... beside serve's NORMALIZER_ settings",
		s.Name, prefix, prefix, prefix, s.Spec.Ports[0].Port)
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

func loadHPA(t *testing.T) *autoscalingv2.HorizontalPodAutoscaler {
	t.Helper()
	var h autoscalingv2.HorizontalPodAutoscaler
	decodeStrict(t, "hpa.yaml", &h, "HorizontalPodAutoscaler")
	require.NotNil(t, h.Spec.MinReplicas, "minReplicas is the scale the manifests start from")
	return &h
}

func TestHorizontalPodAutoscaler(t *testing.T) {
	h := loadHPA(t)
	assert.Equal(t, "autoscaling/v2", h.APIVersion)
	d, _ := loadDeployment(t)
	assert.Equal(t, "apps/v1", h.Spec.ScaleTargetRef.APIVersion)
	assert.Equal(t, "Deployment", h.Spec.ScaleTargetRef.Kind)
	assert.Equal(t, d.Name, h.Spec.ScaleTargetRef.Name)
	assert.GreaterOrEqual(t, *h.Spec.MinReplicas, int32(2), "two replicas so the PDB can allow a disruption")
	assert.Greater(t, h.Spec.MaxReplicas, *h.Spec.MinReplicas)
	require.NotEmpty(t, h.Spec.Metrics)
	assert.NoError(t, scaleOwnedByHPA(d, h))
}

// scaleOwnedByHPA checks that a Deployment the HPA scales does not set replicas: kubectl apply
// would reset the HPA's choice to that number on every apply.
func scaleOwnedByHPA(d *appsv1.Deployment, h *autoscalingv2.HorizontalPodAutoscaler) error {
	ref := h.Spec.ScaleTargetRef
	if ref.Kind != "Deployment" || ref.Name != d.Name || d.Spec.Replicas == nil {
		return nil
	}
	return fmt.Errorf("deployment %s sets replicas: %d and HPA %s scales it; expected no replicas (minReplicas %s governs)",
		d.Name, *d.Spec.Replicas, h.Name, formatReplicas(h.Spec.MinReplicas))
}

func formatReplicas(n *int32) string {
	if n == nil {
		return "unset"
	}
	return strconv.Itoa(int(*n))
}

func TestScaleOwnedByHPA(t *testing.T) {
	two := int32(2)
	hpa := func(kind, name string) *autoscalingv2.HorizontalPodAutoscaler {
		return &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "normalizer"},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &two,
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: kind, Name: name}},
		}
	}
	deployment := func(replicas *int32) *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "normalizer"}, Spec: appsv1.DeploymentSpec{Replicas: replicas}}
	}
	tests := []struct {
		name    string
		d       *appsv1.Deployment
		h       *autoscalingv2.HorizontalPodAutoscaler
		wantErr string
	}{
		{name: "no replicas", d: deployment(nil), h: hpa("Deployment", "normalizer")},
		{name: "replicas under an HPA", d: deployment(&two), h: hpa("Deployment", "normalizer"), wantErr: "sets replicas: 2"},
		{name: "HPA scales another deployment", d: deployment(&two), h: hpa("Deployment", "other")},
		{name: "HPA scales a StatefulSet of that name", d: deployment(&two), h: hpa("StatefulSet", "normalizer")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := scaleOwnedByHPA(tt.d, tt.h)
			deploycheck.ErrorWants(t, err, tt.wantErr)
		})
	}
}

func TestPodDisruptionBudget(t *testing.T) {
	var p policyv1.PodDisruptionBudget
	decodeStrict(t, "pdb.yaml", &p, "PodDisruptionBudget")
	d, _ := loadDeployment(t)
	assert.Equal(t, d.Spec.Selector.MatchLabels, p.Spec.Selector.MatchLabels)
	// The Deployment sets no replicas (the HPA owns the scale): at every scale the HPA may
	// choose, from its floor up, the budget must let a node drain, keep a pod serving, and let
	// pods go one at a time.
	h := loadHPA(t)
	for n := *h.Spec.MinReplicas; n <= h.Spec.MaxReplicas; n++ {
		if !assert.NoError(t, budgetFits(p.Spec, n)) {
			break // the first scale that fails says enough
		}
	}
	// A pod that is not ready serves nothing: evicting it must not wait for the budget, or a
	// bad rollout (pods crash-looping) blocks every node drain.
	require.NotNil(t, p.Spec.UnhealthyPodEvictionPolicy)
	assert.Equal(t, policyv1.AlwaysAllow, *p.Spec.UnhealthyPodEvictionPolicy)
}

// budgetFits checks that at the given number of replicas the budget allows at least one
// voluntary disruption (else a node drain blocks), not all of them (else it protects
// nothing), and not more than one at once (minAvailable 1 would let a drain take 19 of 20
// pods together). Percentages round up, as the disruption controller rounds them.
func budgetFits(spec policyv1.PodDisruptionBudgetSpec, replicas int32) error {
	var allowed int
	switch {
	case spec.MinAvailable != nil && spec.MaxUnavailable != nil:
		return fmt.Errorf("the budget sets minAvailable and maxUnavailable; expected one")
	case spec.MinAvailable != nil:
		minAvailable, err := intstr.GetScaledValueFromIntOrPercent(spec.MinAvailable, int(replicas), true)
		if err != nil {
			return fmt.Errorf("minAvailable %s: %v", spec.MinAvailable.String(), err)
		}
		allowed = int(replicas) - minAvailable
	case spec.MaxUnavailable != nil:
		maxUnavailable, err := intstr.GetScaledValueFromIntOrPercent(spec.MaxUnavailable, int(replicas), true)
		if err != nil {
			return fmt.Errorf("maxUnavailable %s: %v", spec.MaxUnavailable.String(), err)
		}
		allowed = min(maxUnavailable, int(replicas))
	default:
		return fmt.Errorf("the budget sets neither minAvailable nor maxUnavailable; expected one")
	}
	switch {
	case allowed < 1:
		return fmt.Errorf("at %d replicas the budget allows %d disruptions; expected at least 1, or a node drain blocks", replicas, allowed)
	case allowed >= int(replicas):
		return fmt.Errorf("at %d replicas the budget allows %d disruptions; expected fewer, or it keeps no pod serving", replicas, allowed)
	case allowed > 1:
		return fmt.Errorf("at %d replicas the budget allows %d disruptions at once; expected 1, so that pods go one at a time", replicas, allowed)
	}
	return nil
}

func TestBudgetFits(t *testing.T) {
	num := func(n int) *intstr.IntOrString { v := intstr.FromInt32(int32(n)); return &v }
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	tests := []struct {
		name     string
		spec     policyv1.PodDisruptionBudgetSpec
		replicas int32
		wantErr  string
	}{
		{name: "minAvailable 1 of 2", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(1)}, replicas: 2},
		{name: "minAvailable 2 of 2", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(2)}, replicas: 2, wantErr: "a node drain blocks"},
		{name: "minAvailable 1 of 1", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(1)}, replicas: 1, wantErr: "a node drain blocks"},
		{name: "minAvailable 0", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(0)}, replicas: 2, wantErr: "keeps no pod serving"},
		{name: "minAvailable 50% of 2", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: pct("50%")}, replicas: 2},
		{name: "minAvailable 51% of 2 rounds up to 2", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: pct("51%")}, replicas: 2, wantErr: "a node drain blocks"},
		{name: "maxUnavailable 1 of 2", spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: num(1)}, replicas: 2},
		{name: "maxUnavailable 0", spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: num(0)}, replicas: 2, wantErr: "a node drain blocks"},
		{name: "maxUnavailable 2 of 2", spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: num(2)}, replicas: 2, wantErr: "keeps no pod serving"},
		{name: "maxUnavailable 10% of 2 rounds up to 1", spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: pct("10%")}, replicas: 2},
		{name: "maxUnavailable 1 of 20", spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: num(1)}, replicas: 20},
		{name: "maxUnavailable 10% of 20", spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: pct("10%")}, replicas: 20, wantErr: "allows 2 disruptions at once"},
		{name: "minAvailable 1 of 20", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(1)}, replicas: 20, wantErr: "allows 19 disruptions at once"},
		{name: "minAvailable 1 of 3", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(1)}, replicas: 3, wantErr: "allows 2 disruptions at once"},
		{name: "minAvailable 95% of 20", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: pct("95%")}, replicas: 20},
		{name: "both", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: num(1), MaxUnavailable: num(1)}, replicas: 2, wantErr: "expected one"},
		{name: "neither", replicas: 2, wantErr: "sets neither"},
		{name: "not a percentage", spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: pct("half")}, replicas: 2, wantErr: "minAvailable half"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := budgetFits(tt.spec, tt.replicas)
			deploycheck.ErrorWants(t, err, tt.wantErr)
		})
	}
}

// TestMemoryBudgetFitsRequestsAtTheLimit: the budget the Deployment leaves serve to derive
// (auto) holds several requests at the body limit at once, with explain, the costliest: a pod
// whose budget held one would serve large results one at a time. The counts are those the
// manifest's comment gives.
func TestMemoryBudgetFitsRequestsAtTheLimit(t *testing.T) {
	_, c := loadDeployment(t)
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	require.Equal(t, "auto", env["NORMALIZER_MEMORY_BUDGET"])
	_, countSet := env["NORMALIZER_MAX_IN_FLIGHT"]
	assert.False(t, countSet, "the budget bounds memory; the count cap stays at its default")
	body := resource.MustParse(strings.TrimSuffix(env["NORMALIZER_BODY_LIMIT"], "B")) // 20MiB -> 20Mi
	budget := memlimit.Budget(softLimit(t, c).SoftLimit)
	assert.EqualValues(t, 8, budget/httpapi.ReservationFor(body.Value(), false), "requests at the body limit held at once")
	assert.EqualValues(t, 5, budget/httpapi.ReservationFor(body.Value(), true), "requests at the body limit held at once, with explain")
}
