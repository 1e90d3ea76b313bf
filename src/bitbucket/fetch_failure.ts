/**
 * What a failed `fetch` says about the way to Bitbucket: a reason a person
 * can act on, and whether the same request might succeed if tried again.
 * Deno's fetch rejects with a bare "fetch failed" whose `cause` holds the
 * story; the innermost message is the one that names the problem.
 */
import { type Advice, NEUTRAL_HINTS } from "./advice.ts";

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
 * headers, so never the token). `trustCaHint` is the fix for a TLS failure.
 */
export function describeFetchFailure(
  error: unknown,
  origin: string,
  trustCaHint: string = NEUTRAL_HINTS.trust_ca,
): FetchFailure {
  const detail = innermostMessage(error);
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
