/**
 * What the server's instructions say of its catalogue: the toolsets it
 * serves, each with the tools to reach for first. A host that loads tool
 * definitions on demand shows the model only the tools' names and the
 * instructions at the start, so these carry the catalogue; they follow the
 * tools a server (or one HTTP request's narrowed catalogue) exposes.
 */
import type { ToolEntry } from "../tools/kit/define.ts";
import { isAppTool } from "../tools/kit/apps.ts";

/** How many tools of each toolset the instructions name: the first ones its `mod.ts` lists. */
const FIRST = 2;

/**
 * One sentence naming each toolset `tools` hold, in their order, with its
 * first {@link FIRST} tools; tools drawn by the host for the person (MCP Apps
 * views) are left out. Undefined when there is nothing to name.
 */
export function catalogueInstructions(
  tools: readonly Pick<ToolEntry, "name" | "toolset" | "config">[],
): string | undefined {
  const firsts = new Map<string, string[]>();
  for (const tool of tools) {
    if (isAppTool(tool.config._meta)) continue;
    const names = firsts.get(tool.toolset) ?? [];
    if (names.length < FIRST) names.push(tool.name);
    firsts.set(tool.toolset, names);
  }
  if (firsts.size === 0) return undefined;
  const sets = [...firsts].map(([set, names]) => `${set} (${names.join(", ")})`);
  return `Toolsets here, each with the tools to start from: ${sets.join(", ")}.`;
}
