import { toolsetOf, TOOLSETS } from "../tools/catalogue.ts";
import type { Tool } from "../tools/kit/define.ts";
import { selectFrom, type ToolSelection, unknownNames } from "./selection.ts";

export type { ToolSelection } from "./selection.ts";

/** The catalogue's tools the selection exposes, in catalogue order; the rule is {@link selectFrom}'s. */
export function selectTools(catalogue: readonly Tool[], selection: ToolSelection): Tool[] {
  return selectFrom(catalogue, selection, toolsetOf);
}

/** Toolset names given in `--toolsets` that do not exist. */
export function unknownToolsets(names: readonly string[]): string[] {
  return unknownNames(TOOLSETS.map((s) => s.name), names);
}

/** Names given in `--tools`/`--exclude` that are not in the catalogue. */
export function unknownToolNames(catalogue: readonly Tool[], names: readonly string[]): string[] {
  return unknownNames(catalogue.map((t) => t.name), names);
}
