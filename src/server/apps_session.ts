/**
 * MCP Apps remembered across a 2025-era HTTP conversation, with no server
 * state. Over stateless HTTP each request meets a fresh server instance, and
 * on the 2025 revisions the client's capabilities travel only in
 * `initialize`, so a later `tools/list` or `show` could not know that the
 * client declared the extension. The 2025 Streamable HTTP transport already
 * has a value the client repeats on every request after `initialize`:
 * `Mcp-Session-Id`. So an `initialize` that declares MCP Apps with the HTML
 * profile is answered with a session id that says so
 * (`bbmcp.apps.v1.<128 random bits in hex>`), and a later 2025-era request
 * echoing such an id is served by an instance that answers as if it had seen
 * that `initialize` declare the extension (and nothing else of it).
 *
 * The id is not signed, on purpose: it only repeats the client's own claim,
 * and forging one changes nothing but which tools that same client is listed
 * (the views are reads under the same token, confinement and audit as any
 * call). A client that declares nothing gets no session id, so what it sees
 * is unchanged; any other session id counts for nothing. The SDK's stateless
 * transport accepts any session id, and answers a session's `DELETE` with
 * 405, which the 2025 clients take as "the server keeps no sessions".
 */
import type { ClientCapabilities, McpRequestContext, McpServer } from "../deps/mcp.ts";
import { APPS_EXTENSION, APPS_MIME, declaresApps } from "../tools/kit/apps.ts";

/** What an apps session id starts with; the rest is 32 lower-case hex digits. */
export const APPS_SESSION_PREFIX = "bbmcp.apps.v1.";

const APPS_SESSION = /^bbmcp\.apps\.v1\.[0-9a-f]{32}$/;

/** The header the 2025 transport carries the session id in. */
const SESSION_HEADER = "mcp-session-id";

/** The one part of `initialize` an apps session remembers. */
const REMEMBERED: ClientCapabilities = {
  extensions: { [APPS_EXTENSION]: { mimeTypes: [APPS_MIME] } },
} as ClientCapabilities;

/** A fresh apps session id: the prefix and 128 random bits. */
export function newAppsSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return APPS_SESSION_PREFIX + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether `value` (a request's `Mcp-Session-Id`) is an apps session id. */
export function isAppsSession(value: string | null | undefined): boolean {
  return typeof value === "string" && APPS_SESSION.test(value);
}

/** Whether the JSON-RPC `body` is an `initialize` declaring MCP Apps with the HTML profile. */
export function opensAppsSession(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { capabilities?: unknown } };
  return method === "initialize" &&
    declaresApps(params?.capabilities as ClientCapabilities | undefined);
}

/**
 * `response` to the request whose parsed body is `body`: when that was an
 * `initialize` declaring MCP Apps and it succeeded, with an apps session id;
 * otherwise `response` itself, untouched.
 */
export function withAppsSession(body: unknown, response: Response): Response {
  if (!response.ok || response.headers.has(SESSION_HEADER) || !opensAppsSession(body)) {
    return response;
  }
  const headers = new Headers(response.headers);
  headers.set(SESSION_HEADER, newAppsSessionId());
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * `factory`, its instances for 2025-era requests that carry an apps session
 * id answering `getClientCapabilities()` with the extension declared (what
 * both the `tools/list` cut and the view tools read on that era) whenever
 * the instance saw no `initialize` of its own. Other requests get the
 * instance as it was made.
 */
export function rememberingApps(
  factory: (ctx: McpRequestContext) => McpServer,
): (ctx: McpRequestContext) => McpServer {
  return (ctx) => {
    const server = factory(ctx);
    if (ctx.era !== "legacy" || !isAppsSession(ctx.requestInfo?.headers.get(SESSION_HEADER))) {
      return server;
    }
    const inner = server.server;
    const declared = inner.getClientCapabilities.bind(inner);
    inner.getClientCapabilities = () => declared() ?? REMEMBERED;
    return server;
  };
}
