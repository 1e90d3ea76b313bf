/**
 * List tools over one paged Bitbucket resource, so each such tool says only
 * what differs: where the listing is, what it holds, the key it is returned
 * under (said once, for the output schema and the result alike), and how an
 * item is returned.
 */
import type { z } from "../../deps/zod.ts";
import { rethrowDuring } from "../../bitbucket/errors.ts";
import { collectPages, type ListingRequest } from "../../bitbucket/paging.ts";
import { type Access, defineTool, READ_ONLY, type Tool, type ToolContext } from "./define.ts";
import type { Reached } from "./reach.ts";
import { pagedOutput, pagedResult } from "./shapes/page.ts";

/** The paging arguments every list tool's input holds (`PagingArgs`). */
type Paging = { limit: number; start?: number };

/**
 * Everything that defines a list tool: a tool's description, its reach, and
 * its listing in place of a handler. A server-wide one locates each listed
 * value (`confine.item`), and values outside a confinement are dropped
 * before `map`.
 */
export type ListToolSpec<
  I extends z.ZodObject & z.ZodType<Paging>,
  K extends string,
  T extends z.ZodType,
  E extends z.ZodType,
> = ListBody<I, K, T, E> & Reached<z.infer<E>>;

/** Everything of a {@link ListToolSpec} but its reach. */
export interface ListBody<
  I extends z.ZodObject & z.ZodType<Paging>,
  K extends string,
  T extends z.ZodType,
  E extends z.ZodType,
> {
  name: string;
  /** The toolset it belongs to: the name of the folder it is declared in. */
  toolset: string;
  title: string;
  description: string;
  /** Default: read-only. */
  access?: Access;
  /** The arguments, paging among them. */
  input: I;
  /** What the collection is returned under, beside the paging facts: `branches`. */
  key: K;
  /** The output shape of one item. */
  item: T;
  /** The entity schema each listed value is parsed with. */
  entity: E;
  /** One listed value as `item`, given the call's arguments. */
  map: (value: z.infer<E>, args: z.infer<I>) => z.infer<T>;
  /** Where the listing is for these arguments, and what asking it does. */
  request: (args: z.infer<I>, ctx: ToolContext) => ListRequest | Promise<ListRequest>;
}

/** A listing's request, and, when a failure needs more than its `action`, how one is rethrown. */
export interface ListRequest extends ListingRequest {
  rethrow?: (error: unknown) => never;
}

/**
 * A list tool: its output `{ [key]: item[], isLastPage, nextPageStart? }`,
 * and a handler that gathers `limit` items from `start` of the listing
 * `request` names, parses each with `entity` and returns them under `key`,
 * each mapped by `map`, beside the paging facts.
 */
export function defineListTool<
  I extends z.ZodObject & z.ZodType<Paging>,
  K extends string,
  T extends z.ZodType,
  E extends z.ZodType,
>(spec: ListToolSpec<I, K, T, E>): Tool {
  const { key, item, entity, map, request, access = READ_ONLY, ...described } = spec;
  const output = pagedOutput(key, item);
  return defineTool({
    ...described,
    access,
    output,
    async handler(args, ctx) {
      const { path, query, action, rethrow } = await request(args, ctx);
      const paging = { start: args.start, limit: args.limit };
      let listed = collectPages(ctx.bitbucket, path, entity, paging, query);
      if (rethrow !== undefined) listed = listed.catch(rethrow);
      else if (action !== undefined) listed = listed.catch(rethrowDuring(action));
      const page = await listed;
      const values = ctx.inside(page.values);
      const result = pagedResult(key, { ...page, values }, (value) => map(value, args));
      // `{ [key]: item[] }` and the paging facts are the output's type; TypeScript
      // cannot see that through zod's inference while `key` is a type parameter.
      return result as z.infer<typeof output>;
    },
  });
}
