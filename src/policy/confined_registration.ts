/**
 * Tool registrations under a confinement: each call's `project`/`repo` filled
 * in or refused before the SDK validates the arguments (so a refused call
 * never reaches Bitbucket), the schemas shown without `project`/`repo` when one
 * repository is allowed, and the two listings that range beyond a repository
 * (search_repositories without a project, list_projects) filtered to it.
 */
import type { CallToolResult, StandardSchemaWithJSON } from "../deps/mcp.ts";
import { type Registration, registrationOf } from "./sdk_registration.ts";
import type { JsonSchema } from "../tools/kit/published_schema.ts";
import type { Confinement } from "./confinement.ts";

/** Tools whose calls may leave `project` out: their results are filtered instead. */
const FILTERED: Readonly<Record<string, (c: Confinement, item: Item) => boolean>> = {
  search_repositories: (c, item) =>
    typeof item.slug === "string" && typeof item.project?.key === "string" &&
    c.allowsRepo(item.project.key, item.slug),
  list_projects: (c, item) => typeof item.key === "string" && c.touchesProject(item.key),
};

/** The payload key of each filtered tool. */
const PAYLOAD: Readonly<Record<string, string>> = {
  search_repositories: "repositories",
  list_projects: "projects",
};

interface Item {
  slug?: unknown;
  key?: unknown;
  project?: { key?: unknown };
}

/** `schema` without `drop` among its properties and required names. */
function without(schema: JsonSchema, drop: ReadonlySet<string>): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, unknown>).filter(([k]) =>
      !drop.has(k)
    ),
  );
  const required = ((schema.required ?? []) as string[]).filter((k) => !drop.has(k));
  return { ...schema, properties, required };
}

/** The keys `schema`'s JSON form declares. */
function propertiesOf(schema: StandardSchemaWithJSON): Set<string> {
  const json = schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as JsonSchema;
  return new Set(Object.keys((json.properties ?? {}) as Record<string, unknown>));
}

/** `registration` confined to `confinement`. */
export function confineRegistration(
  registration: Registration,
  confinement: Confinement,
): Registration {
  const { name, config, callback } = registration;
  const takes = propertiesOf(config.inputSchema);
  const keep = FILTERED[name];
  const inner = config.inputSchema["~standard"];
  const hidden = new Set(
    confinement.oneRepo ? ["project", "repo"].filter((k) => takes.has(k)) : [],
  );
  type Options = Parameters<typeof inner.jsonSchema.input>[0];
  const shown = (io: "input" | "output") => (options: Options) => {
    const schema = inner.jsonSchema[io](options) as JsonSchema;
    return hidden.size > 0 ? without(schema, hidden) : schema;
  };
  const inputSchema: StandardSchemaWithJSON = {
    "~standard": {
      ...inner,
      validate: (value: unknown) => {
        if (typeof value !== "object" || value === null) return inner.validate(value);
        const confined = confinement.bound(
          value as Record<string, unknown>,
          takes,
          keep !== undefined,
        );
        if ("refused" in confined) {
          return { issues: [{ message: `Cannot call ${name}: ${confined.refused}` }] };
        }
        return inner.validate(confined.args);
      },
      jsonSchema: { input: shown("input"), output: shown("output") },
    },
  };
  return registrationOf(name, { ...config, inputSchema }, async (args, ctx, ...rest) => {
    const result = await callback(args, ctx, ...rest);
    return keep ? filtered(result, PAYLOAD[name]!, (item) => keep(confinement, item)) : result;
  });
}

/** `result` with the items of its `key` payload that `keep` refuses left out. */
function filtered<R extends object>(result: R, key: string, keep: (item: Item) => boolean): R {
  const call = result as CallToolResult;
  const content = call.structuredContent as Record<string, unknown> | undefined;
  const items = content?.[key];
  if (call.isError || !content || !Array.isArray(items)) return result;
  const structuredContent = { ...content, [key]: items.filter((item) => keep(item as Item)) };
  return {
    ...result,
    structuredContent,
    content: [{ type: "text" as const, text: JSON.stringify(structuredContent) }],
  };
}
