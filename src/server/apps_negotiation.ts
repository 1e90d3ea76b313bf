/**
 * MCP Apps, negotiated per request: a tool linked to a page (`_meta.ui`) is
 * listed only to a client that declared the extension for the request that
 * asked (`tools/list` answers are cut on their way out, knowing the request's
 * capabilities: the 2026-07-28 envelope, else what `initialize` declared,
 * which on 2025-era HTTP only an apps session id carries over:
 * apps_session.ts). The server adds nothing to its own
 * capabilities: hosts find a view by the tool's `_meta.ui`, and every
 * revision's client reads the capabilities it knows. A call that arrives
 * anyway is the tool's to answer (the view tool says nothing was shown).
 */
import { isJSONRPCRequest, type McpServer } from "../deps/mcp.ts";
import { declaresApps, requestCapabilities } from "../tools/kit/apps.ts";
import { hookTransports } from "./transport_hook.ts";

/** `server`, its `tools/list` answers without `appTools` for clients that did not declare the extension. */
export function negotiatingApps(server: McpServer, appTools: ReadonlySet<string>): void {
  if (appTools.size === 0) return;
  // Per tools/list request in flight: the envelope it carried, if any.
  const listing = new Map<string | number, Record<string, unknown> | undefined>();
  hookTransports(server, {
    receive(message, extra, deliver) {
      if (isJSONRPCRequest(message) && message.method === "tools/list") {
        const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
        listing.set(message.id, meta);
      }
      return deliver(message, extra);
    },
    send(message, options, send) {
      const m = message as { id?: string | number; method?: unknown; result?: unknown };
      if (m.id === undefined || "method" in m || !listing.has(m.id)) return send(message, options);
      const own = listing.get(m.id);
      listing.delete(m.id);
      const result = m.result as { tools?: { name: string }[] } | undefined;
      if (!Array.isArray(result?.tools)) return send(message, options);
      const capabilities = requestCapabilities(own, server.server.getClientCapabilities());
      if (declaresApps(capabilities)) return send(message, options);
      const tools = result.tools.filter((t) => !appTools.has(t.name));
      return send({ ...message, result: { ...result, tools } } as typeof message, options);
    },
  });
}
