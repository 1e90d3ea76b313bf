/**
 * The MCP SDK, pinned: the one place its version is written. Every module
 * under src/ imports the SDK from here, so `deno run <url>/main.ts` needs no
 * import map; deno.json maps the bare names used by tests, bench and demo to
 * this file too.
 */
export * from "npm:@modelcontextprotocol/server@2.4.0";
export { serveStdio } from "npm:@modelcontextprotocol/server@2.4.0/stdio";
