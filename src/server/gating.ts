import type { Tool } from "../tools/define.ts";

/** The flags that decide which tools a server exposes. */
export interface ToolSelection {
  /** Expose unsafe writes too. */
  yolo: boolean;
  /** Expose read-only tools only; wins over everything else. */
  readOnly: boolean;
  /** Allowlist by name; takes precedence over the default safety filter. */
  tools?: readonly string[];
  /** Names removed last. */
  exclude?: readonly string[];
}

/**
 * The exposed tools, in catalogue order. Default: read-only and safe tools;
 * `yolo` adds unsafe ones; an allowlist replaces the safety filter; read-only
 * mode then keeps only read-only tools; `exclude` applies last.
 */
export function selectTools(catalogue: readonly Tool[], selection: ToolSelection): Tool[] {
  const allow = selection.tools ? new Set(selection.tools) : undefined;
  const exclude = new Set(selection.exclude ?? []);
  return catalogue.filter((tool) => {
    const allowed = allow ? allow.has(tool.name) : tool.safe || selection.yolo;
    return allowed && (!selection.readOnly || tool.readOnly) && !exclude.has(tool.name);
  });
}

/** Names given in `--tools`/`--exclude` that are not in the catalogue. */
export function unknownToolNames(catalogue: readonly Tool[], names: readonly string[]): string[] {
  const known = new Set(catalogue.map((t) => t.name));
  return names.filter((n) => !known.has(n));
}
