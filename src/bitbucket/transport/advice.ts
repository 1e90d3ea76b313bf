/**
 * What to do about a failure that the program embedding the client must word:
 * raising its timeout, fixing its base URL, renewing its token. The client
 * knows the fix but not the program's flags and variables, so each fix is a
 * closed key on the error, and the program supplies the words for the keys
 * (the CLI's, in `src/cli/hints.ts`, name its flags and variables); keys it
 * leaves out are worded neutrally.
 */

/** A fix that names the embedding program's configuration. */
export type Advice =
  /** No answer in time: a longer timeout may do. */
  | "raise_timeout"
  /** The answer is over the size cap: ask for less, or raise the cap. */
  | "raise_response_cap"
  /** A redirect left the base URL or looped: the base URL is probably wrong. */
  | "check_base_url"
  /** A redirect left the context path: the base URL probably lacks it. */
  | "check_context_path"
  /** An HTML page where JSON was expected: the base URL leads to a login, SSO or proxy page. */
  | "check_not_web_page"
  /** No body where one was expected: something in front of Bitbucket answered. */
  | "check_not_proxy"
  /** Bitbucket refused the token (401). */
  | "renew_token"
  /** The TLS handshake failed: Bitbucket's CA is not trusted. */
  | "trust_ca"
  /** The server asked for a client certificate (mutual TLS) and none was sent. */
  | "send_client_cert"
  /** The server refused the client certificate sent: expired, or from a CA it does not trust. */
  | "fix_client_cert";

/** The words for every {@link Advice}. */
export type HintTable = Readonly<Record<Advice, string>>;

/** The words an embedding program gives for some or all {@link Advice} keys. */
export type Hints = Partial<HintTable>;

/** The words used for a key the program gives none for: they name no flag and no variable. */
export const NEUTRAL_HINTS: HintTable = {
  raise_timeout: "raise the timeout if Bitbucket is slow",
  raise_response_cap: "ask for less (a smaller limit, a narrower path) or raise the response cap",
  check_base_url: "check the Bitbucket base URL",
  check_context_path: "check that the base URL includes Bitbucket's context path",
  check_not_web_page: "check that the base URL is the Bitbucket base URL",
  check_not_proxy:
    "check that the base URL is Bitbucket Data Center itself, not a proxy in front of it",
  renew_token: "the token is invalid or expired; create a new HTTP access token",
  trust_ca: "if Bitbucket's certificate comes from a private CA, make the runtime trust that CA",
  send_client_cert: "configure a client certificate and its key",
  fix_client_cert:
    "use a current client certificate issued by a CA the server trusts, with its own key",
};

/** The program's words where it gave some, the neutral ones elsewhere. */
export function hintTable(hints: Hints = {}): HintTable {
  return { ...NEUTRAL_HINTS, ...hints };
}
