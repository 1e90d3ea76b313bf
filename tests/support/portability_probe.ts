/**
 * A stand-in MCP server over stdio, speaking raw JSON-RPC, whose one tool has
 * the schema-portability problems the MCP Inspector's `--strict` reports (a
 * `type` array, a schema that accepts any value): the inspector test runs it
 * to show its check finds what it looks for, before trusting the check's
 * silence about the real server.
 */

/** The tool it lists: the two problems, each at a known path. */
const TOOL = {
  name: "probe",
  description: "A tool whose schema has two portability problems.",
  inputSchema: {
    type: "object",
    properties: {
      either: { type: ["string", "number"] },
      anything: { description: "No keyword at all" },
    },
  },
};

/** The answer to one request, or undefined for a notification. */
function answer(message: { id?: unknown; method?: string; params?: Record<string, unknown> }) {
  if (message.id === undefined) return undefined;
  const reply = (result: unknown) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return reply({
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "portability-probe", version: "0.0.0" },
      });
    case "tools/list":
      return reply({ tools: [TOOL] });
    case "ping":
      return reply({});
    default:
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      };
  }
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  let buffered = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line === "") continue;
      const reply = answer(JSON.parse(line));
      if (reply) await Deno.stdout.write(encoder.encode(JSON.stringify(reply) + "\n"));
    }
  }
}
