/**
 * The handler of a list tool over one paged Bitbucket resource, so each such
 * tool says only what differs: where the listing is, what it holds, and how
 * an item is returned.
 */
import type { z } from "../../deps/zod.ts";
import type { Query } from "../../bitbucket/client.ts";
import { rethrowDuring } from "../../bitbucket/errors.ts";
import { collectPages } from "../../bitbucket/paging.ts";
import type { ToolContext } from "./define.ts";
import { pagedResult, type PageFacts } from "./shapes/page.ts";

/** Where one listing is, for given arguments. */
export interface ListingRequest {
  path: string;
  query?: Query;
  /** What was asked, for a failure's message: `Cannot ${action}: ...` (e.g. `list files under "src"`). */
  action?: string;
}

/**
 * A handler that gathers `limit` items from `start` of the listing `request`
 * names, parses each with `entity`, and returns them under `key`, each mapped
 * by `map`, beside the paging facts.
 */
export function listing<
  A extends { limit: number; start?: number },
  E extends z.ZodType,
  K extends string,
  U,
>(
  key: K,
  entity: E,
  map: (value: z.infer<E>, args: A) => U,
  request: (args: A, ctx: ToolContext) => ListingRequest | Promise<ListingRequest>,
): (args: A, ctx: ToolContext) => Promise<Record<K, U[]> & z.infer<typeof PageFacts>> {
  return async (args, ctx) => {
    const { path, query, action } = await request(args, ctx);
    const paging = { start: args.start, limit: args.limit };
    let listed = collectPages(ctx.bitbucket, path, entity, paging, query, ctx.signal);
    if (action !== undefined) listed = listed.catch(rethrowDuring(action));
    const page = await listed;
    return pagedResult(key, page, (value) => map(value, args));
  };
}
