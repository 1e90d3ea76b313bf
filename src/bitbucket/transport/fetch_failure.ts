/**
 * What a failed `fetch` says about the way to Bitbucket: a reason a person
 * can act on, and whether the same request might succeed if tried again.
 * Deno's fetch rejects with a bare "fetch failed" whose `cause` holds the
 * story; the innermost message is the one that names the problem.
 */
import { type Advice, type HintTable, NEUTRAL_HINTS } from "./advice.ts";
import { clientAuthFailure, handshakeDetail, hungUp } from "./client_auth.ts";

/** A network failure, read. */
export interface FetchFailure {
  /** Says what failed and, where there is one, the fix. */
  reason: string;
  /** True when the connection dropped mid-way (a reset, a body cut short): worth another try for a read. */
  transient: boolean;
  /** The fix, when it is the embedding program's to word. */
  advice?: Advice;
}

/** The most specific message in an error's `cause` chain, without the URL preamble. */
export function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  let current: unknown = error;
  for (
    let depth = 0;
    depth < 5 && current instanceof Error && current.cause !== undefined;
    depth++
  ) {
    current = current.cause;
    if (current instanceof Error && current.message) message = current.message;
    else if (typeof current === "string") message = current;
  }
  // "error sending request for url (https://...): client error (Connect): ..." -> the part after the URL.
  return message.replace(/^error sending request[^)]*\)(?: \([^)]*\))?: /, "");
}

/** The words of a failed TLS handshake (an untrusted or invalid certificate), in Deno's and rustls' messages. */
const TLS_FAILURE = /certificate|UnknownIssuer|tls|ssl|handshake/i;

/** True when a failure's message (see {@link innermostMessage}) is about TLS: the one place that is decided. */
export function isTlsFailure(message: string): boolean {
  return TLS_FAILURE.test(message);
}

const DROPPED =
  /connection (?:closed|reset)|reset by peer|broken pipe|error reading a body|end of file|unexpected eof|incomplete/i;

/**
 * Reads a fetch or body-read failure against `origin` (never includes request
 * headers, so never the token). `hints` word the fixes; `presented` is the
 * subject of the client certificate sent, if any.
 */
export function describeFetchFailure(
  error: unknown,
  origin: string,
  hints: HintTable = NEUTRAL_HINTS,
  presented?: string,
): FetchFailure {
  const detail = innermostMessage(error);
  const clientAuth = clientAuthFailure(detail, presented !== undefined);
  if (clientAuth === "required") {
    return {
      reason: `the server at ${origin} asked for a client certificate (${
        handshakeDetail(detail)
      }): ${hints.send_client_cert}`,
      transient: false,
      advice: "send_client_cert",
    };
  }
  if (clientAuth === "refused") {
    return {
      reason: `the server at ${origin} refused our client certificate ${presented} (${
        handshakeDetail(detail)
      }): ${hints.fix_client_cert}`,
      transient: false,
      advice: "fix_client_cert",
    };
  }
  if (presented === undefined && hungUp(detail)) {
    return {
      reason:
        `the server at ${origin} hung up during the TLS handshake, as one that wants a client certificate may (${
          handshakeDetail(detail)
        }): ${hints.send_client_cert}`,
      transient: true,
      advice: "send_client_cert",
    };
  }
  const trustCaHint = hints.trust_ca;
  if (isTlsFailure(detail)) {
    return {
      reason: `the TLS connection to ${origin} failed (${detail}): ${trustCaHint}`,
      transient: false,
      advice: "trust_ca",
    };
  }
  if (DROPPED.test(detail)) {
    return { reason: `the connection to ${origin} dropped: ${detail}`, transient: true };
  }
  return { reason: `cannot reach ${origin}: ${detail}`, transient: false };
}
