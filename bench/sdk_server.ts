/**
 * The floor under start-up for a server that answers: the SDK's stdio server
 * with one tool and nothing of ours, spoken to exactly as the real server is
 * (spawn → `initialize` → `tools/list` → exit). What any server on this SDK
 * and runtime pays before its own work, beside the bare-import floor.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "sdk-floor", version: "0" });
  server.registerTool(
    "echo",
    { description: "Echoes its text.", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
});
