/**
 * The catalogue as a starting server knows it: each tool's listing (what
 * `tools/list` shows, and what `--toolsets`/`--yolo` select by), generated
 * from the tools themselves by `deno task snapshots` into
 * listings.generated.ts. Building every tool's zod schemas is most of what
 * loading the catalogue costs, and answering `tools/list` needs none of it,
 * so a listed tool loads the catalogue on its first call and hands each call
 * (its validation, its handler) to the real tool. A test fails, with the diff,
 * when the listings and the tools differ.
 */
import type { StandardSchemaWithJSON, ToolAnnotations } from "../deps/mcp.ts";
import type { CallPolicy, ClientSource, Registrable, Registration, Tool } from "./kit/define.ts";
import { type AccessLevel, registrationOf } from "./kit/define.ts";
import { LISTINGS } from "./manifest.generated.ts";
import type { JsonSchema } from "./kit/published_schema.ts";

/** One tool as `tools/list` shows it, with its toolset and access level. */
export interface Listing {
  name: string;
  toolset: string;
  level: AccessLevel;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  input: JsonSchema;
  output: JsonSchema;
}

/** A tool known by its listing until its first call. */
export interface ListedTool extends Registrable {
  readonly toolset: string;
  readonly access: { readonly level: AccessLevel };
}

/** The real tool named `name`, from the catalogue, loaded once. */
function loader(name: string): () => Promise<Tool> {
  let loaded: Promise<Tool> | undefined;
  return () =>
    loaded ??= import("./catalogue.ts").then(({ CATALOGUE }) => {
      const tool = CATALOGUE.find((t) => t.name === name);
      if (tool) return tool;
      throw new Error(
        `Cannot call ${name}: this build's catalogue has no such tool (hint: its listings are stale; run \`deno task snapshots\`)`,
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

/** The listed tool of one listing. */
function listedTool(listing: Listing): ListedTool {
  const tool = loader(listing.name);
  return {
    name: listing.name,
    toolset: listing.toolset,
    access: { level: listing.level },
    registration(clients: ClientSource, policy: CallPolicy): Registration {
      let real: Promise<Registration> | undefined;
      const registration = () => real ??= tool().then((t) => t.registration(clients, policy));
      return registrationOf(
        listing.name,
        {
          title: listing.title,
          description: listing.description,
          inputSchema: deferredSchema(
            listing.input,
            async () => (await registration()).config.inputSchema,
          ),
          outputSchema: deferredSchema(
            listing.output,
            async () => (await registration()).config.outputSchema,
          ),
          annotations: listing.annotations,
        },
        async (args, ctx, connection, recorder) =>
          await (await registration()).callback(args, ctx, connection, recorder),
      );
    },
  };
}

/** Every tool of the catalogue, by its listing, in catalogue order. */
export const LISTED: readonly ListedTool[] = LISTINGS.map(listedTool);
