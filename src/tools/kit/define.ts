import type {
  CallToolResult,
  ClientCapabilities,
  InputRequiredResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
  ToolAnnotations,
} from "../../deps/mcp.ts";
import type { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/client.ts";
import { type Confirmation, Confirmations, guardedCall } from "../../policy/confirmation.ts";
import type { AuditLog, CallRecorder } from "../../policy/audit.ts";
import type { Confinement } from "../../policy/confinement.ts";
import { convertSchema, type JsonSchema, published } from "./published_schema.ts";

/** What the person running the server lets the agent do without asking. */
export interface CallPolicy {
  /**
   * Unsafe writes go ahead unasked (`--yolo`). Unset, every unsafe call, and
   * a safe write's call that is risky for its arguments (a commit straight
   * onto the default branch), first asks the person (see `confirm`).
   */
  unsafeWrites: boolean;
  /** Signs and checks confirmation states; absent, the process's own (a random key). */
  confirmations?: Confirmations;
  /** Where each call is recorded (`--audit-file`); absent, calls are not recorded. */
  audit?: AuditLog;
  /** The projects and repositories calls may touch (`--project`, `--repo`); absent, all. */
  confinement?: Confinement;
}

/** The policy of a server started without `--yolo`. */
export const CAUTIOUS: CallPolicy = { unsafeWrites: false };

let processConfirmations: Confirmations | undefined;

/** The confirmations of `policy`: its own, or one per process made on first use. */
function confirmationsOf(policy: CallPolicy): Confirmations {
  return policy.confirmations ?? (processConfirmations ??= new Confirmations());
}

/** What a handler may use: the Bitbucket client, the call's cancellation signal, the policy in force. */
export interface ToolContext {
  bitbucket: BitbucketClient;
  signal: AbortSignal;
  policy: CallPolicy;
  /** What the person confirmed for this call, when they were asked: a write uses its version. */
  confirmed?: Confirmation;
}

/** How much a tool may change, as `tools`, the README and the gating show it. */
export type AccessLevel = "read-only" | "safe write" | "unsafe write";

/**
 * What a tool may do to Bitbucket: the one fact `readOnlyHint`,
 * `destructiveHint`, gating and the docs derive from. A write always says why
 * it has its level.
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
 * - `output` is built from the project's own output shapes (`src/tools/shapes/`,
 *   or a shape declared beside the one tool that returns it), each with its
 *   mapper beside it; entity schemas (`src/bitbucket/entities/`, what
 *   Bitbucket sends, parsed tolerantly) never appear in a published schema.
 * - The result is an object that names its payload (`branches`, `pullRequest`);
 *   a listing carries its paging facts beside the collection (`pagedOutput`).
 * - The text block is the same JSON, or for a document (a diff, a file) the
 *   document itself (`document`).
 */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  access: Access;
  input: I;
  output: O;
  /** Repeating the call with the same arguments has no further effect (defaults to read-only). */
  idempotent?: boolean;
  /** For document payloads (a diff, a file): the text block carries the document itself instead of JSON. */
  document?: (out: z.infer<O>) => string;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>;
  /**
   * What the person is asked before the call, in plain words (reading what it
   * needs, e.g. the pull request's title, refs and version); undefined when
   * these arguments need no confirmation. Every unsafe write has one (a test
   * checks); a safe write has one when some of its calls are risky.
   * Not asked under `--yolo`.
   */
  confirm?: (args: z.infer<I>, ctx: ToolContext) => Promise<Confirmation | undefined>;
}

/**
 * Where a call's Bitbucket client comes from, asked when the call runs: the
 * one client of a stdio server, or over HTTP one made for the token of the
 * request the call arrived in (`ctx.http.authInfo`).
 */
export type ClientSource = (ctx: ServerContext) => BitbucketClient;

/** What the SDK is given for one tool besides its name. */
export interface ToolConfig {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: StandardSchemaWithJSON;
  readonly outputSchema: StandardSchemaWithJSON;
  readonly annotations: ToolAnnotations;
}

/**
 * A tool call as the SDK makes it, once `args` passed the input schema;
 * `connection` gives the capabilities the client declared at initialize
 * (2025 era), which the context does not carry; `recorder`, under an audit
 * log, takes the call's Bitbucket requests and confirmation outcome.
 */
