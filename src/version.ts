/** The server's name, released version and identity, as `--version` and MCP's `serverInfo` report them. */

/** The released version, reported by `--version` and in the MCP `serverInfo`. */
export const VERSION = "0.1.0";

/** The server's name as MCP clients see it in `serverInfo`. */
export const SERVER_NAME = "bitbucket-mcp";

/** What clients show as the server's name (`serverInfo.title`). */
export const SERVER_TITLE = "Bitbucket Data Center";

/** One line on what the server is (`serverInfo.description`). */
export const SERVER_DESCRIPTION =
  "Pull requests, reviews, builds and code of a Bitbucket Data Center, for AI agents";

/** The project's home; the release workflow checks it names the repository it runs in. */
export const WEBSITE_URL = "https://github.com/bitbucket-mcp/bitbucket-mcp";

/** A 16×16 two-colour PNG (a white bucket on Bitbucket blue), 111 bytes: what VS Code draws beside the server. */
export const SERVER_ICON =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQAQMAAAAlPW0iAAAABlBMVEUAUsz////bkVLIAAAAJElEQVR42mNggAH7PyAk/4NBxgKEeAwY+AoY+D8wsD8AIRgAAL75B70Jmro3AAAAAElFTkSuQmCC";
