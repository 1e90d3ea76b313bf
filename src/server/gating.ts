import { toolsetOf, TOOLSETS } from "../tools/catalogue.ts";
import type { Tool } from "../tools/define.ts";

/** The flags that decide which tools a server exposes. */
export interface ToolSelection {
  /** Expose unsafe writes too. */
  yolo: boolean;
  /** Expose read-only tools only; wins over everything else. */
  readOnly: boolean;
  /** Allowlist by name; takes precedence over the default safety filter. */
  tools?: readonly string[];
  /** Toolsets whose tools (subject to the safety filter) are exposed. */
  toolsets?: readonly string[];
  /** Names removed last. */
  exclude?: readonly string[];
}

/**
 * The exposed tools, in catalogue order:
 * 1. candidates: the tools of `toolsets` that pass the safety filter (safe
 *    ones; all with `yolo`), plus every tool named in `tools` whatever its
 *    safety; with neither option, every tool that passes the safety filter;
 * 2. `readOnly` keeps only read-only tools, whatever was asked;
 * 3. `exclude` removes last.
 */
export function selectTools(catalogue: readonly Tool[], selection: ToolSelection): Tool[] {
  const named = new Set(selection.tools ?? []);
  const sets = selection.toolsets
    ? new Set(selection.toolsets)
    : selection.tools
    ? new Set<string>()
    : undefined;
  const exclude = new Set(selection.exclude ?? []);
  return catalogue.filter((tool) => {
    const inSets = sets === undefined || sets.has(toolsetOf(tool) ?? "");
    const { level } = tool.access;
    const candidate = named.has(tool.name) ||
      (inSets && (level !== "unsafe write" || selection.yolo));
    return candidate && (!selection.readOnly || level === "read-only") && !exclude.has(tool.name);
  });
}

/** Toolset names given in `--toolsets` that do not exist. */
export function unknownToolsets(names: readonly string[]): string[] {
  const known = new Set(TOOLSETS.map((s) => s.name));
  return names.filter((n) => !known.has(n));
}

/** Names given in `--tools`/`--exclude` that are not in the catalogue. */
export function unknownToolNames(catalogue: readonly Tool[], names: readonly string[]): string[] {
  const known = new Set(catalogue.map((t) => t.name));
  return names.filter((n) => !known.has(n));
}
