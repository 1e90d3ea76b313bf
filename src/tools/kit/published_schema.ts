/**
 * A tool's zod schemas as `tools/list` publishes them: zod's own JSON Schema,
 * trimmed of what tells a model nothing, converted once per process.
 */
import type { StandardSchemaWithJSON } from "../../deps/mcp.ts";
import type { z } from "../../deps/zod.ts";

/** A JSON schema as published in `tools/list`. */
export type JsonSchema = Record<string, unknown>;

/** The JSON Schema dialect the SDK asks for, and the generated manifest holds. */
export const PUBLISHED_TARGET = "draft-2020-12";

/** zod's bounds for `.int()`: they add bytes to every schema and tell a model nothing. */
const NOISE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Drops what costs model context and tells a model nothing it would get
 * wrong: `$schema` (MCP's default dialect), safe-integer bounds,
 * `minLength: 1` (zod still refuses an empty string, naming the argument),
 * and an empty `properties` below the root (a record's; the root keeps it,
 * as some clients require).
 * And writes what not every dialect reads the portable way: a `type` array
 * (zod's union of primitives) as `anyOf` branches of one type each, which a
 * client mapping schemas onto a single-`type` dialect (Gemini's) keeps.
 */
function trim(node: unknown, root: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => trim(n, false));
  if (typeof node !== "object" || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (root && key === "$schema") continue;
    if ((key === "maximum" || key === "minimum") && NOISE_BOUNDS.has(value as number)) continue;
    if (key === "minLength" && value === 1) continue;
    if (key === "properties" && !root && isEmptyObject(value)) continue;
    if (key === "type" && Array.isArray(value) && !("anyOf" in node)) {
      out.anyOf = value.map((type) => ({ type }));
      continue;
    }
    out[key] = trim(value, false);
  }
  return out;
}

/** A plain object with no keys. */
function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.keys(value).length === 0;
}

/** zod's own conversion of `schema`, trimmed: what `tools/list` publishes for it. */
export function convertSchema(
  schema: z.ZodObject,
  io: "input" | "output",
  target = PUBLISHED_TARGET,
): JsonSchema {
  const convert = schema["~standard"].jsonSchema[io];
  return trim(convert({ target } as Parameters<typeof convert>[0]), true) as JsonSchema;
}

/**
 * The zod object as the SDK sees it: zod still validates, and the JSON schema
 * is zod's own conversion, trimmed and computed once per process (the SDK
 * otherwise converts again for every server instance the factory makes).
 */
export function published<S extends z.ZodObject>(
  schema: S,
): StandardSchemaWithJSON<unknown, z.output<S>> {
  const standard = schema["~standard"];
  const cache = new Map<string, JsonSchema>();
  const json = (io: "input" | "output") => (options: { target: string }): JsonSchema => {
    const key = `${io}:${options.target}`;
    let converted = cache.get(key);
    if (!converted) {
      converted = convertSchema(schema, io, options.target);
      cache.set(key, converted);
    }
    return converted;
  };
  return {
    "~standard": { ...standard, jsonSchema: { input: json("input"), output: json("output") } },
  } as StandardSchemaWithJSON<unknown, z.output<S>>;
}
