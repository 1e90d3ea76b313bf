/**
 * Where a document returned byte-exact (a diff, a file) holds invisible
 * characters: a review must see the real bytes, so instead of cleaning them
 * the result says which lines hold them, in a field and in a first line of
 * its text block.
 */
import { z } from "../../../deps/zod.ts";
import { hiddenCharacterLines } from "../../../bitbucket/text/untrusted_text.ts";

/** The most line numbers listed; `count` says how many lines there are in all. */
export const MAX_HIDDEN_LINES = 100;

/** The lines of a document holding invisible or BiDi characters. */
export const HiddenCharactersOut = z.object({
  lines: z.array(z.number().int()).describe(`First ${MAX_HIDDEN_LINES}`),
  count: z.number().int(),
}).describe("Lines holding invisible or BiDi characters (the text is left as is)");

/** What {@link HiddenCharactersOut} holds. */
export type HiddenCharacters = z.infer<typeof HiddenCharactersOut>;

/** The lines of `text` holding invisible characters, numbered from `firstLine`; undefined when none. */
export function hiddenCharacters(text: string, firstLine = 1): HiddenCharacters | undefined {
  const found = hiddenCharacterLines(text);
  if (found.length === 0) return undefined;
  const lines = found.slice(0, MAX_HIDDEN_LINES).map((n) => n + firstLine - 1);
  return { lines, count: found.length };
}

/** The first line of a document's text block when it hides characters, else "". */
export function hiddenNote(hidden: HiddenCharacters | undefined, of: string): string {
  if (hidden === undefined) return "";
  const more = hidden.count > hidden.lines.length
    ? ` and ${hidden.count - hidden.lines.length} more`
    : "";
  return `[bitbucket-mcp: invisible or BiDi characters on lines ${
    hidden.lines.join(", ")
  }${more} of the ${of} below]\n`;
}
