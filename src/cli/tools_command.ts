/** The `tools` command: every tool with its toolset and access, and whether the flags expose it. */
import { exposedTools } from "../policy/choices.ts";
import type { Confinement } from "../policy/confinement.ts";
import { selectTools, type ToolSelection } from "../policy/selection.ts";
import type { Tool } from "../tools/kit/define.ts";

/** The `tools` command's output: every tool, its access, and whether these flags expose it. */
export function toolsListing(
  catalogue: readonly Tool[],
  selection: ToolSelection & { confinement?: Confinement },
  json: boolean,
): string {
  const selected = exposedTools(selectTools(catalogue, selection), selection.confinement);
  const exposed = new Set(selected.map((t) => t.name));
  const rows = catalogue.map((tool) => ({
    name: tool.name,
    toolset: tool.toolset,
    access: tool.access.level,
    why: tool.access.level === "read-only" ? undefined : tool.access.why,
    exposed: exposed.has(tool.name),
    description: tool.description,
  }));
  if (json) return JSON.stringify({ tools: rows }, null, 2);
  const width = Math.max(...rows.map((r) => r.name.length));
  const setWidth = Math.max(...rows.map((r) => r.toolset.length));
  const indent = " ".repeat(width + setWidth + 20);
  const lines = rows.map((r) =>
    `${r.exposed ? " " : "-"} ${r.name.padEnd(width)}  ${r.toolset.padEnd(setWidth)}  ${
      r.access.padEnd(12)
    }  ${r.description}${r.why === undefined ? "" : `\n${indent}why: ${r.why}`}`
  );
  return [
    ...lines,
    "",
    "(- = withheld by the current flags or the administrator's policy; unsafe writes ask the person first, unless --yolo)",
  ].join(
    "\n",
  );
}
