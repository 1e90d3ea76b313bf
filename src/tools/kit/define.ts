/**
 * The author's API for a tool: one value holds its schemas, its access, its
 * reach and its handler ({@link defineTool}). Nothing here knows how a call is
 * asked about, confined or recorded: the call policy (`src/policy/`) wraps a
 * tool's {@link Tool.call} when a server registers it, and tells the call what
 * lies inside a confinement (`within`), by which a server-wide tool drops what
 * lies outside.
 */
import type { CallToolResult, StandardSchemaWithJSON, ToolAnnotations } from "../../deps/mcp.ts";
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { type EscapedIds, noticingEscapes, visibleText } from "../../bitbucket/text/visible_id.ts";
import { convertSchema, type JsonSchema, published } from "./published_schema.ts";
import {
  type Bounding,
  boundingOf,
  OUTSIDE_KEY,
  type Place,
  type Reach,
  type Reached,
  REACHES,
} from "./reach.ts";
import { checkedStep, type LoopStep } from "./default_set.ts";

/** What the person is asked: the sentence, and the state of what it acts on, as read now. */
export interface Confirmation {
  message: string;
  /** Bitbucket's version of the pull request (or other entity) the person saw; the write uses it. */
  version?: number;
  /**
   * The state of what the call changes besides a version (a branch's head
   * commit, a build status, a review): sealed with the question, read again
   * after the yes, and the call is refused when it changed. `what` names it
   * in that refusal; a write may send `state` for Bitbucket to check.
   */
  binding?: { what: string; state: string };
}

/** What a handler may use for one call. */
export interface ToolContext {
  /** The caller's Bitbucket client, its every request cancelled when the call is. */
  bitbucket: BitbucketClient;
  /** What the person confirmed for this call, when they were asked: a write uses its version. */
  confirmed?: Confirmation;
  /** The names of the tools this server exposes (a view draws only what they would read). */
  exposed?: ReadonlySet<string>;
  /** The client that sent the call declared the MCP Apps extension (it can draw a view). */
  apps?: boolean;
  /** Under a confinement (`--project`, `--repo`): whether `place` is inside it. */
  within?: (place: Place) => boolean;
}

/**
 * What a handler gets: the call's context and, for a tool whose `confine`
 * locates its items, `inside`, which drops the values outside the
 * confinement (counting them for the result) before the handler builds it.
 */
export interface HandlerContext<V> extends ToolContext {
  inside(values: readonly V[]): V[];
}

/**
 * An enum argument whose choices each read through other tools: a choice is
 * offered (in the published schema and in validation) only while every tool
 * it needs is exposed, and the tool is left out when none is.
 */
export interface Choices {
  readonly arg: string;
  readonly needs: Readonly<Record<string, readonly string[]>>;
}

/** How much a tool may change, as `tools`, the docs and the selection show it. */
export type AccessLevel = "read-only" | "safe write" | "unsafe write";

/**
 * What a tool may do to Bitbucket: the one fact `readOnlyHint`,
 * `destructiveHint`, selection and the docs derive from. A write always says
 * why it has its level.
 */
export type Access =
  | { readonly level: "read-only" }
  | { readonly level: "safe write" | "unsafe write"; readonly why: string };

/** Reads only. */
export const READ_ONLY: Access = { level: "read-only" };

/** A write that adds something new or can be set back; `why` says which. */
export function safeWrite(why: string): Access {
  return { level: "safe write", why };
}

/** A write that is irreversible or feeds a merge gate; `why` says which. */
export function unsafeWrite(why: string): Access {
  return { level: "unsafe write", why };
}

/**
 * Everything that defines one tool: its schemas, its access and its handler, in one value.
 *
 * The output convention, followed by every tool:
 * - `output` is built from the project's own output shapes (`src/tools/kit/shapes/`,
 *   or a shape private to one toolset's folder), each with its mapper beside
 *   it; entity schemas (`src/bitbucket/entities/`, what Bitbucket sends,
 *   parsed tolerantly) never appear in a published schema.
 * - The result is an object that names its payload (`branches`, `pullRequest`);
 *   a listing carries its paging facts beside the collection (`defineListTool`).
 * - The text block is the same JSON, or for a document (a diff, a file) the
 *   document itself (`document`).
 */
