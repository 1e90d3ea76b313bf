#!/usr/bin/env bash
# Runs the end-to-end suite (tests/e2e/datacenter_test.ts) against a real Bitbucket Data Center:
# `deno task datacenter [tag]` (default 9.4). Needs Docker, the network to pull the image, and
# Atlassian's Bitbucket Data Center timebomb licence for testing in BITBUCKET_TIMEBOMB_LICENSE
# (https://developer.atlassian.com/platform/marketplace/timebomb-licenses-for-testing-server-apps/).
#
# Starts atlassian/bitbucket:<tag> with the unattended setup (the SETUP_* variables; no JDBC_*
# variables, so the embedded database), published on 127.0.0.1:7990 only (BITBUCKET_E2E_PORT
# moves it), waits until GET /status says RUNNING and the administrator's REST calls answer,
# runs the suite with the test task's network permission (127.0.0.1), and removes the container
# (KEEP=1 keeps it, to look around). .github/workflows/datacenter.yml runs it for each version.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="${1:-9.4}"
: "${BITBUCKET_TIMEBOMB_LICENSE:?set it to the Bitbucket Data Center timebomb licence for testing: https://developer.atlassian.com/platform/marketplace/timebomb-licenses-for-testing-server-apps/}"
port="${BITBUCKET_E2E_PORT:-7990}"
url="http://127.0.0.1:${port}"
name="bitbucket-mcp-datacenter-${tag//./-}"
# A throwaway administrator password; the licence and it reach docker through the environment,
# never its arguments.
SETUP_SYSADMIN_PASSWORD="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
SETUP_LICENSE="$BITBUCKET_TIMEBOMB_LICENSE"
export SETUP_SYSADMIN_PASSWORD SETUP_LICENSE

logs() {
  echo "--- docker logs (last 200 lines) ---" >&2
  docker logs --tail 200 "$name" >&2 || true
  echo "--- atlassian-bitbucket.log (last 200 lines) ---" >&2
  docker exec "$name" sh -c 'tail -n 200 "$BITBUCKET_HOME/log/atlassian-bitbucket.log"' >&2 || true
}
finish() {
  status=$?
  if [ "$status" -ne 0 ]; then logs; fi
  if [ "${KEEP:-0}" = 1 ]; then
    echo "kept: container $name at $url, user admin, password $SETUP_SYSADMIN_PASSWORD" >&2
  else
    docker rm -f "$name" >/dev/null 2>&1 || true
  fi
  exit "$status"
}

docker rm -f "$name" >/dev/null 2>&1 || true
trap finish EXIT
# Bitbucket 10 turns basic authentication off on a fresh install; the seeding signs in with
# the administrator's password, so the JVM property re-allows it (older versions ignore it).
docker run -d --name "$name" -p "127.0.0.1:${port}:7990" \
  -e SETUP_DISPLAYNAME="bitbucket-mcp end-to-end" \
  -e SETUP_BASEURL="$url" \
  -e SETUP_LICENSE \
  -e SETUP_SYSADMIN_USERNAME=admin \
  -e SETUP_SYSADMIN_PASSWORD \
  -e SETUP_SYSADMIN_DISPLAYNAME="End-to-end Administrator" \
  -e SETUP_SYSADMIN_EMAILADDRESS=admin@example.com \
  -e SEARCH_ENABLED=false \
  -e JVM_MAXIMUM_MEMORY=2g \
  -e JVM_SUPPORT_RECOMMENDED_ARGS=-Dcom.atlassian.plugins.authentication.basic.auth.filter.force.allow=true \
  "atlassian/bitbucket:${tag}" >/dev/null

# Ready: /status says RUNNING (STARTING, then FIRST_RUN while the setup runs), then the
# administrator's REST calls succeed (they can lag RUNNING by a few seconds).
started=$SECONDS
state=""
until [ "$state" = RUNNING ]; do
  if [ "$(docker inspect -f '{{.State.Running}}' "$name")" != true ]; then
    echo "Bitbucket ${tag} exited during start-up" >&2
    exit 1
  fi
  if [ $((SECONDS - started)) -ge 900 ]; then
    echo "Bitbucket ${tag} was not RUNNING after 15 minutes (last state: ${state:-no answer})" >&2
    exit 1
  fi
  sleep 5
  answer="$(curl -fsS --max-time 5 "$url/status" 2>/dev/null || true)"
  state="$(printf '%s' "$answer" | sed -n 's/.*"state" *: *"\([A-Z_]*\)".*/\1/p')"
  if [ "$state" = ERROR ]; then
    echo "Bitbucket ${tag} reports ERROR: $answer" >&2
    exit 1
  fi
done
until printf 'user = "admin:%s"\n' "$SETUP_SYSADMIN_PASSWORD" |
  curl -fsS --max-time 10 -K - -o /dev/null "$url/rest/api/latest/projects?limit=1" 2>/dev/null; do
  if [ $((SECONDS - started)) -ge 1200 ]; then
    echo "Bitbucket ${tag} is RUNNING but refuses the administrator's REST calls" >&2
    exit 1
  fi
  sleep 5
done
version="$(curl -fsS "$url/rest/api/latest/application-properties" |
  sed -n 's/.*"version" *: *"\([^"]*\)".*/\1/p')"
echo "Bitbucket Data Center ${version} (atlassian/bitbucket:${tag}) ready after $((SECONDS - started)) s" >&2

BITBUCKET_E2E_URL="$url" BITBUCKET_E2E_ADMIN_USER=admin \
  BITBUCKET_E2E_ADMIN_PASSWORD="$SETUP_SYSADMIN_PASSWORD" NO_COLOR=1 \
  deno test --allow-net=127.0.0.1 --allow-read=. --allow-run=deno --allow-env \
  tests/e2e/datacenter_test.ts
