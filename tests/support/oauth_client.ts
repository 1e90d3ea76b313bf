/**
 * The official v2 client's OAuth side, scripted: an `OAuthClientProvider`
 * whose client is pre-registered (Bitbucket has no registration endpoint) and
 * whose "browser" fetches the authorize URL and reads the code from the
 * redirect, so a test signs in without a person.
 */
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";

type Provider = OAuthClientProvider;
type Tokens = Awaited<ReturnType<Provider["tokens"]>>;
type Discovery = Awaited<ReturnType<NonNullable<Provider["discoveryState"]>>>;

/** The redirect URL the scripted client registered (never listened on: the redirect is read, not followed). */
export const REDIRECT_URL = "http://127.0.0.1:33418/callback";

/** A pre-registered client whose sign-in is scripted; it keeps what a client keeps. */
export class ScriptedSignIn implements Provider {
  /** Every authorize URL the client was sent to. */
  readonly visited: URL[] = [];
  /** The code the last redirect carried. */
  code?: string;
  #verifier?: string;
  #tokens?: Tokens;
  #discovery?: Discovery;

  constructor(readonly clientId: string, readonly clientSecret?: string) {}

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata() {
    return {
      client_name: "scripted sign-in",
      redirect_uris: [REDIRECT_URL],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.clientSecret ? "client_secret_post" : "none",
    };
  }

  clientInformation() {
    return {
      client_id: this.clientId,
      ...(this.clientSecret ? { client_secret: this.clientSecret } : {}),
    };
  }

  tokens(): Tokens {
    return this.#tokens;
  }

  saveTokens(tokens: NonNullable<Tokens>): void {
    this.#tokens = tokens;
  }

  /** The person's browser: follows the authorize URL to its redirect and keeps the code. */
  async redirectToAuthorization(url: URL): Promise<void> {
    this.visited.push(url);
    const answer = await fetch(url, { redirect: "manual" });
    await answer.body?.cancel();
    const location = answer.headers.get("location");
    if (!location) throw new Error(`the authorize endpoint answered ${answer.status}, no redirect`);
    const back = new URL(location);
    const error = back.searchParams.get("error");
    if (error) throw new Error(`the authorize endpoint refused: ${error}`);
    this.code = back.searchParams.get("code") ?? undefined;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  saveDiscoveryState(state: NonNullable<Discovery>): void {
    this.#discovery = state;
  }

  discoveryState(): Discovery {
    return this.#discovery;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new Error("no code verifier saved");
    return this.#verifier;
  }
}

/** A fresh client (modern era) over Streamable HTTP signing in with `provider`. */
function clientFor(url: URL, provider: Provider) {
  const client = new Client(
    { name: "oauth-test", version: "0.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  return { client, transport };
}

/** A connected client and its transport (which finishes a sign-in it started). */
export interface SignedIn {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/**
 * Connects as a person would the first time: the server answers 401, the
 * client discovers the sign-in and "opens the browser", the code comes back
 * and is exchanged, and the client connects again with its token.
 */
export async function signInAndConnect(url: URL, provider: ScriptedSignIn): Promise<SignedIn> {
  const first = clientFor(url, provider);
  try {
    await first.client.connect(first.transport);
    return first; // already had a token
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  return await finishSignIn(url, provider, first.transport);
}

/** After a sign-in `transport` started (an UnauthorizedError): the code exchanged, a fresh client connected. */
export async function finishSignIn(
  url: URL,
  provider: ScriptedSignIn,
  transport: StreamableHTTPClientTransport,
): Promise<SignedIn> {
  if (!provider.code) throw new Error("the sign-in ended without a code");
  await transport.finishAuth(provider.code);
  const next = clientFor(url, provider);
  await next.client.connect(next.transport);
  return next;
}