export type ToolSpec<I extends z.ZodObject, O extends z.ZodObject, V = never> =
  & ToolBody<I, O, V>
  & Reached<V>;

/** Everything of a {@link ToolSpec} but its reach. */
export interface ToolBody<I extends z.ZodObject, O extends z.ZodObject, V> {
  name: string;
  title: string;
  description: string;
  /** Always stated, with no default: a write left without one would pass as a read. */
  access: Access;
  /** The step of the review loop it serves: it puts the tool in the `default` set. */
  defaultFor?: LoopStep;
  input: I;
  output: O;
  /** Repeating the call with the same arguments has no further effect (defaults to read-only). */
  idempotent?: boolean;
  /**
   * For document payloads (a diff, a file): the text block carries the
   * document itself instead of JSON; for a view, the one line the model reads.
   */
  document?: (out: z.infer<O>) => string;
  handler: (args: z.infer<I>, ctx: HandlerContext<V>) => Promise<z.infer<O>>;
  /** The tool's listed `_meta` (an MCP Apps tool's link to its page). */
  meta?: Record<string, unknown>;
  /** Result `_meta` besides the untrusted mark, from the output (a view's kind and version). */
  resultMeta?: (out: z.infer<O>) => Record<string, unknown>;
  /** Choices of an argument that narrow with the exposed tools (see {@link Choices}). */
  choices?: Choices;
  /**
   * What the person is asked before the call, in plain words (reading what it
   * needs, e.g. the pull request's title, refs and version); undefined when
   * these arguments need no confirmation. Every unsafe write has one (a test
   * checks); a safe write has one when some of its calls are risky.
   * Not asked under `--yolo`.
   */
  confirm?: (args: z.infer<I>, ctx: ToolContext) => Promise<Confirmation | undefined>;
}

/** What the SDK is given for one tool besides its name. */
export interface ToolConfig {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: StandardSchemaWithJSON;
  readonly outputSchema: StandardSchemaWithJSON;
  readonly annotations: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
}

/**
 * The `_meta` key on every tool result: what it carries came from Bitbucket,
 * written by other people, so a client or a model can tell it from our own
 * words (see docs/security.md, "Other people's text").
 */
export const UNTRUSTED_META = "bitbucket-mcp/untrusted";

/**
 * The `_meta` key on a result holding identifiers whose hidden characters are
 * written as escapes (`\u{202E}`): `{ids, count}`, the escaped identifiers as
 * the result shows them (the first 100) and how many there were. Absent when
 * there were none.
 */
export const ESCAPED_META = "bitbucket-mcp/escaped";

/** The result `_meta` of a call that escaped `escaped`: nothing when it escaped none. */
export function escapedMeta(escaped: EscapedIds | undefined): Record<string, EscapedIds> {
  return escaped === undefined ? {} : { [ESCAPED_META]: escaped };
}

/**
 * `error` with the hidden characters of its message written as escapes: a
 * message may quote an argument (a ref, a path) the model passed, and the
 * model must see its hidden bytes as the results show them, never raw.
 */
function withVisibleMessage(error: unknown): never {
  if (error instanceof Error) error.message = visibleText(error.message);
  throw error;
}

/** A brand on every value {@link defineTool} makes, so a test can find tools left out of the catalogue. */
const TOOL = Symbol("bitbucket-mcp tool");

/**
 * What a server needs of a tool before its first call: what `tools/list`
 * shows and what selection and policy read, and the tool itself, loaded on
 * demand. A {@link Tool} is its own entry; the manifest's entries stand in
 * for tools whose schemas are not built yet.
 */
