import { McpServer } from "../deps/mcp.ts";
import type { BitbucketClient } from "../bitbucket/client.ts";
import {
  type CallPolicy,
  CAUTIOUS,
  type ClientSource,
  type Registrable,
  type Registration,
} from "../tools/define.ts";
import { SERVER_NAME, VERSION } from "../version.ts";

/** What the server says about itself in `initialize` and `server/discover`. */
const INSTRUCTIONS =
  "Bitbucket Data Center tools. Arguments named project and repo are a project key and a repository slug.";

/** Each tool's registration, made once: every server instance then registers these as they are. */
export function registrations(
  tools: readonly Registrable[],
  clients: ClientSource,
  policy: CallPolicy = CAUTIOUS,
): Registration[] {
  return tools.map((tool) => tool.registration(clients, policy));
}

/**
 * A new MCP server holding the given registrations. The SDK serves one
 * request (HTTP) or one connection (stdio) per instance, so this is all an
 * instance costs: everything it holds was made once per process.
 */
export function serverWith(tools: Iterable<Registration>): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  for (const registration of tools) registration.addTo(server);
  return server;
}

/**
 * A pure factory for MCP servers holding the given tools, each call served by
 * one Bitbucket client. `serveStdio` may call it more than once (once per era
 * probe), so it reads nothing and starts nothing.
 */
export function createServerFactory(
  tools: readonly Registrable[],
  bitbucket: BitbucketClient,
  policy: CallPolicy = CAUTIOUS,
): () => McpServer {
  const made = registrations(tools, () => bitbucket, policy);
  return () => serverWith(made);
}
