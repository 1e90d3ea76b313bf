/**
 * The catalogue as a starting server knows it: an entry per tool made from
 * the generated manifest (what `tools/list` shows, and what `--toolsets` and
 * the policy select by). Building every tool's zod schemas is most of what
 * loading the catalogue costs, and answering `tools/list` needs none of it,
 * so an entry loads the catalogue on its first call, or when its arguments
 * are first validated, and hands the call to the real tool. A test fails,
 * with the diff, when the manifest and the tools differ.
 */
import type { StandardSchemaWithJSON } from "../deps/mcp.ts";
import type { Tool, ToolEntry } from "./kit/define.ts";
import type { JsonSchema } from "./kit/published_schema.ts";
import { MANIFEST, TOOLSET_NAMES } from "./manifest.generated.ts";
import type { ManifestRecord } from "./manifest_record.ts";

export { TOOLSET_NAMES };

/** The real tool named `name`, from the catalogue, loaded once. */
function loader(name: string): () => Promise<Tool> {
  let loaded: Promise<Tool> | undefined;
  return () =>
    loaded ??= import("./catalogue.ts").then(({ CATALOGUE }) => {
      const tool = CATALOGUE.find((t) => t.name === name);
      if (tool) return tool;
      throw new Error(
        `Cannot call ${name}: this build's catalogue has no such tool (hint: its manifest is stale; run \`deno task generate\`)`,
      );
    });
}

/** A schema publishing `json` that validates with the real tool's schema, loading it on first use. */
function deferredSchema(
  json: JsonSchema,
  real: () => Promise<StandardSchemaWithJSON>,
): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "zod",
      validate: async (value: unknown) => (await real())["~standard"].validate(value),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** The entry of one manifest record. */
function entryOf(record: ManifestRecord): ToolEntry {
  const load = loader(record.name);
  return {
    name: record.name,
    toolset: record.toolset,
    access: { level: record.level },
    reach: record.reach,
    ...(record.defaultFor ? { defaultFor: record.defaultFor } : {}),
    ...(record.bounding ? { bounding: record.bounding } : {}),
    config: {
      title: record.title,
      description: record.description,
      inputSchema: deferredSchema(record.input, async () => (await load()).config.inputSchema),
      outputSchema: deferredSchema(record.output, async () => (await load()).config.outputSchema),
      annotations: record.annotations,
      ...(record.meta ? { _meta: record.meta } : {}),
    },
    choices: record.choices,
    load,
  };
}

/** Every tool of the catalogue, by its manifest entry, in catalogue order. */
export const MANIFEST_TOOLS: readonly ToolEntry[] = MANIFEST.map(entryOf);
