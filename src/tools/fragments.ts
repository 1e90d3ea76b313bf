import { z } from "zod";
import { isUnsafeSegment } from "../bitbucket/path.ts";
import { type Collected, MAX_LIMIT } from "../bitbucket/paging.ts";

/** The longest project key, repository slug or other single path segment accepted. */
export const MAX_SEGMENT = 256;

/**
 * A value that becomes one path segment: 1 to 256 characters of well-formed
 * Unicode (a lone surrogate cannot be percent-encoded), never `.` or `..`.
 * Checked by a refinement, so the bound costs no schema bytes.
 */
export function segmentArg(description: string) {
  return z.string().refine(
    (v) => v.length > 0 && v.length <= MAX_SEGMENT && v.isWellFormed() && !isUnsafeSegment(v),
    { message: `must be 1-${MAX_SEGMENT} characters and not '.' or '..', in valid Unicode` },
  ).describe(description);
}

/** The repository every repository-scoped tool takes. */
export const RepoArgs = z.object({
  project: segmentArg("Project key"),
  repo: segmentArg("Repository slug"),
});

/** Bounded paging for list tools. */
export const PagingArgs = z.object({
  limit: z.number().int().min(1).max(MAX_LIMIT).default(25).describe(`At most ${MAX_LIMIT}`),
  start: z.number().int().min(0).optional().describe("A previous nextPageStart"),
});

/** A commit id: full or abbreviated hex. */
export const CommitIdArg = z.string().regex(/^[0-9a-fA-F]{4,64}$/, {
  message: "must be a full or abbreviated hexadecimal commit id",
}).describe("Full or abbreviated commit id");

/** The paging facts that sit beside every listed collection. */
export const PageTail = z.object({
  isLastPage: z.boolean(),
  nextPageStart: z.number().int().optional().describe("Pass as start for the next page"),
});

/** Names a gathered page for output: `{ [key]: values, isLastPage, nextPageStart? }`. */
export function named<K extends string, T>(
  key: K,
  page: Collected<T>,
): Record<K, T[]> & z.infer<typeof PageTail> {
  const tail = { isLastPage: page.isLastPage, nextPageStart: page.nextPageStart };
  return { [key]: page.values, ...tail } as Record<K, T[]> & z.infer<typeof PageTail>;
}
