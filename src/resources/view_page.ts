/**
 * The `ui://` resource every view is drawn in: the page, its MCP Apps mime
 * type, and its `_meta.ui`: an empty CSP (the page loads nothing and connects
 * nowhere) and a border. Loaded on the first read, so start-up carries none
 * of the page.
 */
import type { ReadResourceResult } from "../deps/mcp.ts";
import { APPS_MIME, VIEW_URI } from "../tools/kit/apps.ts";
import { VIEW_PAGE } from "./view_page.generated.ts";

/** The page's CSP as MCP Apps declares it: no domain of any kind. */
export const VIEW_CSP = {
  connectDomains: [],
  resourceDomains: [],
  frameDomains: [],
  baseUriDomains: [],
} as const;

/** The answer to `resources/read` of {@link VIEW_URI}. */
export function readViewPage(): ReadResourceResult {
  return {
    contents: [{
      uri: VIEW_URI,
      mimeType: APPS_MIME,
      text: VIEW_PAGE,
      _meta: { ui: { csp: VIEW_CSP, prefersBorder: true } },
    }],
  };
}
