# syntax=docker/dockerfile:1
ARG GO_VERSION=1.22.3
ARG BASE_REGISTRY="docker.io/library"

FROM --platform=$BUILDPLATFORM golang:${GO_VERSION}-alpine AS builder
WORKDIR /src
RUN <<EOF
echo building
FROM this-is-not-an-instruction:1
EOF
RUN go build \
  # a comment inside the continuation
  -o /out/app ./cmd/app

FROM builder AS tester
RUN go test ./...

from node:20.11.1-bookworm-slim@sha256:4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f4b7f as assets
COPY --from=ghcr.io/example/tool:2.1 /tool /usr/bin/tool

FROM scratch AS empty

FROM ${BASE_REGISTRY}/alpine:3.20 AS final-base

FROM \
  final-base
COPY --from=builder /out/app /app
COPY --from=1 /etc/passwd /etc/passwd
COPY --from=assets /dist /dist
ENTRYPOINT ["/app"]
