/**
 * Sign-in with Bitbucket (OAuth) for the HTTP mode, as one gate the handler
 * consults: it serves the discovery documents, lets in only requests whose
 * bearer token Bitbucket vouches for (the server-wide token never serves
 * anyone here), challenges a write whose token lacks REPO_WRITE, and learns
 * that from Bitbucket refusing a write. The challenges are the SDK's own
 * (`requireBearerAuth`, tool scope challenges), so each 401 and 403 carries
 * `resource_metadata`, and a 403 the scope to ask for.
 */
import {
  type AuthInfo,
  getOAuthProtectedResourceMetadataUrl,
  requireBearerAuth,
  type ScopeChallengeHandler,
} from "../../deps/mcp.ts";
import { type Registration, registrationOf } from "../../policy/sdk_registration.ts";
import type { ToolConfig, ToolEntry } from "../../tools/kit/define.ts";
import {
  isMetadataPath,
  type MetadataInputs,
  metadataOptions,
  metadataResponse,
  publicOrigin,
  READ_SCOPE,
  scopesFor,
  WRITE_SCOPE,
} from "./metadata.ts";
import { bitbucketIdentity, BitbucketTokenVerifier } from "./verifier.ts";
import type { ClientCertificate } from "../../bitbucket/transport/client_auth.ts";

/** How the sign-in is set up: the incoming link Bitbucket's administrator made for the clients. */
export interface OAuthSettings {
  /** The incoming link's client id (what each client is configured with). */
  clientId: string;
  /** True when the link's secret is configured: clients then send it to Bitbucket's token endpoint. */
  confidential: boolean;
}

/** What the gate needs besides the settings. */
export interface OAuthGateOptions {
  settings: OAuthSettings;
  /** Bitbucket's base URL (with its context path). */
  bitbucket: URL;
  /** The exposed tools: their access levels decide the scopes. */
  tools: readonly ToolEntry[];
  /** The path MCP is served on (the resource's path). */
  mcpPath: string;
  timeoutMs: number;
  /** The `fetch` Bitbucket is reached with. */
  fetch?: typeof fetch;
  /** The client certificate Bitbucket's requests present, if any. */
  clientCertificate?: ClientCertificate;
}

/** The sign-in as the HTTP handler uses it. */
export interface OAuthGate {
  /** The scopes the exposed tools need, as advertised. */
  readonly scopes: readonly string[];
  /** Whether `pathname` is one of the well-known discovery URIs the gate answers. */
  serves(pathname: string): boolean;
  /** Answers a request for a well-known discovery URI (404 for one the gate does not publish). */
  documents(request: Request): Response;
  /** The verified auth info of an MCP request, or the 401 (or 500) challenge to answer with. */
  authenticate(request: Request): Promise<AuthInfo | Response>;
  /** `registrations` with every write challenged for REPO_WRITE when the token lacks it. */
  scoped(registrations: readonly Registration[]): Registration[];
  /** `base` (the global fetch by default), telling the verifier of each refusal of `token`. */
  watching(token: string, base?: typeof fetch): typeof fetch;
}

/** The challenge a write answers when its token lacks REPO_WRITE: both scopes, since it reads as well. */
const needsWrite: ScopeChallengeHandler = ({ authInfo }) =>
  authInfo && !authInfo.scopes.includes(WRITE_SCOPE)
    ? {
      scopes: [READ_SCOPE, WRITE_SCOPE],
      errorDescription:
        `This tool writes to Bitbucket: sign in again granting ${WRITE_SCOPE} (Bitbucket refused a write with this token)`,
    }
    : undefined;

/** Builds the gate for the exposed tools. */
export function createOAuthGate(options: OAuthGateOptions): OAuthGate {
  const scopes = scopesFor(options.tools);
  const inputs: MetadataInputs = {
    bitbucket: options.bitbucket,
    scopes,
    confidential: options.settings.confidential,
  };
  const verifier = new BitbucketTokenVerifier({
    bitbucket: options.bitbucket,
    clientId: options.settings.clientId,
    identify: bitbucketIdentity({
      baseUrl: options.bitbucket,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      clientCertificate: options.clientCertificate,
    }),
    scopes,
  });
  const writes = new Set(
    options.tools.filter((t) => t.access.level !== "read-only").map((t) => t.name),
  );
  return {
    scopes,
    serves: isMetadataPath,
    documents(request) {
      const origin = publicOrigin(request);
      return metadataResponse(request, metadataOptions(origin, options.mcpPath, inputs)) ??
        Response.json({ error: "not_found", error_description: "no such document" }, {
          status: 404,
        });
    },
    authenticate(request) {
      const resource = new URL(options.mcpPath, publicOrigin(request));
      return requireBearerAuth({
        verifier: verifier.forResource(resource),
        resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
        expectedResource: resource,
      })(request);
    },
    scoped(registrations) {
      return registrations.map((r) => {
        if (!writes.has(r.name)) return r;
        const config: ToolConfig & { scopeChallenge: ScopeChallengeHandler } = {
          ...r.config,
          scopeChallenge: needsWrite,
        };
        return registrationOf(r.name, config, r.callback);
      });
    },
    watching(token, base = fetch) {
      const watched = async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await base(input, init);
        const method = (init?.method ?? (input instanceof Request ? input.method : "GET"))
          .toUpperCase();
        const write = method !== "GET" && method !== "HEAD";
        if (response.status === 401 || (write && response.status === 403)) {
          await verifier.refused(token, write);
        }
        return response;
      };
      return watched as typeof fetch;
    },
  };
}

/** What the HTTP handler has that the gate is built from. */
export interface GateSource {
  oauth?: OAuthSettings;
  config: { baseUrl: URL; timeoutMs: number; clientCertificate?: ClientCertificate };
  tools: readonly ToolEntry[];
  fetch?: typeof fetch;
}

/** The gate of an HTTP handler whose options turn the sign-in on; undefined when they do not. */
export function oauthGateFor(source: GateSource, mcpPath: string): OAuthGate | undefined {
  if (!source.oauth) return undefined;
  const { baseUrl, timeoutMs, clientCertificate } = source.config;
  return createOAuthGate({
    settings: source.oauth,
    bitbucket: baseUrl,
    tools: source.tools,
    mcpPath,
    timeoutMs,
    fetch: source.fetch,
    clientCertificate,
  });
}

/** `registrations` as the gate scopes them, or as they are without one. */
export function withScopes(
  gate: OAuthGate | undefined,
  registrations: Registration[],
): Registration[] {
  return gate ? gate.scoped(registrations) : registrations;
}
