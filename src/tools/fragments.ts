import { z } from "zod";
import { isUnsafeSegment } from "../bitbucket/path.ts";
import { type Collected, MAX_LIMIT } from "../bitbucket/paging.ts";

/** A value that becomes one path segment: non-empty, and never `.` or `..`. */
export function segmentArg(description: string) {
  return z.string().min(1).max(256).refine((v) => !isUnsafeSegment(v), {
    message: "must not be '.' or '..'",
  }).describe(description);
}

/** The repository every repository-scoped tool takes. */
export const RepoArgs = z.object({
  project: segmentArg("Project key, e.g. PROJ (~username for a personal project)"),
  repo: segmentArg("Repository slug"),
});

/** Bounded paging for list tools. */
export const PagingArgs = z.object({
  limit: z.number().int().min(1).max(MAX_LIMIT).default(25).describe(
    `Most items to return (1-${MAX_LIMIT})`,
  ),
  start: z.number().int().min(0).optional().describe(
    "Offset to resume from: a previous nextPageStart",
  ),
});

/** A commit id: full or abbreviated hex. */
export const CommitIdArg = z.string().regex(/^[0-9a-fA-F]{4,64}$/, {
  message: "must be a full or abbreviated hexadecimal commit id",
}).describe("Commit id, full or abbreviated (at least 4 hex digits)");

/** The paging facts that sit beside every listed collection. */
export const PageTail = z.object({
  isLastPage: z.boolean(),
  nextPageStart: z.number().int().optional().describe("Pass as start to get the next page"),
});

/** Names a gathered page for output: `{ [key]: values, isLastPage, nextPageStart? }`. */
export function named<K extends string, T>(
  key: K,
  page: Collected<T>,
): Record<K, T[]> & z.infer<typeof PageTail> {
  const tail = page.nextPageStart === undefined
    ? { isLastPage: page.isLastPage }
    : { isLastPage: page.isLastPage, nextPageStart: page.nextPageStart };
  return { [key]: page.values, ...tail } as Record<K, T[]> & z.infer<typeof PageTail>;
}
