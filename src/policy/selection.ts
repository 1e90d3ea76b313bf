/**
 * Which tools a server exposes (`--read-only`, `--toolsets`, `--tools`,
 * `--exclude`, `--withhold-unsafe`): one rule, for the catalogue's tools and
 * for the manifest's entries alike, and for an HTTP request narrowing its own
 * catalogue within the server's.
 */
import type { AccessLevel } from "../tools/kit/define.ts";
import type { LoopStep } from "../tools/kit/default_set.ts";

/**
 * The set of the tools that serve a step of the review loop (`defaultFor`),
 * across toolsets: what the command line selects when it names no toolset.
 */
export const DEFAULT_SET = "default";

/** Every toolset at once. */
export const ALL_SETS = "all";

/** The names `--toolsets` takes besides the toolsets' own. */
export const SET_KEYWORDS: readonly string[] = [DEFAULT_SET, ALL_SETS];

/** The flags that decide which tools a server exposes. */
export interface ToolSelection {
  /**
   * Withhold unsafe writes (`--withhold-unsafe`): for a person whose client
   * cannot ask them, so the model never tries a tool it could not use.
   * By default every tool is listed and unsafe calls ask first.
   */
  withholdUnsafe?: boolean;
  /** Expose read-only tools only; wins over everything else. */
  readOnly: boolean;
  /** Allowlist by name; takes precedence over the default safety filter. */
  tools?: readonly string[];
  /**
   * Toolsets whose tools (subject to the safety filter) are exposed, `default`
   * and `all` among them. Absent (and no `tools`): every tool; the command
   * line asks for `default` when it names none.
   */
  toolsets?: readonly string[];
  /** Names removed last. */
  exclude?: readonly string[];
}

/** What the rule needs to know of a tool: its name, its access level, its toolset, its step. */
export interface Selectable {
  readonly name: string;
  readonly toolset: string;
  readonly access: { readonly level: AccessLevel };
  /** The review loop's step it serves: present for a tool of the `default` set. */
  readonly defaultFor?: LoopStep;
}

/** Whether `tool` is in one of `sets`: its own toolset, `all`, or `default` when it serves a step. */
export function inSets(tool: Selectable, sets: ReadonlySet<string>): boolean {
  return sets.has(tool.toolset) || sets.has(ALL_SETS) ||
    (sets.has(DEFAULT_SET) && tool.defaultFor !== undefined);
}

/**
 * The exposed tools, in catalogue order:
 * 1. candidates: the tools of `toolsets` (each a toolset, `default` or
 *    `all`) that pass the safety filter (all; safe ones only with
 *    `withholdUnsafe`), plus every tool named in `tools` whatever its
 *    safety; with neither option, every tool that passes it;
 * 2. `readOnly` keeps only read-only tools, whatever was asked;
 * 3. `exclude` removes last.
 *
 * The one statement of the rule, for the catalogue's tools and for their
 * listings alike (start-up selects from the listings without loading the
 * tools).
 */
export function selectTools<T extends Selectable>(
  catalogue: readonly T[],
  selection: ToolSelection,
): T[] {
  const named = new Set(selection.tools ?? []);
  const sets = selection.toolsets
    ? new Set(selection.toolsets)
    : selection.tools
    ? new Set<string>()
    : undefined;
  const exclude = new Set(selection.exclude ?? []);
  return catalogue.filter((tool) => {
    const chosen = sets === undefined || inSets(tool, sets);
    const { level } = tool.access;
    const candidate = named.has(tool.name) ||
      (chosen && (level !== "unsafe write" || !selection.withholdUnsafe));
    return candidate && (!selection.readOnly || level === "read-only") && !exclude.has(tool.name);
  });
}

/** The given names that are not among the known ones, in the order given. */
export function unknownNames(known: Iterable<string>, names: readonly string[]): string[] {
  const set = new Set(known);
  return names.filter((n) => !set.has(n));
}
