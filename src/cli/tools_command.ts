/**
 * The `tools` command: every tool with its toolset, the review loop's step
 * that puts it in the `default` set, its access, and whether the flags
 * expose it; with `--search`, the tools that match some words and the flags
 * that select them.
 */
import { exposedTools } from "../policy/choices.ts";
import type { Confinement } from "../policy/confinement.ts";
import { DEFAULT_SET, selectTools, type ToolSelection } from "../policy/selection.ts";
import type { Tool } from "../tools/kit/define.ts";
import { DEFAULT_SET_LIMIT, LOOP_STEPS } from "../tools/kit/default_set.ts";
import { bestOf, rankTools, selectingFlags } from "./tool_search.ts";

/** The flags that decide what a server lists. */
type Selection = ToolSelection & { confinement?: Confinement };

/** One tool as `tools` shows it. */
interface Row {
  name: string;
  toolset: string;
  /** The review loop's step it serves, for a tool of the `default` set. */
  defaultFor?: string;
  access: string;
  why?: string;
  exposed: boolean;
  description: string;
}

/** Every tool of `catalogue` (or those of `only`, in their order) as a row, marked exposed under `selection`. */
function rows(catalogue: readonly Tool[], selection: Selection, only = catalogue): Row[] {
  const selected = exposedTools(selectTools(catalogue, selection), selection.confinement);
  const exposed = new Set(selected.map((t) => t.name));
  return only.map((tool) => ({
    name: tool.name,
    toolset: tool.toolset,
    defaultFor: tool.defaultFor,
    access: tool.access.level,
    why: tool.access.level === "read-only" ? undefined : tool.access.why,
    exposed: exposed.has(tool.name),
    description: tool.description,
  }));
}

/** The rows as text: a mark, the name, the toolset, the step, the access, the description, and a write's why. */
function table(rows: readonly Row[]): string[] {
  const width = Math.max(...rows.map((r) => r.name.length));
  const setWidth = Math.max(...rows.map((r) => r.toolset.length));
  const stepWidth = Math.max(...Object.keys(LOOP_STEPS).map((s) => s.length));
  const indent = " ".repeat(width + setWidth + stepWidth + 22);
  return rows.map((r) =>
    `${r.exposed ? " " : "-"} ${r.name.padEnd(width)}  ${r.toolset.padEnd(setWidth)}  ${
      (r.defaultFor ?? "").padEnd(stepWidth)
    }  ${r.access.padEnd(12)}  ${r.description}${
      r.why === undefined ? "" : `\n${indent}why: ${r.why}`
    }`
  );
}

/** What the step column means: the `default` set, and why each step is in it. */
const STEPS_LEGEND = [
  `The third column is the step of the review loop that puts a tool in the ${DEFAULT_SET} set (listed when no --toolsets is given, ${DEFAULT_SET_LIMIT} tools at most so every client takes it whole; --toolsets all lists every tool):`,
  ...Object.entries(LOOP_STEPS).map(([step, why]) => `  ${step.padEnd(8)} ${why}`),
];

/** The `tools` command's output: every tool, its step, its access, and whether these flags expose it. */
export function toolsListing(
  catalogue: readonly Tool[],
  selection: Selection,
  json: boolean,
): string {
  const listed = rows(catalogue, selection);
  if (json) return JSON.stringify({ tools: listed, steps: LOOP_STEPS }, null, 2);
  return [
    ...table(listed),
    "",
    ...STEPS_LEGEND,
    "",
    "(- = withheld by the current flags or the administrator's policy; unsafe writes ask the person first, unless --yolo)",
  ].join("\n");
}

/**
 * `tools --search WORDS`: the tools matching `query`, best first, marked as
 * the listing marks them, then the flags that select the best of them.
 */
export function toolSearch(
  catalogue: readonly Tool[],
  selection: Selection,
  query: string,
  json: boolean,
): string {
  const ranked = rankTools(catalogue, query);
  const best = bestOf(ranked);
  const flags = selectingFlags(best.map((r) => r.tool), catalogue);
  if (json) {
    const scores = new Map(ranked.map((r) => [r.tool.name, r.score]));
    const found = rows(catalogue, selection, ranked.map((r) => r.tool))
      .map((row) => ({ ...row, score: scores.get(row.name) }));
    return JSON.stringify(
      { query, tools: found, best: best.map((r) => r.tool.name), flags },
      null,
      2,
    );
  }
  if (best.length === 0) {
    return `No tool matches ${
      JSON.stringify(query)
    }: try other words, or 'bitbucket-mcp tools' for every tool.`;
  }
  const width = Math.max(...flags.map((f) => f.flags.length));
  const more = ranked.length - best.length;
  return [
    `Tools matching ${JSON.stringify(query)}, best first:`,
    ...table(rows(catalogue, selection, best.map((r) => r.tool))),
    ...(more > 0 ? [`(${more} more match less well: add --json to see them)`] : []),
    "",
    "Flags that select these:",
    ...flags.map((f) => `  ${f.flags.padEnd(width)}  ${f.selects}`),
    "",
    "(- = withheld by the current flags; the third column is the review loop's step that puts a tool in the default set)",
  ].join("\n");
}
