import type {
  CallToolResult,
  McpServer,
  StandardSchemaWithJSON,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { BitbucketClient } from "../bitbucket/client.ts";
import { published } from "./published_schema.ts";

/** What a handler may use: the Bitbucket client and the call's cancellation signal. */
export interface ToolContext {
  bitbucket: BitbucketClient;
  signal: AbortSignal;
}

/** How risky a tool is. Read-only tools are always safe; a write says why it is (un)safe. */
export type ToolAccess =
  | { readOnly: true; safe: true }
  | { readOnly: false; safe: boolean; why: string };

/** Everything that defines one tool: its schemas, its access and its handler, in one value. */
export type ToolSpec<I extends z.ZodObject, O extends z.ZodObject> = ToolAccess & {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** Repeating the call with the same arguments has no further effect (defaults to `readOnly`). */
  idempotent?: boolean;
  /** For document payloads (a diff, a file): the text block carries the document itself instead of JSON. */
  document?: (out: z.infer<O>) => string;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>;
};

/** The level shown by `tools` and in the README. */
export type AccessLevel = "read-only" | "safe write" | "unsafe write";

/** A tool with its types erased, so the catalogue can hold every tool in one list. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly readOnly: boolean;
  readonly safe: boolean;
  /** Why a write tool is safe or unsafe; absent for read-only tools. */
  readonly why: string | undefined;
  readonly access: AccessLevel;
  readonly annotations: ToolAnnotations;
  readonly hasDocumentText: boolean;
  /** Adds the tool to a server, bound to the client it will call. */
  register(server: McpServer, bitbucket: BitbucketClient): void;
}

/**
 * The only way a tool is made. Input and output JSON schemas come from the
 * zod objects; the SDK validates arguments before the handler and the result
 * after it. `destructiveHint` is derived from `safe`, never declared.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
): Tool {
  const annotations: ToolAnnotations = {
    readOnlyHint: spec.readOnly,
    destructiveHint: !spec.safe,
    idempotentHint: spec.idempotent ?? spec.readOnly,
    openWorldHint: true,
  };
  const why = spec.readOnly ? undefined : spec.why;
  const inputSchema = published(spec.input);
  const outputSchema = published(spec.output);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    readOnly: spec.readOnly,
    safe: spec.safe,
    why,
    access: spec.readOnly ? "read-only" : spec.safe ? "safe write" : "unsafe write",
    annotations,
    hasDocumentText: spec.document !== undefined,
    register(server, bitbucket) {
      // The SDK has parsed `args` with `spec.input` before this callback runs, so
      // widening the schema types here and narrowing `args` back is sound.
      server.registerTool<StandardSchemaWithJSON, StandardSchemaWithJSON>(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema,
          outputSchema,
          annotations,
        },
        async (args, ctx): Promise<CallToolResult> => {
          const out = await spec.handler(args as z.infer<I>, {
            bitbucket,
            signal: ctx.mcpReq.signal,
          });
          const text = spec.document ? spec.document(out) : JSON.stringify(out);
          return {
            structuredContent: withoutUndefined(out) as Record<string, unknown>,
            content: [{ type: "text" as const, text }],
          };
        },
      );
    },
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