export interface ToolEntry {
  readonly name: string;
  /** The toolset whose folder's `mod.ts` lists it (`--toolsets` selects by it). */
  readonly toolset: string;
  readonly access: { readonly level: AccessLevel };
  /** Where its requests read and write (`reach.ts`). */
  readonly reach: Reach;
  /** The review loop's step it serves, when it is in the `default` set (`default_set.ts`). */
  readonly defaultFor?: LoopStep;
  /** How a confinement bounds it: present exactly when its reach is the server. */
  readonly bounding?: Bounding;
  /** What the SDK is given; a manifest entry's schemas load the tool when first used. */
  readonly config: ToolConfig;
  /** The tool, loading it on first use. */
  load(): Promise<Tool>;
  /** Choices that narrow with the exposed tools, when it has some. */
  readonly choices?: Choices;
}

/** A tool with its types erased, so the catalogue can hold every tool in one list. */
export interface Tool extends ToolEntry {
  readonly [TOOL]: true;
  readonly title: string;
  readonly description: string;
  readonly access: Access;
  readonly annotations: ToolAnnotations;
  readonly hasDocumentText: boolean;
  /** The person is asked before some or all of its calls (it has `confirm`). */
  readonly asks: boolean;
  /**
   * Runs the handler on arguments the SDK already parsed with the input
   * schema, and shapes its output as the result: the output under
   * `structuredContent` (undefined keys dropped) and as the text block,
   * marked under `_meta` as Bitbucket's ({@link UNTRUSTED_META}).
   */
  call(args: unknown, ctx: ToolContext): Promise<CallToolResult>;
  /** The question for these arguments (see {@link ToolSpec.confirm}); an unsafe write without one names itself. */
  question(args: unknown, ctx: ToolContext): Promise<Confirmation | undefined>;
  /** The input and output JSON schemas, converted from zod now: what the generated manifest must hold. */
  convertedSchemas(): { input: JsonSchema; output: JsonSchema };
}

/** True for a value made by {@link defineTool}. */
export function isTool(value: unknown): value is Tool {
  return typeof value === "object" && value !== null && TOOL in value;
}

/** The toolset each tool is in, as its folder's `mod.ts` placed it ({@link placeInToolset}). */
const TOOLSETS = new WeakMap<Tool, string>();

/**
 * Puts `tool` in `toolset`: what its `toolset` reads from then on. A tool is
 * in one toolset only; placing it in another is refused.
 */
export function placeInToolset(tool: Tool, toolset: string): void {
  const placed = TOOLSETS.get(tool);
  if (placed !== undefined && placed !== toolset) {
    throw new Error(
      `Cannot put ${tool.name} in toolset ${toolset}: toolset ${placed} holds it (hint: a tool is listed by its own folder's mod.ts only)`,
    );
  }
  TOOLSETS.set(tool, toolset);
}

