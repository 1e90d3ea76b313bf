// The floor under start-up and memory: a process that loads only what the
// server cannot do without (the MCP SDK's server and stdio entry points, and
// zod), prints its resident memory in MB, and exits.
import "@modelcontextprotocol/server";
import "@modelcontextprotocol/server/stdio";
import "zod";

Deno.stdout.writeSync(new TextEncoder().encode(`${Deno.memoryUsage().rss / 1024 / 1024}\n`));
