/** A diff held to `max_bytes` as tools return it, and as its text block reads. */
import { z } from "../../../deps/zod.ts";
import type { CappedDiff } from "../../../bitbucket/diff/unified.ts";

/** A unified diff, whole or cut at `max_bytes`. */
export const DiffOut = z.object({
  diff: z.string().describe("Unified diff text"),
  truncated: z.boolean(),
  omittedFiles: z.array(z.string()).optional().describe(
    "When truncated: files left out or cut short",
  ),
});

/**
 * The text block of a diff: the diff itself, with a last line saying what was
 * cut, so a model reading only this block never takes a cut diff as whole.
 */
export function diffDocument(
  { diff, truncated, omittedFiles }: CappedDiff,
  empty: string,
): string {
  if (!truncated) return diff === "" ? `[empty diff: ${empty}]` : diff;
  return `${diff}\n[diff cut at max_bytes; left out or cut short: ${
    (omittedFiles ?? []).join(", ")
  }. Ask for one file with path, or raise max_bytes]`;
}
