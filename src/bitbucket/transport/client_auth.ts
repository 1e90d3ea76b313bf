/**
 * Client certificates (mutual TLS) on the way to Bitbucket: the certificate a
 * connection presents, and reading a failed handshake as the server (often a
 * zero-trust proxy in front of Bitbucket) asking for one or refusing ours.
 */

/** The client certificate every request presents: the HTTP client holding it, and its name. */
export interface ClientCertificate {
  /** Passed as `client` to each `fetch`; it trusts the CAs a plain `fetch` trusts. */
  httpClient: Deno.HttpClient;
  /** How errors name it: its subject, e.g. `CN=alice, O=Example Corp`. */
  subject: string;
}

/** What a failed handshake says about client certificates. */
export type ClientAuthFailure =
  /** The server wants a certificate and none was sent. */
  | "required"
  /** The server refused the certificate sent. */
  | "refused";

/** A TLS alert the server sent us, by rustls' name (`received fatal alert: CertificateRequired`). */
const ALERT = /received fatal alert: (\w+)/;

/** The alert of a server that wants a client certificate it did not get. */
const WANTS_ONE = "CertificateRequired";

/** The alerts of a server about the certificate it got: unknown issuer, expired, revoked, bad, … */
const REFUSED: ReadonlySet<string> = new Set([
  "UnknownCA",
  "BadCertificate",
  "CertificateExpired",
  "CertificateRevoked",
  "CertificateUnknown",
  "UnsupportedCertificate",
  "AccessDenied",
  "HandshakeFailure",
  "DecryptError",
]);

/** A server that ends the handshake without a word, as some do instead of sending an alert. */
const HUNG_UP = /peer closed connection without sending TLS close_notify/i;

/**
 * Reads a failure's innermost message (see `innermostMessage`): whether the
 * server asked for a client certificate, or refused the one sent
 * (`presented`); undefined when the failure is about something else. A server
 * that hangs up mid-handshake is read as refusing ours only when one was sent.
 */
export function clientAuthFailure(
  message: string,
  presented: boolean,
): ClientAuthFailure | undefined {
  const alert = ALERT.exec(message)?.[1];
  if (alert === WANTS_ONE) return presented ? "refused" : "required";
  if (!presented) return undefined;
  if ((alert !== undefined && REFUSED.has(alert)) || HUNG_UP.test(message)) return "refused";
  return undefined;
}

/**
 * The server ended the handshake without a word. Sent no certificate, that is
 * what a server that wants one may look like when its alert is lost to the
 * race of TLS 1.3 (the alert comes after the client's last handshake message,
 * and the connection may close before it is read): worth one more try.
 */
export function hungUp(message: string): boolean {
  return HUNG_UP.test(message);
}

/** A handshake failure's words, without the link to rustls' manual some of them end with. */
export function handshakeDetail(message: string): string {
  return message.replace(/: https:\/\/docs\.rs\/\S*$/, "");
}

/**
 * NGINX completes the handshake without a client certificate it requires, or
 * with one it refuses, and answers 400 with a page saying which (its 496 and
 * 495 pages): the fix such a page calls for, if it is one of them.
 */
export function clientAuthPage(
  status: number,
  text: string,
): "send_client_cert" | "fix_client_cert" | undefined {
  if (status !== 400) return undefined;
  if (text.includes("No required SSL certificate was sent")) return "send_client_cert";
  if (text.includes("The SSL certificate error")) return "fix_client_cert";
  return undefined;
}
