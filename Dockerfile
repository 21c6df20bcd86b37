# Wayfinder server image.
#
#   docker build -t wayfinder .
#   docker run -p 8080:8080 -v wayfinder-data:/data wayfinder
#
# Another app served by the server library, from its own package in this repository (the build
# context is still the repository's root: the app's package depends on it by path):
#
#   docker build --build-arg PACKAGE=Examples/Shop --build-arg PRODUCT=shop -t wayfinder-shop .
#
# Whichever product is built, the image runs it as /usr/local/bin/wayfinder: an exec-form
# ENTRYPOINT and HEALTHCHECK cannot name a build argument.
#
# Settings come from WAYFINDER_* environment variables or flags after the image name
# (`docker run wayfinder --help` lists them). scripts/container-smoke checks what the runtime stage
# does without a Docker engine (debootstrap + chroot); Tests/ops/test_dockerfile.py checks the rules.

# ---- build: the official Swift image matching the toolchain -----------------------------------
FROM swift:6.3.1-bookworm AS build

# The package directory (relative to the repository) and the executable product to build.
ARG PACKAGE=.
ARG PRODUCT=wayfinder

# The -dev packages of every system-library target in Package.swift (each must resolve, even the
# ones only tests link), and jemalloc's, the allocator the executables link.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libsqlite3-dev libhiredis-dev libcurl4-openssl-dev libcrypt-dev libssl-dev libjemalloc-dev zlib1g-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# The manifest first: this layer stays cached while only sources change.
COPY Package.* ./
RUN swift package resolve

# SwiftPM validates every declared target's folder, so tests come along (they are not built).
COPY Sources ./Sources
COPY Tests ./Tests
COPY Examples ./Examples
RUN cd "$PACKAGE" \
 && swift build -c release --static-swift-stdlib --product "$PRODUCT" \
 && install -m 0755 "$(swift build -c release --static-swift-stdlib --show-bin-path)/$PRODUCT" /build/wayfinder

# ---- runtime: slim Debian with only the libraries the binary links -----------------------------
FROM debian:bookworm-slim AS runtime

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libsqlite3-0 libhiredis0.14 libssl3 libjemalloc2 zlib1g \
 && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 wayfinder \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin wayfinder \
 && mkdir -p /data \
 && chown 10001:10001 /data

COPY --from=build /build/wayfinder /usr/local/bin/wayfinder
COPY Public /app/Public
COPY openapi.yaml /app/openapi.yaml

ENV WAYFINDER_HOST=0.0.0.0 \
    WAYFINDER_PORT=8080 \
    WAYFINDER_STORE=sqlite:/data/wayfinder.sqlite \
    WAYFINDER_PUBLIC=/app/Public \
    WAYFINDER_OPENAPI=/app/openapi.yaml

# The SQLite store (WAL files included) lives here; mount a volume to keep sessions.
VOLUME ["/data"]
EXPOSE 8080

USER 10001:10001
WORKDIR /app

# `wayfinder healthcheck` does GET /healthz on 127.0.0.1:$WAYFINDER_PORT (no curl in the image).
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/wayfinder", "healthcheck"]

# Exec form: the server is PID 1 and gets SIGTERM itself (graceful drain, exit 0).
ENTRYPOINT ["/usr/local/bin/wayfinder"]
