import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/client.ts";
import { rethrowDuring } from "../../bitbucket/errors.ts";
import { FileSize, ListedFile } from "../../bitbucket/entities/source.ts";
import { apiPath, segments } from "../../bitbucket/path.ts";
import {
  AtArg,
  filePathArg,
  lineArg,
  MAX_DOCUMENT_BYTES,
  maxBytesArg,
  PagingArgs,
  RepoArgs,
} from "../kit/args.ts";
import { commitAt } from "../../bitbucket/commits.ts";
import { defineTool, READ_ONLY, type ToolContext } from "../kit/define.ts";
import { lineWindow, numberedLines, splitLines } from "./_file_window.ts";
import { listing, type ListingRequest } from "../kit/list_tool.ts";
import { pagedOutput } from "../kit/shapes/page.ts";

/** How a ref is named in messages. */
function refText(at: string | undefined): string {
  return at === undefined ? "the default branch" : JSON.stringify(at);
}

/** Lists the files under a directory, recursively, as paths from the repository root. */
export const listFiles = defineTool({
  name: "list_files",
  toolset: "source",
  title: "List files",
  description: "Files under a directory (default: all), recursively.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg("Directory").optional(),
    at: AtArg,
  }).extend(PagingArgs.shape),
  output: pagedOutput("files", z.string().describe("Path from the repository root")),
  // Bitbucket names each file relative to the directory listed.
  handler: listing(
    "files",
    ListedFile,
    (file, { path }) => path ? `${path}/${file}` : file,
    ({ project, repo, path, at }) => filesListing(project, repo, path, at),
  ),
});

/**
 * Where the files under a directory (the whole repository when absent) are
 * listed at a ref: for list_files and path completions. Bitbucket names each
 * file relative to the directory.
 */
export function filesListing(
  project: string,
  repo: string,
  path: string | undefined,
  at: string | undefined,
): ListingRequest {
  const base = apiPath`/api/latest/projects/${project}/repos/${repo}/files`;
  return {
    path: path === undefined ? base : base + apiPath`/${segments(path)}`,
    query: { at },
    action: `list files under ${JSON.stringify(path ?? "/")} at ${
      refText(at)
    } in ${project}/${repo}`,
  };
}

/** The most lines one windowed read may ask for. */
const MAX_WINDOW_LINES = 10_000;

/** How far into a file a NUL byte marks it as binary (git's own heuristic). */
const BINARY_SNIFF_BYTES = 8000;

/**
 * Text of a file's first bytes, or undefined when they are binary (a NUL early
 * on) or not UTF-8. When the bytes were cut (`complete` false), a character
 * split by the cut is left out rather than counted as invalid.
 */
export function decodeText(bytes: Uint8Array, complete: boolean): string | undefined {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  try {
    // `stream` leaves a multi-byte character cut by max_bytes out instead of failing on it.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete });
  } catch {
    return undefined;
  }
}

const FileOut = z.object({
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
});

/**
 * The text block of a file: the file itself, or for a window its lines
 * numbered; then one line saying which commit was read and what was cut, so a
 * model reading only this block has the commit id and never takes a cut file
 * as whole.
 */
export function fileDocument(file: z.infer<typeof FileOut>): string {
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

/** Reads a text file at a ref, whole or a window of its lines, up to a byte limit. */
export const getFileContent = defineTool({
  name: "get_file_content",
  toolset: "source",
  title: "Get file content",
  description:
    "A text file, whole or numbered lines from start_line, cut at max_bytes; with the commit read.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg(),
    at: AtArg,
    start_line: lineArg().optional(),
    line_count: z.number().int().min(1).max(MAX_WINDOW_LINES).optional(),
    max_bytes: maxBytesArg(1),
  }),
  output: z.object({ file: FileOut }),
  document: ({ file }) => fileDocument(file),
  handler: readFileContent,
});

/** What {@link readFileContent} reads: get_file_content's arguments. */
export interface FileRead {
  project: string;
  repo: string;
  path: string;
  at?: string;
  start_line?: number;
  line_count?: number;
  max_bytes: number;
}

/**
 * Reads a text file at the commit a ref names, whole or a window of its
 * lines, up to a byte limit: get_file_content's reading, which the file
 * resource shares.
 */
export async function readFileContent(
  args: FileRead,
  ctx: ToolContext,
): Promise<{ file: z.infer<typeof FileOut> }> {
  const { project, repo, path, at, start_line, line_count, max_bytes } = args;
  const { bitbucket, signal } = ctx;
  const action = `read ${JSON.stringify(path)} at ${refText(at)} in ${project}/${repo}`;
  // Read at the commit the ref names now, so content and commitId agree.
  const commitId = await commitAt(ctx, project, repo, at, action);
  const windowed = start_line !== undefined || line_count !== undefined;
  // The raw resource streams the file's bytes, so only what is needed is
  // downloaded and a cut and the size are exact; a window is found among the
  // first MAX_DOCUMENT_BYTES, then cut at max_bytes.
  const raw = await bitbucket.getBytes({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/raw/${segments(path)}`,
    maxBytes: windowed ? MAX_DOCUMENT_BYTES : max_bytes,
    query: { at: commitId },
    signal,
  }).catch(rethrowDuring(action));
  const text = decodeText(raw.bytes, raw.complete);
  if (text === undefined) {
    throw new Error(
      `Cannot ${action}: it is a binary file, or text not in UTF-8 (hint: only UTF-8 text can be shown; clone the repository to work with it)`,
    );
  }
  // Of a file cut short, only lines that ended are whole.
  const lines = splitLines(text).filter((line, i, all) =>
    raw.complete || i < all.length - 1 || line.endsWith("\n")
  );
  const totalLines = raw.complete ? lines.length : undefined;
  const size = raw.complete
    ? raw.bytes.length
    : await fileSize(bitbucket, project, repo, path, commitId, signal);
  const file = { path, ref: at, commitId, size, totalLines };
  if (!windowed) return { file: { ...file, content: text, truncated: !raw.complete } };
  const start = start_line ?? 1;
  if (start > lines.length) {
    throw new Error(
      `Cannot ${action}: it ${
        raw.complete
          ? `has ${lines.length} lines, so none starts at line ${start} (hint: start_line at most ${lines.length})`
          : `has more than ${MAX_DOCUMENT_BYTES} bytes, and line ${start} lies beyond the first ${lines.length} lines (hint: clone the repository to read that far)`
      }`,
    );
  }
  const window = lineWindow(lines, start, line_count, max_bytes);
  const beyond = !raw.complete &&
    (line_count === undefined || start - 1 + line_count > lines.length);
  return {
    file: {
      ...file,
      content: window.content,
      truncated: window.cut || beyond,
      startLine: window.startLine,
      endLine: window.endLine,
    },
  };
}

/**
 * The size of a whole file from `browse?size=true`, asked only when the raw body
 * was cut. The content already read is worth more than the size, so a failure
 * here leaves the size unknown instead of failing the call.
 */
async function fileSize(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  path: string,
  at: string | undefined,
  signal: AbortSignal,
): Promise<number | undefined> {
  try {
    const { body } = await bitbucket.request({
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/browse/${segments(path)}`,
      schema: FileSize,
      query: { at, size: true },
      signal,
    });
    return body.size;
  } catch {
    return undefined;
  }
}
