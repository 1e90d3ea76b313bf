/** The paging facts beside every listed collection, and the builders that put them there. */
import { z } from "../../../deps/zod.ts";
import type { Collected } from "../../../bitbucket/transport/paging.ts";

/** Where a listing stopped: passed back as `start` to continue. */
export const PageFacts = z.object({
  isLastPage: z.boolean(),
  nextPageStart: z.number().int().optional().describe("Pass as start for the next page"),
});

/** The output of a list tool: `{ [key]: item[], isLastPage, nextPageStart? }`. */
export function pagedOutput<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }).extend(
    PageFacts.shape,
  );
}

/** A gathered page as a list tool returns it, each value mapped to its output shape. */
export function pagedResult<K extends string, T, U>(
  key: K,
  page: Collected<T>,
  map: (value: T) => U,
): Record<K, U[]> & z.infer<typeof PageFacts> {
  const values = page.values.map(map);
  const facts = { isLastPage: page.isLastPage, nextPageStart: page.nextPageStart };
  return { [key]: values, ...facts } as Record<K, U[]> & z.infer<typeof PageFacts>;
}
