/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, stable 2026-01-26) as
 * this server speaks it: the names every room shares (the view tool, the
 * policy that negotiates it, the resource that serves the page), and the one
 * test of whether a client declared it. Kept apart from the page and the
 * view's data code, which load on first use.
 */
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from "../../deps/mcp.ts";

/** The extension's identifier, under `capabilities.extensions`. */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";

/** The mime type of an MCP Apps HTML page. */
export const APPS_MIME = "text/html;profile=mcp-app";

/** The tool that draws a view; the page is served wherever it is registered. */
export const VIEW_TOOL = "show";

/** The page every view is drawn in: one static resource, holding no Bitbucket data. */
export const VIEW_URI = "ui://bitbucket-mcp/view.html";

/** The `_meta` key of a view result: what it draws, and the payload's version. */
export const VIEW_META = "bitbucket-mcp/view";

/** The version of the view payload (`structuredContent.view`); the page refuses others. */
export const VIEW_VERSION = 1;

/** A tool's listed `_meta` linking it to the page, for the model and the page alike. */
export function viewToolMeta(visibility?: readonly ("model" | "app")[]): Record<string, unknown> {
  return {
    ui: visibility
      ? { resourceUri: VIEW_URI, visibility: [...visibility] }
      : { resourceUri: VIEW_URI },
    // The flat key the spec deprecates, still the one some hosts read.
    "ui/resourceUri": VIEW_URI,
  };
}

/** True when `_meta` (a tool's) links it to a page: such a tool is listed only to clients of the extension. */
export function isAppTool(meta: unknown): boolean {
  return typeof meta === "object" && meta !== null && "ui" in meta;
}

/** True when `_meta` (a tool's) makes it the page's alone (`visibility: ["app"]`): only a view calls it. */
export function isAppOnlyTool(meta: unknown): boolean {
  const ui = (meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  return Array.isArray(ui?.visibility) && !ui.visibility.includes("model");
}

/**
 * Whether these client capabilities declare the extension with the HTML
 * profile. Undefined capabilities (a 2025-era HTTP request without an apps
 * session id, whose `initialize` no instance remembers) declare nothing.
 */
export function declaresApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  const ui = extensions?.[APPS_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APPS_MIME);
}

/**
 * The capabilities of the client that sent a request: its own, from the
 * request's `_meta` envelope (2026-07-28), else those it declared at
 * `initialize` (`declared`: on a 2025-era HTTP request, which no instance
 * saw initialize, only what its apps session id remembers).
 */
export function requestCapabilities(
  envelope: Record<string, unknown> | undefined,
  declared: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined ?? declared;
}
