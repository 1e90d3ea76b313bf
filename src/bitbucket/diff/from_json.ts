/**
 * Bitbucket's JSON diff (what commits/{id}/diff and compare/diff answer; the
 * compare resource has no text form) written as git's unified text, with the
 * `src://` and `dst://` prefixes of Bitbucket's own raw diffs, so that every
 * diff tool reads, cuts and picks files from the same text.
 */
import type { z } from "../../deps/zod.ts";
import type { FileDiff, JsonDiff } from "../entities/diff.ts";
import { pathText } from "../entities/pull_request.ts";

const PREFIX: Record<string, string> = { CONTEXT: " ", ADDED: "+", REMOVED: "-" };

/** One file's section: the header lines, then each hunk with its lines. */
function fileText(file: z.infer<typeof FileDiff>): string {
  const from = file.source ? pathText(file.source) : undefined;
  const to = file.destination ? pathText(file.destination) : undefined;
  const oldName = from === undefined ? "/dev/null" : `src://${from}`;
  const newName = to === undefined ? "/dev/null" : `dst://${to}`;
  const out = [`diff --git src://${from ?? to} dst://${to ?? from}`];
  if (file.binary) out.push(`Binary files ${oldName} and ${newName} differ`);
  else if (file.hunks.length > 0) out.push(`--- ${oldName}`, `+++ ${newName}`);
  for (const hunk of file.hunks) {
    const heading = hunk.context ? ` ${hunk.context}` : "";
    out.push(
      `@@ -${hunk.sourceLine},${hunk.sourceSpan} +${hunk.destinationLine},${hunk.destinationSpan} @@${heading}`,
    );
    for (const segment of hunk.segments) {
      const prefix = PREFIX[segment.type] ?? " ";
      for (const line of segment.lines) out.push(prefix + line.line);
    }
  }
  return out.join("\n") + "\n";
}

/** The unified text of a JSON diff, and whether Bitbucket sent all of it. */
export function unifiedText(diff: z.infer<typeof JsonDiff>): { text: string; complete: boolean } {
  return { text: diff.diffs.map(fileText).join(""), complete: diff.truncated !== true };
}
