/**
 * A toolset: a named group of tools a workflow can ask for with
 * `--toolsets`, declared by its folder's `mod.ts`. A tool does not name its
 * toolset: {@link defineToolset} puts each tool it lists in it, and refuses
 * one another toolset holds, so membership is stated once, where the list is.
 */
import { placeInToolset, type Tool } from "./define.ts";

/** A named group of tools a workflow can ask for with `--toolsets`. */
export interface Toolset {
  readonly name: string;
  readonly description: string;
  /** Its tools, in the order `tools/list` shows them. */
  readonly tools: readonly Tool[];
}

/** The toolset `toolset`, each of its tools put in it. */
export function defineToolset(toolset: Toolset): Toolset {
  for (const tool of toolset.tools) placeInToolset(tool, toolset.name);
  return toolset;
}
