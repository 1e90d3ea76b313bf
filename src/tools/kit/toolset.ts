/**
 * A toolset: a named group of tools a workflow can ask for with
 * `--toolsets`, declared by its folder's `mod.ts`. Each tool names its
 * toolset where it is declared; {@link defineToolset} refuses a tool that
 * names another, so membership is stated once and checked.
 */
import type { Tool } from "./define.ts";

/** A named group of tools a workflow can ask for with `--toolsets`. */
export interface Toolset {
  readonly name: string;
  readonly description: string;
  /** Its tools, in the order `tools/list` shows them. */
  readonly tools: readonly Tool[];
}

/** The toolset `toolset`, checking that each of its tools names it. */
export function defineToolset(toolset: Toolset): Toolset {
  for (const tool of toolset.tools) {
    if (tool.toolset !== toolset.name) {
      throw new Error(
        `Cannot define toolset ${toolset.name}: ${tool.name} is declared in toolset ${tool.toolset}`,
      );
    }
  }
  return toolset;
}
