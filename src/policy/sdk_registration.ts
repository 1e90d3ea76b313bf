/**
 * A tool as the SDK registers it: its name, config and callback, added to a
 * server instance as they are. The call policy (`registration.ts`) and the
 * wrappers around it (audit, confinement) each make one of these.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  InputRequiredResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
} from "../deps/mcp.ts";
import type { ToolConfig } from "../tools/kit/define.ts";
import type { CallRecorder } from "./audit.ts";
import { connectionCapabilities } from "./confirmation.ts";

/**
 * A tool call as the SDK makes it, once `args` passed the input schema;
 * `connection` gives the capabilities the client declared at initialize
 * (2025 era), which the context does not carry; `recorder`, under an audit
 * log, takes the call's Bitbucket requests and confirmation outcome.
 */
export type ToolCallback = (
  args: unknown,
  ctx: ServerContext,
  connection: () => ClientCapabilities | undefined,
  recorder?: CallRecorder,
) => Promise<CallToolResult | InputRequiredResult>;

/** One tool as the SDK registers it: its config and its callback. */
export interface Registration {
  readonly name: string;
  readonly config: ToolConfig;
  readonly callback: ToolCallback;
  /** Registers the tool on `server`. */
  addTo(server: McpServer): void;
}

/** The registration of `name` with this config and callback. */
export function registrationOf(
  name: string,
  config: ToolConfig,
  callback: ToolCallback,
): Registration {
  return {
    name,
    config,
    callback,
    addTo(server) {
      // What the client declared, less what its negotiated revision lacks.
      const connection = () =>
        connectionCapabilities(
          server.server.getClientCapabilities(),
          server.server.getNegotiatedProtocolVersion(),
        );
      server.registerTool<StandardSchemaWithJSON, StandardSchemaWithJSON>(
        name,
        config,
        (args, ctx) => callback(args, ctx, connection),
      );
    },
  };
}
