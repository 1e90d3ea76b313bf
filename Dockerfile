# bitbucket-mcp as a container: the cached source on the official Deno image, serving Streamable
# HTTP on 0.0.0.0:8080 as a non-root user, with its Deno permissions scoped at start-up to the
# Bitbucket host (deploy/docker/entrypoint.sh), and memory settings that halve it under load.
# Build: docker build -t bitbucket-mcp .   Run: docker run -e BITBUCKET_URL=... -p 8080:8080 bitbucket-mcp
# See docs/deploy.md.

# Deno 2.9.6, the version the project pins, by the digest of its multi-arch index.
FROM denoland/deno:2.9.6@sha256:2014dc167ece617ef7e7ba40631ac2234c59e75ce693e7cc2dc2602b3c87859d

WORKDIR /app

# What the server runs, and the frozen lock that pins (and checks) every dependency.
COPY deno.json deno.lock main.ts ./
COPY src/ src/
COPY deploy/docker/ deploy/docker/

# Fetch and transpile everything now, as root: the server (user 1993) can read the cache but not
# change it, and runs with --cached-only, so the running container never downloads code.
RUN deno cache --frozen main.ts deploy/docker/healthcheck.ts \
  && chmod 755 deploy/docker/entrypoint.sh \
  && deno run --cached-only --no-prompt main.ts --version

# Memory (measured in docs/deploy.md): one malloc arena whose freed memory goes back to the system,
# a 3 MB young generation, a capped old one and V8's lite mode (no optimising compiler), which only
# the process's environment can set (a `deno run <url>` user cannot): about 100 MB instead of
# 260 MB at the peak of 50 concurrent calls, for about 0.4 of the calls per second.
ENV MALLOC_ARENA_MAX=1 \
  MALLOC_TRIM_THRESHOLD_=65536 \
  MALLOC_MMAP_THRESHOLD_=65536 \
  DENO_V8_FLAGS=--max-semi-space-size=1,--max-old-space-size=64,--lite-mode \
  DENO_NO_UPDATE_CHECK=1 \
  NO_COLOR=1

# The base image's unprivileged user, by number (Kubernetes checks runAsNonRoot by number).
USER 1993:1993

EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --start-interval=2s --retries=3 \
  CMD ["deno", "run", "--cached-only", "--no-prompt", "--allow-net=127.0.0.1:8080", "/app/deploy/docker/healthcheck.ts", "http://127.0.0.1:8080/healthz"]

# The base image's tini (PID 1, passing SIGTERM on) runs the entry point, which execs Deno with the
# scoped permissions; CMD is bitbucket-mcp's own arguments: `docker run IMAGE check` checks the set-up.
ENTRYPOINT ["/tini", "--", "/app/deploy/docker/entrypoint.sh"]
CMD ["serve", "--http", "0.0.0.0:8080"]
