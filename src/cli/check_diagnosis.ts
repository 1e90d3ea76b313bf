/**
 * Reads what went wrong on the way to Bitbucket, the way a support engineer
 * would: a diagnosis a person can understand and the fix to try. Used by the
 * `check` command only; nothing here ever sees the token.
 */
import { isHtml } from "../bitbucket/transport/body.ts";
import type { BitbucketError } from "../bitbucket/transport/errors.ts";
import {
  clientAuthFailure,
  clientAuthPage,
  handshakeDetail,
} from "../bitbucket/transport/client_auth.ts";
import { innermostMessage, isTlsFailure } from "../bitbucket/transport/fetch_failure.ts";
import { CLI_HINTS } from "./hints.ts";

/** What failed, and what to do about it. */
export interface Diagnosis {
  detail: string;
  fix: string;
}

/**
 * Why a request to `url` got no HTTP answer at all: DNS, refused, TLS (our
 * client certificate wanted or refused; `presented` is the subject of the one
 * sent), timeout or other.
 */
export function diagnoseConnection(
  error: unknown,
  url: URL,
  timeoutMs: number,
  presented?: string,
): Diagnosis {
  const name = error instanceof Error ? error.name : "";
  const text = innermostMessage(error);
  const host = url.hostname;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (name === "TimeoutError") {
    return {
      detail: `no answer from ${host}:${port} within ${timeoutMs / 1000} s`,
      fix:
        "check that this machine can reach Bitbucket (VPN, firewall, proxy), or raise --timeout if it is just slow",
    };
  }
  if (
    /dns error|failed to lookup address|name or service not known|nodename nor servname/i.test(text)
  ) {
    return {
      detail: `cannot resolve ${host}: no DNS answer for that name (${text})`,
      fix:
        "check the host name in BITBUCKET_URL; if Bitbucket is on an internal network, connect to it (VPN) first",
    };
  }
  if (/connection refused|os error 111|os error 61|ECONNREFUSED/i.test(text)) {
    return {
      detail: `${host}:${port} refused the connection: nothing listens on that port`,
      fix: `check the port in BITBUCKET_URL (${
        url.protocol === "https:" ? "https defaults to 443" : "http defaults to 80"
      }) and that Bitbucket is running`,
    };
  }
  const clientAuth = clientAuthFailure(text, presented !== undefined);
  if (clientAuth === "required") {
    return {
      detail: `the server at ${host}:${port} asked for a client certificate (${
        handshakeDetail(text)
      })`,
      fix: CLI_HINTS.send_client_cert,
    };
  }
  if (clientAuth === "refused") {
    return {
      detail: `the server at ${host}:${port} refused our client certificate ${presented} (${
        handshakeDetail(text)
      })`,
      fix: CLI_HINTS.fix_client_cert,
    };
  }
  if (isTlsFailure(text)) {
    return {
      detail: `TLS to ${host}:${port} failed: ${text}`,
      fix:
        "if Bitbucket's certificate comes from a private CA, give Deno that CA: DENO_CERT=/path/to/ca.pem in the environment, or --cert /path/to/ca.pem on deno run (DENO_TLS_CA_STORE=system uses the system's trusted CAs)",
    };
  }
  return {
    detail: `cannot connect to ${host}:${port}: ${text}`,
    fix: "check BITBUCKET_URL and that this machine can reach Bitbucket",
  };
}

/** The title of an HTML page, to name a login or proxy page. */
function pageTitle(text: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim().replace(/\s+/g, " ");
  return title ? title.slice(0, 80) : undefined;
}

const CONTEXT_PATH_FIX =
  "set BITBUCKET_URL to the address Bitbucket's own pages are under, with its context path if it has one (e.g. https://example.com/bitbucket)";

