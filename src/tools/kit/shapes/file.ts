/** A text file as tools return it, and as its text block reads. */
import { z } from "../../../deps/zod.ts";
import type { FileText } from "../../../bitbucket/files.ts";
import { splitLines } from "../../../bitbucket/file_window.ts";
import {
  type HiddenCharacters,
  hiddenCharacters,
  HiddenCharactersOut,
  hiddenNote,
} from "./hidden.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";

/** A text file read at a commit, whole or a window of its lines. */
export const FileOut = z.object({
  path: z.string(),
  ref: z.string().optional().describe("The ref read; absent for the default branch"),
  commitId: z.string().describe("Commit read at: commit_file's source_commit_id"),
  content: z.string().describe(
    "UTF-8 text (of the lines asked for), cut at max_bytes when truncated",
  ),
  truncated: z.boolean(),
  size: z.number().int().optional().describe(
    "Size of the whole file in bytes; absent if Bitbucket could not tell",
  ),
  totalLines: z.number().int().optional().describe(
    "Lines in the file; absent if not read to its end",
  ),
  startLine: z.number().int().optional().describe("With start_line or line_count: first line"),
  endLine: z.number().int().optional().describe("Last line shown"),
  hiddenCharacters: HiddenCharactersOut.optional(),
});

/**
 * A file as read, with its lines that hold invisible characters (in the
 * file's numbering; the text left as is), and its path and ref made visible.
 */
export function withHiddenCharacters(
  file: FileText,
): FileText & { hiddenCharacters?: HiddenCharacters } {
  return {
    ...file,
    path: visibleId(file.path),
    ref: visibleId(file.ref),
    hiddenCharacters: hiddenCharacters(file.content, file.startLine ?? 1),
  };
}

/** A window's text as numbered lines (`12<TAB>text`), line terminators (and `\r`) left out. */
export function numberedLines(content: string, startLine: number): string {
  return splitLines(content)
    .map((line, i) => `${startLine + i}\t${line.replace(/\r?\n$/, "")}`)
    .join("\n");
}

/**
 * The text block of a file: the file itself, or for a window its lines
 * numbered; then one line saying which commit was read and what was cut, so a
 * model reading only this block has the commit id and never takes a cut file
 * as whole.
 */
export function fileDocument(file: FileText & { hiddenCharacters?: HiddenCharacters }): string {
  return hiddenNote(file.hiddenCharacters, "file") + fileBody(file);
}

/** The file and what was read, without the note on hidden characters. */
function fileBody(file: FileText): string {
  const lines = file.totalLines === undefined ? "" : ` of ${file.totalLines}`;
  const cut = file.truncated ? "; cut at max_bytes, raise it or read on from endLine" : "";
  if (file.startLine !== undefined && file.endLine !== undefined) {
    return `${
      numberedLines(file.content, file.startLine)
    }\n[lines ${file.startLine}-${file.endLine}${lines} at commit ${file.commitId}${cut}]`;
  }
  if (!file.truncated) return `${file.content}\n[commit ${file.commitId}]`;
  const shown = new TextEncoder().encode(file.content).length;
  const of = file.size === undefined ? "" : ` of ${file.size}`;
  return `${file.content}\n[truncated: ${shown}${of} bytes shown; raise max_bytes to read more, or read lines with start_line; commit ${file.commitId}]`;
}
