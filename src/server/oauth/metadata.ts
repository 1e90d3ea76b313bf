/**
 * The OAuth discovery documents of the HTTP mode's sign-in: Protected Resource
 * Metadata (RFC 9728) at the path-aware and the root well-known URIs, naming
 * this server's own origin as the authorization server, and at that origin an
 * RFC 8414 document whose endpoints are Bitbucket's own. Bitbucket Data Center
 * is the authorization server but publishes no discovery document and no
 * client registration, so this server publishes the document for it.
 */
import {
  type AuthMetadataOptions,
  type OAuthMetadata,
  oauthMetadataResponse,
} from "../../deps/mcp.ts";
import { restPrefix } from "../../bitbucket/transport/base_path.ts";
import type { AccessLevel } from "../../tools/kit/define.ts";
import { SERVER_NAME } from "../../version.ts";

/** Bitbucket's scope for reading repositories: every exposed tool needs it. */
export const READ_SCOPE = "REPO_READ";
/** Bitbucket's scope for writing to repositories: every write needs it (and it grants reads too). */
export const WRITE_SCOPE = "REPO_WRITE";

/** The root well-known URI of Protected Resource Metadata (RFC 9728 §3). */
export const PRM_ROOT_PATH = "/.well-known/oauth-protected-resource";
/** The well-known URI of the authorization server's metadata (RFC 8414 §3). */
export const AS_METADATA_PATH = "/.well-known/oauth-authorization-server";

/** The scopes the exposed tools need: REPO_READ, and REPO_WRITE when any of them writes. */
export function scopesFor(tools: readonly { access: { level: AccessLevel } }[]): string[] {
  const writes = tools.some((tool) => tool.access.level !== "read-only");
  return writes ? [READ_SCOPE, WRITE_SCOPE] : [READ_SCOPE];
}

/**
 * The origin a client reached this server at: the Host header (already checked
 * against the allow-list, so it cannot be forged into another name) with the
 * scheme a TLS-terminating proxy reports in `X-Forwarded-Proto`, else the
 * request's own.
 */
export function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const scheme = forwarded === "https" || forwarded === "http"
    ? forwarded
    : url.protocol.slice(0, -1);
  return `${scheme}://${request.headers.get("host") ?? url.host}`;
}

/** What the documents are made from. */
export interface MetadataInputs {
  /** Bitbucket's base URL (with its context path). */
  bitbucket: URL;
  /** The scopes the exposed tools need ({@link scopesFor}). */
  scopes: readonly string[];
  /** True when the incoming link's secret is configured: clients then authenticate at the token endpoint. */
  confidential: boolean;
}

/** The RFC 8414 document for `origin`: Bitbucket's endpoints, PKCE S256, no registration endpoint. */
export function authorizationServerMetadata(origin: string, inputs: MetadataInputs): OAuthMetadata {
  const oauth2 = `${inputs.bitbucket.origin}${restPrefix(inputs.bitbucket)}/oauth2/latest`;
  return {
    issuer: origin,
    authorization_endpoint: `${oauth2}/authorize`,
    token_endpoint: `${oauth2}/token`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    scopes_supported: [...inputs.scopes],
    token_endpoint_auth_methods_supported: inputs.confidential
      ? ["client_secret_post", "client_secret_basic"]
      : ["none"],
  };
}

/** The SDK's metadata options for a request that reached this server at `origin`, MCP served at `mcpPath`. */
export function metadataOptions(
  origin: string,
  mcpPath: string,
  inputs: MetadataInputs,
): AuthMetadataOptions {
  return {
    oauthMetadata: authorizationServerMetadata(origin, inputs),
    resourceServerUrl: new URL(mcpPath, origin),
    scopesSupported: [...inputs.scopes],
    resourceName: SERVER_NAME,
  };
}

/**
 * The answer to a request for one of the documents, or undefined when
 * `pathname` names none: the SDK serves the path-aware PRM and the RFC 8414
 * document; the root PRM URI (which clients of older revisions probe) gets
 * the same PRM document.
 */
export function metadataResponse(
  request: Request,
  options: AuthMetadataOptions,
): Response | undefined {
  const pathname = new URL(request.url).pathname.replace(/(.)\/$/, "$1");
  if (pathname === PRM_ROOT_PATH) {
    // The SDK routes the path-aware URI only: ask it for that one, with the same answer.
    const aware = new URL(request.url);
    aware.pathname = `${PRM_ROOT_PATH}${options.resourceServerUrl.pathname}`;
    return oauthMetadataResponse(new Request(aware, request), options);
  }
  return oauthMetadataResponse(request, options);
}

/** Whether `pathname` is one of the well-known URIs this module answers. */
export function isMetadataPath(pathname: string): boolean {
  return pathname.startsWith(PRM_ROOT_PATH) || pathname.startsWith(AS_METADATA_PATH);
}
