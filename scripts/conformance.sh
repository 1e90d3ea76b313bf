#!/usr/bin/env bash
# Runs every server scenario of @modelcontextprotocol/conformance (the stable
# 0.1.16, 2025 revisions, and 0.2.0-alpha.12, which adds 2026-07-28) against
# `serve --http`. scripts/conformance-baseline.yml lists the scenarios expected
# to fail and why; the run fails on any other failure, and on a baseline entry
# that starts passing. Not part of `deno task test` or CI: `deno task conformance`.
#
# The conformance CLI needs Node >= 22 (fs.globSync), so it runs under Deno's
# npm support with scoped permissions; versions are pinned by
# scripts/conformance.lock. The server gets a placeholder token and a Bitbucket
# URL nothing listens on: no scenario reaches Bitbucket.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSIONS=(0.1.16 0.2.0-alpha.12)
BASELINE=scripts/conformance-baseline.yml
LOCK=scripts/conformance.lock

log=$(mktemp)
cleanup() {
  if [ -n "${server_pid:-}" ]; then kill -TERM "$server_pid" 2>/dev/null || true; fi
  rm -f "$log"
}
trap cleanup EXIT

# Port 0: the server picks a free port and announces it on stderr.
BITBUCKET_URL=http://127.0.0.1:9 BITBUCKET_TOKEN=conformance-placeholder NO_COLOR=1 \
  deno run --no-prompt --allow-net=127.0.0.1 \
  --allow-env=BITBUCKET_URL,BITBUCKET_TOKEN,BITBUCKET_USERNAME \
  main.ts serve --http 127.0.0.1:0 2>"$log" &
server_pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/.*serving MCP at \([^ ]*\).*/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start" >&2; cat "$log" >&2; exit 1; }
hostport=${url#http://}
hostport=${hostport%%/*}
port=${hostport##*:}

npm_cache=$(deno info --json | sed -n 's/.*"npmCache": *"\([^"]*\)".*/\1/p')
status=0
for version in "${VERSIONS[@]}"; do
  echo "== @modelcontextprotocol/conformance@${version} against ${url}"
  package="${npm_cache}/registry.npmjs.org/@modelcontextprotocol/conformance/${version}"
  # The CLI reads the whole environment (process.env), its own package files
  # and the baseline, and talks to the server only.
  NO_COLOR=1 deno run --no-config --lock="$LOCK" --frozen --no-prompt \
    --allow-env \
    --allow-read="${package},${BASELINE}" \
    --allow-net="127.0.0.1:${port},localhost:${port}" \
    "npm:@modelcontextprotocol/conformance@${version}" \
    server --url "$url" --suite all --expected-failures "$BASELINE" || status=$?
done
exit "$status"
