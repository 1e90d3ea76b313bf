/** The server's name and released version, as `--version` and MCP's `serverInfo` report them. */

/** The released version, reported by `--version` and in the MCP `serverInfo`. */
export const VERSION = "0.1.0";

/** The server's name as MCP clients see it in `serverInfo`. */
export const SERVER_NAME = "bitbucket-mcp";
