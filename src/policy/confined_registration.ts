/**
 * Tool registrations under a confinement: each call's `project`/`repo` filled
 * in or refused before the SDK validates the arguments (so a refused call
 * never reaches Bitbucket), the schemas shown without `project`/`repo` when one
 * repository is allowed, and the two listings that range beyond a repository
 * (search_repositories without a project, list_projects) filtered to it. Code
 * search is bounded twice: a `project:`/`repo:` word in its query is refused
 * (it would widen the scope the confinement filled in), and any hit outside
 * the confinement is still dropped from its results.
 */
import type { CallToolResult, StandardSchemaWithJSON } from "../deps/mcp.ts";
import { type Registration, registrationOf } from "./sdk_registration.ts";
import type { JsonSchema } from "../tools/kit/published_schema.ts";
import { type Confinement, scopeWordIn } from "./confinement.ts";

/** Tools whose results are filtered to the confinement, by item. */
const FILTERED: Readonly<Record<string, (c: Confinement, item: Item) => boolean>> = {
  search_repositories: (c, item) =>
    typeof item.slug === "string" && typeof item.project?.key === "string" &&
    c.allowsRepo(item.project.key, item.slug),
  list_projects: (c, item) => typeof item.key === "string" && c.touchesProject(item.key),
  search_code: (c, item) => {
    const [project, repo, ...rest] = typeof item.repository === "string"
      ? item.repository.split("/")
      : [];
    return project !== undefined && repo !== undefined && rest.length === 0 &&
      c.allowsRepo(project, repo);
  },
};

/** The filtered tools whose calls may leave `project` out: their results alone bound them. */
const WIDE: ReadonlySet<string> = new Set(["search_repositories", "list_projects"]);

/** The payload key of each filtered tool. */
const PAYLOAD: Readonly<Record<string, string>> = {
  search_repositories: "repositories",
  list_projects: "projects",
  search_code: "results",
};

/** Tools with a search query in which a scope word would widen the confined scope. */
const QUERIES: Readonly<Record<string, string>> = { search_code: "query" };

interface Item {
  slug?: unknown;
  key?: unknown;
  project?: { key?: unknown };
  repository?: unknown;
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
        const args = value as Record<string, unknown>;
        const query = QUERIES[name] === undefined ? undefined : args[QUERIES[name]];
        const word = typeof query === "string" ? scopeWordIn(query) : undefined;
        if (word !== undefined) {
          return {
            issues: [{
              message:
                `Cannot call ${name}: a ${word} word in the query would reach beyond this server's confinement to ${confinement.describe()} (hint: leave it out and use the project/repo arguments)`,
            }],
          };
        }
        const confined = confinement.bound(args, takes, WIDE.has(name));
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
  const kept = items.filter((item) => keep(item as Item));
  if (kept.length === items.length) return result;
  // A total counted over what was dropped would tell of it: it goes too.
  const { count: _count, ...rest } = content;
  const structuredContent = { ...rest, [key]: kept };
  return {
    ...result,
    structuredContent,
    content: [{ type: "text" as const, text: JSON.stringify(structuredContent) }],
  };
}
