/**
 * A way to see what passes on every transport a server instance connects:
 * the audit log watches incoming calls, the revision step rewrites outgoing
 * answers. The SDK offers no hook between the transport and its handlers, so
 * this is the one place that wraps `connect` to reach them.
 */
import type { McpServer, Transport } from "../deps/mcp.ts";

/** What a hook may wrap on a connected transport; each is given the original to call on. */
export interface TransportHook {
  /** Sees each incoming message, and delivers it (or not) with `deliver`. */
  receive?: (
    message: Parameters<NonNullable<Transport["onmessage"]>>[0],
    extra: Parameters<NonNullable<Transport["onmessage"]>>[1],
    deliver: NonNullable<Transport["onmessage"]>,
  ) => void;
  /** Sees each outgoing message, and sends it (or another) with `send`. */
  send?: (
    message: Parameters<Transport["send"]>[0],
    options: Parameters<Transport["send"]>[1],
    send: Transport["send"],
  ) => Promise<void>;
}

/** Applies `hook` to every transport `server` connects from now on. */
export function hookTransports(server: McpServer, hook: TransportHook): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    const { receive, send } = hook;
    if (deliver && receive) {
      transport.onmessage = (message, extra) => receive(message, extra, deliver);
    }
    if (send) {
      const inner = transport.send.bind(transport);
      transport.send = (message, options) => send(message, options, inner);
    }
  };
}
