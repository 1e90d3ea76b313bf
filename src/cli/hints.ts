/**
 * The words for the fixes the lower layers suggest, in the command line's own
 * terms: its flags (`--timeout`, `--max-response-mb`, `--allow-host`) and
 * environment variables (`BITBUCKET_URL`, `BITBUCKET_TOKEN`, `DENO_CERT`).
 * The Bitbucket client and the HTTP server know the fix but not these names;
 * every entry point that builds one hands it these.
 */
import type { HintTable } from "../bitbucket/transport/advice.ts";

/** Each fix a Bitbucket error may suggest, naming the flag or variable that makes it. */
export const CLI_HINTS: HintTable = {
  raise_timeout: "raise --timeout if Bitbucket is slow",
  raise_response_cap: "ask for less (a smaller limit, a narrower path) or raise --max-response-mb",
  check_base_url: "check BITBUCKET_URL",
  check_context_path: "check that BITBUCKET_URL includes Bitbucket's context path",
  check_not_web_page: "check that BITBUCKET_URL is the Bitbucket base URL",
  check_not_proxy:
    "check that BITBUCKET_URL is Bitbucket Data Center itself, not a proxy in front of it",
  renew_token:
    "the token is invalid or expired; create a new HTTP access token and set BITBUCKET_TOKEN",
  trust_ca:
    "if Bitbucket's certificate comes from a private CA, give Deno that CA with DENO_CERT=/path/to/ca.pem or deno run --cert /path/to/ca.pem",
  send_client_cert:
    "set BITBUCKET_CLIENT_CERT and BITBUCKET_CLIENT_KEY to the PEM files of your client certificate and its key (and add both to --allow-env and the files to --allow-read)",
  fix_client_cert:
    "set BITBUCKET_CLIENT_CERT to a current certificate issued by a CA the server trusts, and BITBUCKET_CLIENT_KEY to its key (bitbucket-mcp check shows its subject and expiry)",
};

/** The fix for a Host or Origin header the HTTP mode refuses. */
export const ALLOW_HOST_HINT = "add it with --allow-host";