/** Why `application-properties` did not answer as Bitbucket does: redirect, 404, HTML or another status. */
export function diagnoseNotBitbucket(
  status: number,
  contentType: string,
  text: string,
  location: string | null,
  probe: URL,
): Diagnosis {
  const clientAuth = clientAuthPage(status, text);
  if (clientAuth !== undefined) {
    const page = pageTitle(text) ?? `HTTP ${status}`;
    return {
      detail: clientAuth === "send_client_cert"
        ? `the server at ${probe.host} asked for a client certificate ("${page}")`
        : `the server at ${probe.host} refused our client certificate ("${page}")`,
      fix: CLI_HINTS[clientAuth],
    };
  }
  if (status >= 300 && status < 400) {
    const target = location ? new URL(location, probe) : undefined;
    if (target && target.origin === probe.origin) {
      const moved = target.pathname.replace(/\/rest\/api\/[^/]+\/application-properties$/, "");
      return {
        detail: `${probe.pathname} redirected (${status}) to ${target.pathname}`,
        fix: moved !== target.pathname
          ? `Bitbucket seems to live at ${target.origin}${moved}: set BITBUCKET_URL to that`
          : CONTEXT_PATH_FIX,
      };
    }
    return {
      detail: `${probe.pathname} redirected (${status}) to ${
        target ? target.origin + target.pathname : "nowhere"
      }: a login (SSO) page or a proxy is in front of Bitbucket`,
      fix:
        `${CONTEXT_PATH_FIX}; the REST API must be reachable there with a token, without a browser login`,
    };
  }
  if (status === 404) {
    return {
      detail:
        `no Bitbucket REST API at ${probe.pathname} (404): the context path is probably wrong`,
      fix: CONTEXT_PATH_FIX,
    };
  }
  if (isHtml(contentType, text)) {
    const title = pageTitle(text);
    return {
      detail: `got an HTML page${
        title ? ` ("${title}")` : ""
      } where Bitbucket answers JSON (HTTP ${status}): a wrong context path, or a login (SSO) or proxy page in front of Bitbucket`,
      fix:
        `${CONTEXT_PATH_FIX}; if a login page is in the way, the REST API must be reachable with a token`,
    };
  }
  if (status >= 500) {
    return {
      detail:
        `the server answered ${status}: Bitbucket may be starting, down, or behind a failing proxy`,
      fix: "try again in a few minutes; if it persists, ask the Bitbucket administrators",
    };
  }
  if (status >= 200 && status < 300) {
    return {
      detail:
        `the server answered, but not as Bitbucket Data Center does (no version in ${probe.pathname})`,
      fix:
        "set BITBUCKET_URL to your Bitbucket Data Center server (Bitbucket Cloud is not supported)",
    };
  }
  return {
    detail: `the server answered ${status} to ${probe.pathname}, which needs no login on Bitbucket`,
    fix: `${CONTEXT_PATH_FIX}; a proxy that demands a login must let the REST API through`,
  };
}

/** Why the authenticated request failed: a refused token, a missing permission, or the way there. */
export function diagnoseToken(error: BitbucketError, username: string | undefined): Diagnosis {
  switch (error.kind) {
    case "unauthorized":
      return {
        detail: `Bitbucket refused the token (401): it is wrong, expired or revoked${
          username ? `, or does not belong to BITBUCKET_USERNAME=${username}` : ""
        }`,
        fix:
          "create a new HTTP access token (Bitbucket: your avatar > Manage account > HTTP access tokens) and export it as BITBUCKET_TOKEN",
      };
    case "forbidden":
      return {
        detail:
          "Bitbucket accepted the token but refused the request (403): the token, or its user, lacks permission",
        fix:
          "use a personal HTTP access token of a licensed user, with at least Repository read permission (Repository write for the write tools)",
      };
    case "invalid_response":
      return {
        detail: error.message,
        fix:
          `${CONTEXT_PATH_FIX}; the REST API must be reachable with a token, without a browser login`,
      };
    default:
      return {
        detail: error.message,
        fix: "check BITBUCKET_URL and BITBUCKET_TOKEN, then run check again",
      };
  }
}
