/**
 * Choices that narrow with the exposed tools: a tool whose argument's choices
 * each read through other tools (the view's `kind`) offers, in its published
 * schema and in validation alike, only the choices whose tools this server
 * exposes after selection and confinement; with none left, it is left out.
 * The one place this rule lives, for catalogue tools and manifest entries.
 */
import type { StandardSchemaWithJSON } from "../deps/mcp.ts";
import type { Choices, ToolConfig, ToolEntry } from "../tools/kit/define.ts";
import type { JsonSchema } from "../tools/kit/published_schema.ts";
import { type Confinement, withinConfinement } from "./confinement.ts";

/** The choices of `choices` whose every needed tool is in `exposed`, in their order. */
export function offeredChoices(choices: Choices, exposed: ReadonlySet<string>): string[] {
  return Object.entries(choices.needs)
    .filter(([, needs]) => needs.every((name) => exposed.has(name)))
    .map(([choice]) => choice);
}

/** `schema`'s JSON with the enum of `arg` cut to `offered`. */
function narrowedJson(json: JsonSchema, arg: string, offered: readonly string[]): JsonSchema {
  const properties = (json as { properties?: Record<string, Record<string, unknown>> }).properties;
  const property = properties?.[arg];
  if (!properties || !property) return json;
  return { ...json, properties: { ...properties, [arg]: { ...property, enum: [...offered] } } };
}

/** `schema`, publishing the narrowed enum and refusing a choice not offered before validating. */
function narrowedSchema(
  schema: StandardSchemaWithJSON,
  arg: string,
  offered: readonly string[],
): StandardSchemaWithJSON {
  const standard = schema["~standard"];
  const input = standard.jsonSchema.input;
  const json = (options: Parameters<typeof input>[0]) => narrowedJson(input(options), arg, offered);
  return {
    "~standard": {
      ...standard,
      validate: (value: unknown) => {
        const given = (value as Record<string, unknown> | null)?.[arg];
        if (typeof given === "string" && !offered.includes(given)) {
          return {
            issues: [{
              message: `${arg} must be one of ${
                offered.join(", ")
              } (the others need tools this server does not expose)`,
              path: [arg],
            }],
          };
        }
        return standard.validate(value);
      },
      jsonSchema: { input: json, output: json },
    },
  } as StandardSchemaWithJSON;
}

/** `entries` with each narrowing tool narrowed to the tools among them, or left out when nothing is offered. */
export function narrowChoices(entries: readonly ToolEntry[]): ToolEntry[] {
  const exposed = new Set(entries.map((e) => e.name));
  return entries.flatMap((entry) => {
    const { choices } = entry;
    if (!choices) return [entry];
    const offered = offeredChoices(choices, exposed);
    if (offered.length === 0) return [];
    if (offered.length === Object.keys(choices.needs).length) return [entry];
    const config: ToolConfig = {
      ...entry.config,
      inputSchema: narrowedSchema(entry.config.inputSchema, choices.arg, offered),
    };
    return [{ ...entry, config, load: entry.load }];
  });
}

/**
 * What a server exposes of the selected `tools` under `confinement`: those
 * the confinement can bound, with their choices narrowed. The one rule the
 * server registers by and `check` and `tools` report by.
 */
export function exposedTools(
  tools: readonly ToolEntry[],
  confinement: Confinement | undefined,
): ToolEntry[] {
  return narrowChoices(withinConfinement(tools, confinement));
}
