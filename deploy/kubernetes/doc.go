// Package kubernetes holds the manifests that run the normalizer service on Kubernetes
// (Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget). It has no code: its
// test decodes every manifest strictly into the k8s.io/api types, so a typo cannot ship.
package kubernetes
