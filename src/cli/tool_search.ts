/**
 * `tools --search WORDS`: the tools ranked by how well their name, title and
 * description match the words, and the `--toolsets`/`--tools` flags that
 * select the best of them, for a person choosing what to list beside (or
 * instead of) the `default` set.
 */
import { DEFAULT_SET } from "../policy/selection.ts";

/** What ranking needs of a tool. */
export interface Searchable {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly toolset: string;
  readonly defaultFor?: string;
}

/** A tool with its score: higher is better; 0 matched nothing. */
export interface Ranked<T extends Searchable> {
  readonly tool: T;
  readonly score: number;
}

/** How much a word found in each part of a tool counts. */
const WEIGHT = { name: 5, title: 2, description: 1 } as const;

/** Words that say nothing of a tool. */
const STOP = new Set(["a", "an", "and", "the", "of", "to", "for", "in", "on", "or", "with", "my"]);

/** The words of `text`, lower-cased; `_` and punctuation split them. */
function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/** `typed` names `word`: the same, or one starts the other and the shorter has 3 letters or more. */
function matches(typed: string, word: string): boolean {
  if (typed === word) return true;
  const [short, long] = typed.length < word.length ? [typed, word] : [word, typed];
  return short.length >= 3 && long.startsWith(short);
}

/** How a word of the query scores against one part: full weight for the same word, less for a prefix. */
function partScore(typed: string, part: readonly string[], weight: number): number {
  if (part.includes(typed)) return weight;
  return part.some((w) => matches(typed, w)) ? weight * 0.6 : 0;
}

/**
 * The tools of `catalogue` that match `query`, best first (catalogue order
 * among equals): each word of the query counts once, by the best part of the
 * tool it is found in (name over title over description), and a tool matching
 * more of the words ranks above one matching fewer.
 */
export function rankTools<T extends Searchable>(
  catalogue: readonly T[],
  query: string,
): Ranked<T>[] {
  const typed = [...new Set(words(query).filter((w) => !STOP.has(w)))];
  const scored = catalogue.map((tool, order) => {
    const parts = [
      [words(tool.name), WEIGHT.name],
      [words(tool.title), WEIGHT.title],
      [words(tool.description), WEIGHT.description],
    ] as const;
    let score = 0;
    let found = 0;
    for (const word of typed) {
      const best = Math.max(...parts.map(([part, weight]) => partScore(word, part, weight)));
      if (best > 0) found++;
      score += best;
    }
    return { tool, score: Math.round(score * 10) / 10, found, order };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.found - a.found || b.score - a.score || a.order - b.order)
    .map(({ tool, score }) => ({ tool, score }));
}

/** The most tools a search shows and makes flags for. */
export const SHOWN = 10;

/**
 * The best of `ranked`: those matching as many words as the first and
 * scoring at least half as much, at most {@link SHOWN}.
 */
export function bestOf<T extends Searchable>(ranked: readonly Ranked<T>[]): Ranked<T>[] {
  const top = ranked[0]?.score ?? 0;
  return ranked.filter((r) => r.score >= top / 2).slice(0, SHOWN);
}

/** A flag line: the flags and what they select. */
export interface FlagChoice {
  readonly flags: string;
  readonly selects: string;
}

/**
 * The flags that select `tools`: the `default` set with those it lacks, these
 * tools alone, and their whole toolsets (`catalogue` says how many that is).
 */
export function selectingFlags(
  tools: readonly Searchable[],
  catalogue: readonly Searchable[],
): FlagChoice[] {
  if (tools.length === 0) return [];
  const names = tools.map((t) => t.name);
  const outside = tools.filter((t) => t.defaultFor === undefined).map((t) => t.name);
  const sets = [...new Set(tools.map((t) => t.toolset))];
  const whole = catalogue.filter((t) => sets.includes(t.toolset)).length;
  return [
    outside.length === 0 ? { flags: "(none)", selects: `the ${DEFAULT_SET} set holds them all` } : {
      flags: `--toolsets ${DEFAULT_SET} --tools ${outside.join(",")}`,
      selects: `the ${DEFAULT_SET} set and ${outside.length === 1 ? "this tool" : "these tools"}`,
    },
    { flags: `--tools ${names.join(",")}`, selects: "these tools only" },
    { flags: `--toolsets ${sets.join(",")}`, selects: `their toolsets whole (${whole} tools)` },
  ];
}
