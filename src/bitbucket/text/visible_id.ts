/**
 * Identifiers from Bitbucket (ref names, paths, keys, slugs, usernames) were
 * chosen by other people too, and may hold characters a reader cannot see but
 * a model reads (Unicode tags, BiDi overrides, zero-width spaces). They cannot
 * be cleaned like display text: a tool routes by them, so a name without its
 * hidden bytes names nothing. Instead each such character is written as a
 * visible escape, `\u{202E}` (uppercase hex, no padding), which every
 * argument that takes an identifier turns back into the real bytes
 * ({@link realId}).
 *
 * The rule, so that the mapping is reversible: an identifier is escaped only
 * when it holds a hidden character (what {@link cleanText} would remove from
 * prose, control characters included) or text an escape could be read from;
 * then every hidden character and every backslash (`\u{5C}`) is escaped, and
 * the rest left as it is. Every other identifier is returned byte-identical.
 * Which identifiers a tool call escaped is noted in its result's `_meta`
 * ({@link noticingEscapes}).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { identifierCharacters, mayBeHidden } from "./untrusted_text.ts";

/** An escape as {@link visibleId} writes it; read back when it stands for a hidden character or a backslash. */
const ESCAPE = /\\u\{([0-9A-Fa-f]{1,6})\}/g;

const BACKSLASH = 0x5c;

/** The character an escape's hex digits stand for, or undefined when no identifier escapes it. */
function escaped(hex: string): string | undefined {
  const cp = parseInt(hex, 16);
  return cp === BACKSLASH || (cp <= 0x10ffff && mayBeHidden(cp))
    ? String.fromCodePoint(cp)
    : undefined;
}

/** `\u{HEX}` for the code point of `ch`. */
function escapeOf(ch: string): string {
  return `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`;
}

/** The identifiers escaped during the current tool call, when one is being noticed. */
const noticed = new AsyncLocalStorage<Set<string>>();

/**
 * An identifier as a model may see it: byte-identical unless it holds hidden
 * characters (or text an escape could be read from), else with each hidden
 * character and each backslash written as `\u{HEX}`.
 * `feature/<U+202E>fix` becomes `feature/\u{202E}fix`.
 */
export function visibleId(id: string): string;
/** As {@link visibleId}, passing an absent identifier through. */
export function visibleId(id: string | undefined): string | undefined;
export function visibleId(id: string | undefined): string | undefined {
  if (id === undefined || /^[\x20-\x5b\x5d-\x7e]*$/.test(id)) return id;
  const chars = identifierCharacters(id);
  const readable = [...id.matchAll(ESCAPE)].some((m) => escaped(m[1]!) !== undefined);
  if (!readable && !chars.some((c) => c.hidden)) return id;
  const out = chars
    .map(({ ch, hidden }) => hidden || ch === "\\" ? escapeOf(ch) : ch)
    .join("");
  noticed.getStore()?.add(out);
  return out;
}

/**
 * The real bytes of an identifier a model passes back: every escape
 * {@link visibleId} writes turned into its character; anything else, an
 * identifier given raw included, left as it is.
 */
export function realId(text: string): string {
  if (!text.includes("\\u{")) return text;
  return text.replace(ESCAPE, (whole, hex: string) => escaped(hex) ?? whole);
}

/** An identifier quoted inside one of our sentences: made visible, then as a JSON string literal. */
export function quotedId(id: string): string {
  return JSON.stringify(visibleId(id));
}

/**
 * Our own sentence (an error message) with each hidden character written as
 * an escape, as {@link visibleId} writes them; backslashes are left alone, so
 * an identifier quoted in it reads back exactly unless it holds one.
 */
export function visibleText(text: string): string {
  if (/^[\x20-\x7e\t\n\r]*$/.test(text)) return text;
  return identifierCharacters(text)
    .map(({ ch, hidden }) => hidden && !"\t\n\r".includes(ch) ? escapeOf(ch) : ch)
    .join("");
}

/** The most escaped identifiers a result's `_meta` lists; `count` says how many there were. */
export const MAX_NOTED = 100;

/** What a result's `_meta` says of the identifiers escaped in it. */
export interface EscapedIds {
  ids: string[];
  count: number;
}

/**
 * Runs `work` (a tool's handler and what it makes of the output), noting each
 * identifier {@link visibleId} escapes meanwhile: `escaped` is undefined when
 * there was none.
 */
export async function noticingEscapes<T>(
  work: () => Promise<T>,
): Promise<{ value: T; escaped?: EscapedIds }> {
  const ids = new Set<string>();
  const value = await noticed.run(ids, work);
  if (ids.size === 0) return { value };
  return { value, escaped: { ids: [...ids].slice(0, MAX_NOTED), count: ids.size } };
}
