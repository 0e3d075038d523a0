# syntax=docker/dockerfile:1
# The normalizer service image: a static binary on distroless, running as a non-root user.
# scripts/build-static.sh builds the same binary with the same flags outside Docker, and
# deploy/docker/dockerfile_test.go holds this file to those rules.

# The base images, as tags that move with upstream's patches. A release pipeline pins them by
# digest without editing this file, e.g.
#   --build-arg BUILDER_IMAGE=golang:1.26@sha256:<digest>
#   --build-arg RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:<digest>
# (docs/http.md, "Docker", says how to look the digests up).
ARG BUILDER_IMAGE=golang:1.26
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${BUILDER_IMAGE} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -pgo=auto -ldflags "-s -w -X main.version=${VERSION}" -o /out/normalizer ./cmd/normalizer

FROM ${RUNTIME_IMAGE}
COPY --from=build /out/normalizer /normalizer
USER 65532:65532
ENV NORMALIZER_ADDR=:8080
EXPOSE 8080
# No shell in the image: the binary probes itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["/normalizer", "healthcheck"]
ENTRYPOINT ["/normalizer"]
CMD ["serve"]
