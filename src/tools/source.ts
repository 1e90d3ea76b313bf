import { z } from "zod";
import type { BitbucketClient } from "../bitbucket/client.ts";
import { rethrowDuring } from "../bitbucket/errors.ts";
import { FileSize, ListedFile } from "../bitbucket/entities/source.ts";
import { apiPath, segments } from "../bitbucket/path.ts";
import {
  AtArg,
  DEFAULT_DOCUMENT_BYTES,
  filePathArg,
  maxBytesArg,
  PagingArgs,
  RepoArgs,
} from "./args.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { listing } from "./listing.ts";
import { pagedOutput } from "./shapes/page.ts";

/** How a ref is named in messages. */
function refText(at: string | undefined): string {
  return at === undefined ? "the default branch" : JSON.stringify(at);
}

/** Lists the files under a directory, recursively, as paths from the repository root. */
export const listFiles = defineTool({
  name: "list_files",
  title: "List files",
  description:
    "Paths of the files under a directory (recursively; whole repository if path is absent) at a ref.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg("Directory, e.g. src/lib").optional(),
    at: AtArg,
  }).extend(PagingArgs.shape),
  output: pagedOutput("files", z.string().describe("Path from the repository root")),
  // Bitbucket names each file relative to the directory listed.
  handler: listing(
    "files",
    ListedFile,
    (file, { path }) => path ? `${path}/${file}` : file,
    (args) => {
      const { project, repo, path, at } = args;
      const base = apiPath`/api/latest/projects/${project}/repos/${repo}/files`;
      return {
        path: path === undefined ? base : base + apiPath`/${segments(path)}`,
        query: { at },
        action: `list files under ${JSON.stringify(path ?? "/")} at ${
          refText(at)
        } in ${project}/${repo}`,
      };
    },
  ),
});

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

/** Reads a text file at a ref, up to a byte limit. */
export const getFileContent = defineTool({
  name: "get_file_content",
  title: "Get file content",
  description:
    `Text of a file at a ref, cut after max_bytes (default ${DEFAULT_DOCUMENT_BYTES}) with truncated and the full size. Binary files are refused.`,
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg("File path from the repository root, e.g. src/app.ts"),
    at: AtArg,
    max_bytes: maxBytesArg(1),
  }),
  output: z.object({
    file: z.object({
      path: z.string(),
      ref: z.string().optional().describe("The ref read; absent for the default branch"),
      content: z.string().describe("UTF-8 text, cut at max_bytes when truncated"),
      truncated: z.boolean(),
      size: z.number().int().optional().describe(
        "Size of the whole file in bytes; absent if Bitbucket could not tell",
      ),
    }),
  }),
  // A cut file says so after its text: a model reading only this block must not take it as whole.
  document: ({ file }) => {
    if (!file.truncated) return file.content;
    const shown = new TextEncoder().encode(file.content).length;
    const of = file.size === undefined ? "" : ` of ${file.size}`;
    return `${file.content}\n[truncated: ${shown}${of} bytes shown; raise max_bytes to read more]`;
  },
  async handler({ project, repo, path, at, max_bytes }, { bitbucket, signal }) {
    const action = `read ${JSON.stringify(path)} at ${refText(at)} in ${project}/${repo}`;
    // The raw resource streams the file's bytes, so only max_bytes of them are
    // downloaded and the cut and the size are exact; `browse` pages by lines
    // wrapped in JSON, which cannot be cut at a byte count.
    const raw = await bitbucket.getBytes({
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/raw/${segments(path)}`,
      maxBytes: max_bytes,
      query: { at },
      signal,
    }).catch(rethrowDuring(action));
    const content = decodeText(raw.bytes, raw.complete);
    if (content === undefined) {
      throw new Error(
        `Cannot ${action}: it is a binary file, or text not in UTF-8 (hint: only UTF-8 text can be shown; clone the repository to work with it)`,
      );
    }
    const size = raw.complete
      ? raw.bytes.length
      : await fileSize(bitbucket, project, repo, path, at, signal);
    return {
      file: {
        path,
        ref: at,
        content,
        truncated: !raw.complete,
        size,
      },
    };
  },
});

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
