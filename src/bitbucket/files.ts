/**
 * Reading a repository's files: where the files under a directory are
 * listed, and a text file read at the commit a ref names, whole or a window
 * of its lines, up to a byte limit. get_file_content and the file resource
 * read a file through the same code; list_files and path completions list
 * the same way.
 */
import type { BitbucketClient } from "./transport/client.ts";
import { commitAt } from "./commits.ts";
import { FileSize } from "./entities/source.ts";
import { rethrowDuring } from "./transport/errors.ts";
import { lineWindow, splitLines } from "./file_window.ts";
import type { ListingRequest } from "./transport/paging.ts";
import { apiPath, segments } from "./transport/path.ts";

/** How a ref is named in messages. */
export function refText(at: string | undefined): string {
  return at === undefined ? "the default branch" : JSON.stringify(at);
}

/** The REST path of a repository resource with a file path after it. */
export function underRepo(project: string, repo: string, resource: string, path?: string): string {
  const base = apiPath`/api/latest/projects/${project}/repos/${repo}/${resource}`;
  return path === undefined ? base : base + apiPath`/${segments(path)}`;
}

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
  return {
    path: underRepo(project, repo, "files", path),
    query: { at },
    action: `list files under ${JSON.stringify(path ?? "/")} at ${
      refText(at)
    } in ${project}/${repo}`,
  };
}

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

/** What {@link readFileText} reads: get_file_content's arguments. */
export interface FileRead {
  project: string;
  repo: string;
  path: string;
  at?: string;
  start_line?: number;
  line_count?: number;
  max_bytes: number;
  /** How far into the file a window of lines is looked for (the most bytes of it read then). */
  windowScanBytes: number;
}

/** A text file as read: its content (whole, or the window asked for) and what was cut. */
export interface FileText {
  path: string;
  /** The ref read; absent for the default branch. */
  ref?: string;
  /** The commit read at: commit_file's source_commit_id. */
  commitId: string;
  content: string;
  truncated: boolean;
  /** The whole file's size in bytes, when Bitbucket could tell. */
  size?: number;
  /** The file's lines, when it was read to its end. */
  totalLines?: number;
  /** With a window: its first line and the last line shown. */
  startLine?: number;
  endLine?: number;
}

/**
 * Reads a text file at the commit a ref names, whole or a window of its
 * lines, up to a byte limit: get_file_content's reading, which the file
 * resource shares.
 */
export async function readFileText(bitbucket: BitbucketClient, args: FileRead): Promise<FileText> {
  const { project, repo, path, at, start_line, line_count, max_bytes, windowScanBytes } = args;
  const action = `read ${JSON.stringify(path)} at ${refText(at)} in ${project}/${repo}`;
  // Read at the commit the ref names now, so content and commitId agree.
  const commitId = await commitAt(bitbucket, project, repo, at, action);
  const windowed = start_line !== undefined || line_count !== undefined;
  // The raw resource streams the file's bytes, so only what is needed is
  // downloaded and a cut and the size are exact; a window is found among the
  // first `windowScanBytes`, then cut at max_bytes.
  const raw = await bitbucket.getBytes({
    path: underRepo(project, repo, "raw", path),
    maxBytes: windowed ? windowScanBytes : max_bytes,
    query: { at: commitId },
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
    : await fileSize(bitbucket, project, repo, path, commitId);
  const file = { path, ref: at, commitId, size, totalLines };
  if (!windowed) return { ...file, content: text, truncated: !raw.complete };
  const start = start_line ?? 1;
  if (start > lines.length) {
    throw new Error(
      `Cannot ${action}: it ${
        raw.complete
          ? `has ${lines.length} lines, so none starts at line ${start} (hint: start_line at most ${lines.length})`
          : `has more than ${windowScanBytes} bytes, and line ${start} lies beyond the first ${lines.length} lines (hint: clone the repository to read that far)`
      }`,
    );
  }
  const window = lineWindow(lines, start, line_count, max_bytes);
  const beyond = !raw.complete &&
    (line_count === undefined || start - 1 + line_count > lines.length);
  return {
    ...file,
    content: window.content,
    truncated: window.cut || beyond,
    startLine: window.startLine,
    endLine: window.endLine,
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
): Promise<number | undefined> {
  try {
    const { body } = await bitbucket.request({
      path: underRepo(project, repo, "browse", path),
      schema: FileSize,
      query: { at, size: true },
    });
    return body.size;
  } catch {
    return undefined;
  }
}
