/**
 * Bitbucket's paged listings: the envelope every page comes in, and the one
 * walk over `start`/`limit`/`isLastPage`/`nextPageStart` that gathers a
 * listing up to a limit, so no caller pages by hand.
 */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient, Query } from "./client.ts";

/** The largest page Bitbucket serves in one request, and so our cap on `limit`. */
export const MAX_LIMIT = 1000;

function makePage<T extends z.ZodType>(item: T) {
  return z.object({
    values: z.array(item),
    isLastPage: z.boolean(),
    nextPageStart: z.number().int().nullish(),
    start: z.number().int().optional(),
    size: z.number().int().optional(),
    limit: z.number().int().optional(),
  });
}

const pages = new WeakMap<z.ZodType, ReturnType<typeof makePage>>();

/**
 * Bitbucket's paged envelope around a list of entities. One schema per item
 * schema, made once: zod compiles a fast parser for each schema object on
 * first use, so a fresh envelope per request would pay that on every call.
 */
export function pageOf<T extends z.ZodType>(item: T): ReturnType<typeof makePage<T>> {
  let page = pages.get(item);
  if (!page) {
    page = makePage(item);
    pages.set(item, page);
  }
  return page as ReturnType<typeof makePage<T>>;
}

/** Where a listing stopped: what a caller passes back as `start` to continue. */
export interface PageTail {
  isLastPage: boolean;
  nextPageStart?: number;
}

/** Where one listing is: its path and query, and what asking it does, for a failure's message. */
export interface ListingRequest {
  path: string;
  query?: Query;
  /** What was asked, for a failure's message: `Cannot ${action}: ...` (e.g. `list files under "src"`). */
  action?: string;
}

/** What {@link collectPages} gathered. */
export interface Collected<T> extends PageTail {
  values: T[];
}

/**
 * Walks Bitbucket's `start`/`limit`/`isLastPage`/`nextPageStart` paging until
 * it holds `limit` items or the listing ends, asking each page for no more than
 * it still needs.
 */
export async function collectPages<T extends z.ZodType>(
  client: BitbucketClient,
  path: string,
  item: T,
  paging: { start?: number; limit: number },
  query: Query = {},
): Promise<Collected<z.infer<T>>> {
  const schema = pageOf(item);
  const values: z.infer<T>[] = [];
  let start = paging.start ?? 0;
  for (;;) {
    const want = Math.min(paging.limit - values.length, MAX_LIMIT);
    const { body: page } = await client.request({
      path,
      schema,
      query: { ...query, start, limit: want },
    });
    if (page.start !== undefined && page.start < start) {
      // Not paged: it answered from its start whatever `start` said.
      const rest = await fromIgnoredStart(client, path, schema, query, page.start, start, want);
      return { ...rest, values: [...values, ...rest.values] };
    }
    values.push(...page.values.slice(0, want));
    const next = page.nextPageStart ?? undefined;
    // A next page that does not move on would be read again and again.
    if (page.isLastPage || next === undefined || next <= start || page.values.length === 0) {
      return { values, isLastPage: true };
    }
    if (values.length >= paging.limit) return { values, isLastPage: false, nextPageStart: next };
    start = next;
  }
}

/**
 * What a resource that ignores `start` holds from `start` on (a pull
 * request's changes are "currently not paged", per the 9.4 spec): read again
 * from where it answers, far enough to reach `start` + `want`, and cut there.
 */
async function fromIgnoredStart<T extends z.ZodType>(
  client: BitbucketClient,
  path: string,
  schema: ReturnType<typeof pageOf<T>>,
  query: Query,
  served: number,
  start: number,
  want: number,
): Promise<Collected<z.infer<T>>> {
  const limit = Math.min(start - served + want, MAX_LIMIT);
  const { body: page } = await client.request({
    path,
    schema,
    query: { ...query, start: served, limit },
  });
  const skip = start - served;
  const values = page.values.slice(skip, skip + want);
  const more = page.values.length > skip + values.length ||
    (!page.isLastPage && values.length > 0);
  return more
    ? { values, isLastPage: false, nextPageStart: start + values.length }
    : { values, isLastPage: true };
}
