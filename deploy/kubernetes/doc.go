// Package kubernetes holds the manifests that run the normalizer service on Kubernetes
// (Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget, and the kustomization
// that applies them with the image's version). It has no code: its tests decode every manifest
// strictly into the k8s.io/api types, so a typo cannot ship, and check that the manifests agree
// with each other and with the flags of `normalizer serve`.
package kubernetes
