import { McpServer } from "@modelcontextprotocol/server";
import type { BitbucketClient } from "../bitbucket/client.ts";
import { type CallPolicy, CAUTIOUS, type Tool } from "../tools/define.ts";
import { SERVER_NAME, VERSION } from "../version.ts";

/** A new MCP server holding the given tools, bound to one Bitbucket client and a policy. Reads and starts nothing. */
export function createServer(
  tools: readonly Tool[],
  bitbucket: BitbucketClient,
  policy: CallPolicy = CAUTIOUS,
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        "Bitbucket Data Center tools. Arguments named project and repo are a project key and a repository slug.",
    },
  );
  for (const tool of tools) tool.register(server, bitbucket, policy);
  return server;
}

/**
 * A pure factory for MCP servers holding the given tools, bound to one
 * Bitbucket client. `serveStdio` may call it more than once (once per era
 * probe), so it reads nothing and starts nothing.
 */
export function createServerFactory(
  tools: readonly Tool[],
  bitbucket: BitbucketClient,
  policy: CallPolicy = CAUTIOUS,
): () => McpServer {
  return () => createServer(tools, bitbucket, policy);
}
