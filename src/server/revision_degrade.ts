/**
 * Every revision gets what it can read. A client validates each answer
 * against its own revision's schema: an unknown field passes (every result is
 * an open object), but a content block of a type its revision lacks fails the
 * whole answer. So every result a server instance sends passes through this
 * one step, which knows the request's negotiated revision and rewrites each
 * content block newer than it from {@link CONTENT_SINCE}; no tool, prompt or
 * resource knows revisions. The revision is the request's own on 2026-07-28
 * (its `_meta` envelope), the `MCP-Protocol-Version` header on a 2025-era HTTP
 * request (2025-03-26 when absent, as the spec says), else what `initialize`
 * negotiated on the connection.
 */
import { isJSONRPCRequest, type McpServer, PROTOCOL_VERSION_META_KEY } from "../deps/mcp.ts";
import { hookTransports } from "./transport_hook.ts";

/** The revision each content block type arrived in; a client before it rejects the block. */
export const CONTENT_SINCE: Readonly<Record<string, string>> = {
  text: "2024-11-05",
  image: "2024-11-05",
  resource: "2024-11-05",
  audio: "2025-03-26",
  resource_link: "2025-06-18",
};

/** The revision assumed for a 2025-era HTTP request without `MCP-Protocol-Version`. */
const HTTP_DEFAULT_REVISION = "2025-03-26";

/** A content block as any revision writes it. */
type Block = Record<string, unknown> & { type?: unknown };

/** `block` as `revision` can read it: as it is, or a text line saying what it was. */
export function degradeBlock(block: Block, revision: string): Block {
  const since = typeof block.type === "string" ? CONTENT_SINCE[block.type] : undefined;
  if (since !== undefined && since <= revision) return block;
  if (block.type === "resource_link") {
    const label = typeof block.title === "string" ? block.title : block.name;
    return { type: "text", text: `${label}: ${block.uri} (read it as a resource)` };
  }
  return { type: "text", text: `(a ${String(block.type)} block this client cannot show)` };
}

/** `result` with every content block (tool results, prompt messages) readable by `revision`. */
export function degradeResult(result: unknown, revision: string): unknown {
  if (typeof result !== "object" || result === null) return result;
  const r = result as Record<string, unknown>;
  const out = { ...r };
  let changed = false;
  if (Array.isArray(r.content)) {
    const content = r.content.map((b: Block) => degradeBlock(b, revision));
    if (content.some((b, i) => b !== (r.content as unknown[])[i])) {
      out.content = content;
      changed = true;
    }
  }
  if (Array.isArray(r.messages)) {
    const messages = r.messages.map((m: { content?: Block }) => {
      if (typeof m?.content !== "object" || m.content === null) return m;
      const content = degradeBlock(m.content, revision);
      return content === m.content ? m : { ...m, content };
    });
    if (messages.some((m, i) => m !== (r.messages as unknown[])[i])) {
      out.messages = messages;
      changed = true;
    }
  }
  return changed ? out : result;
}

/** The revision a request was sent for, when the request itself says (envelope or HTTP header). */
function revisionOf(message: { params?: unknown }, extra: unknown): string | undefined {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const enveloped = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof enveloped === "string") return enveloped;
  const request = (extra as { request?: unknown } | undefined)?.request;
  if (request instanceof Request) {
    return request.headers.get("mcp-protocol-version") ?? HTTP_DEFAULT_REVISION;
  }
  return undefined;
}

/**
 * `server`, each response it sends degraded to the revision its request was
 * sent for (see the module header).
 */
export function degradingByRevision(server: McpServer): void {
  const revisions = new Map<string | number, string | undefined>();
  hookTransports(server, {
    receive(message, extra, deliver) {
      if (isJSONRPCRequest(message)) revisions.set(message.id, revisionOf(message, extra));
      return deliver(message, extra);
    },
    send(message, options, send) {
      const m = message as { id?: string | number; method?: unknown; result?: unknown };
      // A request of the server's own (elicitation) may share an id with one of the client's.
      if (m.id === undefined || "method" in m || !revisions.has(m.id)) {
        return send(message, options);
      }
      const revision = revisions.get(m.id) ?? server.server.getNegotiatedProtocolVersion();
      revisions.delete(m.id);
      if (revision === undefined || !("result" in m)) return send(message, options);
      const result = degradeResult(m.result, revision);
      return send(
        result === m.result ? message : { ...message, result } as typeof message,
        options,
      );
    },
  });
}