/**
 * The only way a tool is made. Input and output JSON schemas come from the
 * zod objects; the SDK validates arguments before the handler and the result
 * after it. The annotations derive from `access`, never declared beside it.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject, V = never>(
  spec: ToolSpec<I, O, V>,
): Tool {
  const bounding = checkedBounding(spec);
  checkedStep(spec.name, spec.defaultFor);
  const locate = spec.confine && "item" in spec.confine ? spec.confine.item : undefined;
  // A tool that drops what lies outside a confinement says how many it dropped.
  const output = locate
    ? spec.output.extend({ [OUTSIDE_KEY]: z.number().int().optional() })
    : spec.output;
  const readOnly = spec.access.level === "read-only";
  const annotations: ToolAnnotations = {
    readOnlyHint: readOnly,
    destructiveHint: spec.access.level === "unsafe write",
    idempotentHint: spec.idempotent ?? readOnly,
    openWorldHint: true,
  };
  const config: ToolConfig = {
    title: spec.title,
    description: spec.description,
    inputSchema: published(spec.input),
    outputSchema: published(output),
    annotations,
    ...(spec.meta ? { _meta: spec.meta } : {}),
  };
  // The SDK has parsed the arguments with `spec.input` before a call reaches
  // the tool, so narrowing them back to the input type is sound.
  const typed = (args: unknown) => args as z.infer<I>;
  const tool: Tool = {
    [TOOL]: true,
    name: spec.name,
    get toolset() {
      const toolset = TOOLSETS.get(tool);
      if (toolset === undefined) {
        throw new Error(
          `Cannot read the toolset of ${spec.name}: no toolset lists it (hint: list it in its folder's mod.ts)`,
        );
      }
      return toolset;
    },
    title: spec.title,
    description: spec.description,
    access: spec.access,
    reach: spec.reach,
    ...(spec.defaultFor ? { defaultFor: spec.defaultFor } : {}),
    ...(bounding ? { bounding } : {}),
    annotations,
    config,
    hasDocumentText: spec.document !== undefined,
    asks: spec.confirm !== undefined,
    choices: spec.choices,
    load: () => Promise.resolve(tool),
    async call(args, ctx) {
      const { within } = ctx;
      let dropped = 0;
      let checked = false;
      const inside = (values: readonly V[]): V[] => {
        checked = true;
        if (!within || !locate) return [...values];
        const kept = values.filter((value) => within(locate(value)));
        dropped += values.length - kept.length;
        return kept;
      };
      const { value: handled, escaped } = await noticingEscapes(() =>
        spec.handler(typed(args), { ...ctx, inside })
      ).catch(withVisibleMessage);
      if (within && locate && !checked) {
        throw new Error(
          `Cannot call ${spec.name}: its items were not checked against this server's confinement (hint: a defect of the tool: its handler must pass them through ctx.inside)`,
        );
      }
      const out = dropped > 0 ? { ...handled, [OUTSIDE_KEY]: dropped } : handled;
      const text = spec.document ? spec.document(out) : JSON.stringify(out);
      return {
        structuredContent: withoutUndefined(out) as Record<string, unknown>,
        content: [{ type: "text" as const, text }],
        _meta: { [UNTRUSTED_META]: true, ...escapedMeta(escaped), ...spec.resultMeta?.(out) },
      };
    },
    question: (args, ctx) =>
      spec.confirm
        ? spec.confirm(typed(args), ctx).catch(withVisibleMessage)
        : Promise.resolve({ message: `${spec.title} (${spec.name})` }),
    convertedSchemas: () => ({
      input: convertSchema(spec.input, "input"),
      output: convertSchema(output, "output"),
    }),
  };
  return tool;
}

/**
 * A result as it reads on the wire: keys whose value is undefined dropped, at
 * every depth. Handlers may leave optional fields undefined; this is the one
 * place that keeps them out of `structuredContent` (in-memory transports do
 * not serialise, and the text block's JSON has none).
 */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) out[key] = withoutUndefined(item);
  }
  return out;
}

/**
 * The plain-data form of `spec`'s confinement, after checking what a cast or
 * a plain-JavaScript caller could get past the types: a valid reach, a
 * `confine` exactly when it is the server, and a `query` that is an argument.
 */
function checkedBounding<V>(
  spec: { name: string; input: z.ZodObject } & Reached<V>,
): Bounding | undefined {
  const fail = (problem: string) => {
    throw new Error(`Cannot define tool ${spec.name}: ${problem}`);
  };
  if (!REACHES.includes(spec.reach)) {
    fail(`its reach must be one of ${REACHES.join(", ")}, not ${JSON.stringify(spec.reach)}`);
  }
  const bounding = boundingOf(spec.confine);
  if ((spec.reach === "server") !== (bounding !== undefined)) {
    fail(`a confine is declared exactly when its reach is "server"`);
  }
  if (bounding?.mode === "drop" && bounding.query !== undefined) {
    if (!(bounding.query in spec.input.shape)) {
      fail(`its confine names no argument ${bounding.query}`);
    }
  }
  return bounding;
}
