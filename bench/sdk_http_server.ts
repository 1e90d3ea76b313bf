/**
 * The floor under the HTTP figures: the SDK's own HTTP handler on
 * `Deno.serve`, serving one tool, `list_tags`, by fetching the same fixture
 * page and returning its JSON, and nothing of ours (no entity parsing,
 * sanitising, confinement, audit or connection limits). Started like
 * `main.ts serve --http <host:port>` and announcing itself the same way, so
 * the bench measures it beside the real server in the same rounds.
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** Writes one line to stderr (stdout is not ours to use). */
const say = (line: string) => Deno.stderr.writeSync(new TextEncoder().encode(`${line}\n`));

const address = Deno.args[Deno.args.indexOf("--http") + 1] ?? "";
const [hostname, port] = [address.slice(0, address.lastIndexOf(":")), address.split(":").pop()];
const upstream = Deno.env.get("BITBUCKET_URL");
const token = Deno.env.get("BITBUCKET_TOKEN");
if (!hostname || !port || !upstream || !token) {
  say("Cannot start: give serve --http <host:port>, BITBUCKET_URL and BITBUCKET_TOKEN");
  Deno.exit(2);
}

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "sdk-floor", version: "0" });
  server.registerTool(
    "list_tags",
    {
      description: "A repository's tags.",
      inputSchema: z.object({ project: z.string(), repo: z.string() }),
    },
    async ({ project, repo }) => {
      const path = `projects/${encodeURIComponent(project)}/repos/${encodeURIComponent(repo)}`;
      const response = await fetch(`${upstream}/rest/api/latest/${path}/tags?start=0&limit=25`, {
        headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      });
      const page = await response.json() as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(page) }], structuredContent: page };
    },
  );
  return server;
});

Deno.serve({
  hostname,
  port: Number(port),
  onListen: ({ hostname, port }) => say(`serving MCP at http://${hostname}:${port}/mcp`),
}, (request) => handler.fetch(request));