export type ToolCallback = (
  args: unknown,
  ctx: ServerContext,
  connection: () => ClientCapabilities | undefined,
  recorder?: CallRecorder,
) => Promise<CallToolResult | InputRequiredResult>;

/**
 * One tool as the SDK registers it: its config and its callback, made once
 * per process and added as they are to every server instance (HTTP builds
 * one per request), so an instance costs the SDK's bookkeeping alone.
 */
export interface Registration {
  readonly name: string;
  readonly config: ToolConfig;
  readonly callback: ToolCallback;
  /** Registers the tool on `server`. */
  addTo(server: McpServer): void;
}

/** Anything a server can register: a tool, or its listing standing in for it until its first call. */
export interface Registrable {
  readonly name: string;
  /** The registration, taking each call's client from `clients`, under the policy in force. */
  registration(clients: ClientSource, policy: CallPolicy): Registration;
}

/** The registration of `name` with this config and callback. */
export function registrationOf(
  name: string,
  config: ToolConfig,
  callback: ToolCallback,
): Registration {
  return {
    name,
    config,
    callback,
    addTo(server) {
      server.registerTool<StandardSchemaWithJSON, StandardSchemaWithJSON>(
        name,
        config,
        (args, ctx) => callback(args, ctx, () => server.server.getClientCapabilities()),
      );
    },
  };
}

/** A brand on every value {@link defineTool} makes, so a test can find tools left out of the catalogue. */
const TOOL = Symbol("bitbucket-mcp tool");

/** A tool with its types erased, so the catalogue can hold every tool in one list. */
export interface Tool extends Registrable {
  readonly [TOOL]: true;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly access: Access;
  readonly annotations: ToolAnnotations;
  readonly hasDocumentText: boolean;
  /** The person is asked before some or all of its calls (it has `confirm`). */
  readonly asks: boolean;
  /** The input and output JSON schemas, converted from zod now: what the generated listings must hold. */
  convertedSchemas(): { input: JsonSchema; output: JsonSchema };
}

/** True for a value made by {@link defineTool}. */
export function isTool(value: unknown): value is Tool {
  return typeof value === "object" && value !== null && TOOL in value;
}

/**
 * The only way a tool is made. Input and output JSON schemas come from the
 * zod objects; the SDK validates arguments before the handler and the result
 * after it. The annotations derive from `access`, never declared beside it.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
): Tool {
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
    outputSchema: published(spec.output),
    annotations,
  };
  return {
    [TOOL]: true,
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access: spec.access,
    annotations,
    hasDocumentText: spec.document !== undefined,
    asks: spec.confirm !== undefined,
    registration(clients, policy) {
      const asks = !policy.unsafeWrites &&
        (spec.access.level === "unsafe write" || spec.confirm !== undefined);
      const call = async (
        raw: unknown,
        ctx: ServerContext,
        connection: () => ClientCapabilities | undefined,
        recorder?: CallRecorder,
      ) => {
        // The SDK has parsed `args` with `spec.input` before this callback runs, so
        // narrowing `args` back to the input type is sound.
        const args = raw as z.infer<I>;
        const client = clients(ctx);
        const bitbucket = recorder ? client.observed(recorder.request) : client;
        const toolCtx: ToolContext = { bitbucket, signal: ctx.mcpReq.signal, policy };
        const run = async (confirmed: Confirmation | undefined): Promise<CallToolResult> => {
          const out = await spec.handler(args, { ...toolCtx, confirmed });
          const text = spec.document ? spec.document(out) : JSON.stringify(out);
          return {
            structuredContent: withoutUndefined(out) as Record<string, unknown>,
            content: [{ type: "text" as const, text }],
          };
        };
        if (!asks) return await run(undefined);
        const confirm = spec.confirm;
        // Every call of an unsafe write asks; a test keeps `confirm` on each of them.
        const ask = confirm
          ? () => confirm(args, toolCtx)
          : () => Promise.resolve({ message: `${spec.title} (${spec.name})` });
        return await guardedCall({
          tool: spec.name,
          args,
          ctx,
          connection: connection(),
          confirmations: confirmationsOf(policy),
          always: spec.access.level === "unsafe write",
          ask,
          decided: recorder?.confirmation,
        }, run);
      };
      return registrationOf(spec.name, config, call);
    },
    convertedSchemas: () => ({
      input: convertSchema(spec.input, "input"),
      output: convertSchema(spec.output, "output"),
    }),
  };
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
