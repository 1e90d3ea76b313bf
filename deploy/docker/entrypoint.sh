#!/bin/sh
# The container's entry point: runs the cached bitbucket-mcp (main.ts beside this folder's parent)
# with Deno permissions scoped at start-up, since the Bitbucket host is known only then:
#   network: the Bitbucket host of --url or BITBUCKET_URL, and the addresses the arguments listen
#            on (--http, --metrics-listen; a bare port listens on 127.0.0.1, as the server does);
#   environment: exactly the variables the server reads (src/config.ts ENV_VARS);
#   read: the administrator's policy file, and the client certificate and key when they are set.
# No network access is granted for anything else, and nothing is ever fetched (--cached-only).
# The arguments (the image's CMD) go to bitbucket-mcp unchanged: `docker run IMAGE check` works.
set -eu

app=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)

# The host of a URL without scheme, credentials, port or path ([v6] literals kept bracketed).
host_of() {
  rest=${1#*://}
  rest=${rest%%/*}
  rest=${rest%%\?*}
  rest=${rest%%#*}
  rest=${rest##*@}
  case $rest in
    \[*) rest="${rest%%]*}]" ;;
    *) rest=${rest%%:*} ;;
  esac
  printf '%s' "$rest"
}

# A listen address as the server reads it: a bare port means 127.0.0.1.
listen_of() {
  case $1 in
    *:*) printf '%s' "$1" ;;
    *) printf '127.0.0.1:%s' "$1" ;;
  esac
}

url=${BITBUCKET_URL:-}
net=""
previous=""
for arg in "$@"; do
  case $previous in
    --url) url=$arg ;;
    --http | --metrics-listen) net="$net,$(listen_of "$arg")" ;;
  esac
  case $arg in
    --url=*) url=${arg#--url=} ;;
    --http=* | --metrics-listen=*) net="$net,$(listen_of "${arg#*=}")" ;;
  esac
  previous=$arg
done
if [ -n "$url" ]; then net="$(host_of "$url")$net"; fi
net=${net#,}

read="/etc/bitbucket-mcp/policy.json"
if [ -n "${BITBUCKET_CLIENT_CERT:-}" ]; then read="$read,$BITBUCKET_CLIENT_CERT"; fi
if [ -n "${BITBUCKET_CLIENT_KEY:-}" ]; then read="$read,$BITBUCKET_CLIENT_KEY"; fi

# No host at all (no URL yet): deny the network rather than grant it (an empty list grants all).
if [ -z "$net" ]; then net_flag="--deny-net"; else net_flag="--allow-net=$net"; fi

exec deno run --cached-only --no-prompt \
  "$net_flag" \
  --allow-env=BITBUCKET_URL,BITBUCKET_TOKEN,BITBUCKET_USERNAME,BITBUCKET_MCP_STATE_KEY,BITBUCKET_CLIENT_CERT,BITBUCKET_CLIENT_KEY,BITBUCKET_OAUTH_CLIENT_SECRET \
  --allow-read="$read" \
  "$app/main.ts" "$@"
