/** A diff held to `max_bytes` as tools return it, and as its text block reads. */
import { z } from "../../../deps/zod.ts";
import type { CappedDiff } from "../../../bitbucket/diff/unified.ts";
import {
  type HiddenCharacters,
  hiddenCharacters,
  HiddenCharactersOut,
  hiddenNote,
} from "./hidden.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";

/** A unified diff, whole or cut at `max_bytes`. */
export const DiffOut = z.object({
  diff: z.string().describe("Unified diff text"),
  truncated: z.boolean(),
  omittedFiles: z.array(z.string()).optional().describe(
    "When truncated: files left out or cut short",
  ),
  omittedFilesComplete: z.literal(false).optional().describe("More files left out than named"),
  hiddenCharacters: HiddenCharactersOut.optional(),
});

/**
 * A diff as read, with the lines of it that hold invisible characters (the
 * diff left as is) and the paths of the files it left out made visible.
 */
export function withHiddenCharacters<D extends CappedDiff>(
  diff: D,
): D & { hiddenCharacters?: HiddenCharacters } {
  const omittedFiles = diff.omittedFiles?.map((path) => visibleId(path));
  return { ...diff, omittedFiles, hiddenCharacters: hiddenCharacters(diff.diff) };
}

/**
 * The text block of a diff: the diff itself, with a last line saying what was
 * cut, so a model reading only this block never takes a cut diff as whole.
 */
export function diffDocument(
  out: CappedDiff & { hiddenCharacters?: HiddenCharacters },
  empty: string,
): string {
  return hiddenNote(out.hiddenCharacters, "diff") + diffBody(out, empty);
}

/** The diff and what was cut, without the note on hidden characters. */
function diffBody(
  { diff, truncated, omittedFiles, omittedFilesComplete }: CappedDiff,
  empty: string,
): string {
  if (!truncated) return diff === "" ? `[empty diff: ${empty}]` : diff;
  return `${diff}\n[diff cut at max_bytes; left out or cut short: ${
    [...omittedFiles ?? [], ...omittedFilesComplete === false ? ["and more not listed"] : []]
      .join(", ")
  }. Ask for one file with path, or raise max_bytes]`;
}
