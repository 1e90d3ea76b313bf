/**
 * List tools, so each says only what differs: its own arguments (the kit
 * appends the paging ones, `limit` and `start`, last), what it holds, the
 * key it is returned under (said once, for the output schema and the result
 * alike), and either the one paged resource it lists and how an item is
 * returned, or a handler that gathers the page itself.
 */
import type { z } from "../../deps/zod.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { collectPages, type ListingRequest } from "../../bitbucket/transport/paging.ts";
import { PagingArgs } from "./args.ts";
import {
  defineTool,
  type HandlerContext,
  type Tool,
  type ToolBody,
  type ToolContext,
} from "./define.ts";
import type { Reached } from "./reach.ts";
import { pagedOutput, pagedResult, PageFacts } from "./shapes/page.ts";

/** The arguments a list tool's handler, request and map are given: its own, then the paging ones. */
export type ListArgs<I extends z.ZodObject> = z.infer<I> & z.infer<typeof PagingArgs>;

/** What every list tool declares, whichever way it lists. */
interface ListCommon<I extends z.ZodObject, K extends string, T extends z.ZodType> extends
  Pick<
    ToolBody<I, z.ZodObject, never>,
    "name" | "title" | "description" | "access" | "defaultFor"
  > {
  /** Its own arguments; the paging ones are appended. */
  input: I;
  /** What the collection is returned under, beside the paging facts: `branches`. */
  key: K;
  /** The output shape of one item. */
  item: T;
}

/** A listing's request, and, when a failure needs more than its `action`, how one is rethrown. */
export interface ListRequest extends ListingRequest {
  rethrow?: (error: unknown) => never;
}

/**
 * A list over one paged resource: the kit asks `request`'s listing for
 * `limit` items from `start`, parses each with `entity`, drops those outside a
 * confinement (a server-wide tool's `confine.item` locates them) and returns
 * the rest, each mapped by `map`, under `key`.
 */
export type ResourceListSpec<
  I extends z.ZodObject,
  K extends string,
  T extends z.ZodType,
  E extends z.ZodType,
> = ListCommon<I, K, T> & {
  /** The entity schema each listed value is parsed with. */
  entity: E;
  /** One listed value as `item`, given the call's arguments. */
  map: (value: z.infer<E>, args: ListArgs<I>) => z.infer<T>;
  /** Where the listing is for these arguments, and what asking it does. */
  request: (args: ListArgs<I>, ctx: ToolContext) => ListRequest | Promise<ListRequest>;
  handler?: never;
} & Reached<z.infer<E>>;

/** The page a gathering handler returns: `{ [key]: item[], isLastPage, nextPageStart? }`. */
export type ListPage<K extends string, T extends z.ZodType> =
  & { [P in K]: z.infer<T>[] }
  & z.infer<typeof PageFacts>;

/**
 * A list the tool gathers itself (several resources, a filter Bitbucket does
 * not apply, one unpaged answer paged here): its handler returns the page; a
 * server-wide one passes its values through `ctx.inside` before mapping them.
 */
export type GatheredListSpec<
  I extends z.ZodObject,
  K extends string,
  T extends z.ZodType,
  V,
> = ListCommon<I, K, T> & {
  handler: (args: ListArgs<I>, ctx: HandlerContext<V>) => Promise<ListPage<K, T>>;
  entity?: never;
  request?: never;
} & Reached<V>;

/**
 * A list tool: its input its own arguments then `limit` and `start`, its
 * output `{ [key]: item[], isLastPage, nextPageStart? }`.
 */
export function defineListTool<
  I extends z.ZodObject,
  K extends string,
  T extends z.ZodType,
  E extends z.ZodType,
>(spec: ResourceListSpec<I, K, T, E>): Tool;
export function defineListTool<
  I extends z.ZodObject,
  K extends string,
  T extends z.ZodType,
  V = never,
>(spec: GatheredListSpec<I, K, T, V>): Tool;
export function defineListTool(
  spec:
    | ResourceListSpec<z.ZodObject, string, z.ZodType, z.ZodType>
    | GatheredListSpec<
      z.ZodObject,
      string,
      z.ZodType,
      unknown
    >,
): Tool {
  const output = pagedOutput(spec.key, spec.item);
  const input = spec.input.extend(PagingArgs.shape);
  // The SDK parsed the arguments with `input`: its own, then the paging ones.
  const paged = (args: unknown) => args as ListArgs<z.ZodObject>;
  const { name, title, description, access, defaultFor, reach, confine } = spec;
  const common = { name, title, description, access, defaultFor, input, output };
  if (spec.handler !== undefined) {
    const { handler } = spec;
    return defineTool({
      ...common,
      ...({ reach, confine } as Reached<unknown>),
      handler: (args, ctx) => handler(paged(args), ctx),
    });
  }
  const { key, entity, map, request } = spec;
  return defineTool({
    ...common,
    ...({ reach, confine } as Reached<unknown>),
    async handler(raw, ctx) {
      const args = paged(raw);
      const { path, query, action, rethrow } = await request(args, ctx);
      const paging = { start: args.start, limit: args.limit };
      let listed = collectPages(ctx.bitbucket, path, entity, paging, query);
      if (rethrow !== undefined) listed = listed.catch(rethrow);
      else if (action !== undefined) listed = listed.catch(rethrowDuring(action));
      const page = await listed;
      const values = ctx.inside(page.values);
      return pagedResult(key, { ...page, values }, (value) => map(value, args));
    },
  });
}
