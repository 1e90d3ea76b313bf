/**
 * Tool registrations under a confinement: each call's `project`/`repo` filled
 * in or refused before the SDK validates the arguments (so a refused call
 * never reaches Bitbucket), as far as the tool's declared reach requires (a
 * server-wide tool declared `wide` may leave both out: what it lists outside
 * the confinement is dropped by the tool itself, `ctx.within`), and the
 * schemas shown without `project`/`repo` when one repository is allowed. A
 * search query the tool declares is checked too: a `project:`/`repo:` word in
 * it is refused, since it would widen the scope the confinement filled in.
 */
import type { StandardSchemaWithJSON } from "../deps/mcp.ts";
import { type Registration, registrationOf } from "./sdk_registration.ts";
import type { ToolEntry } from "../tools/kit/define.ts";
import type { JsonSchema } from "../tools/kit/published_schema.ts";
import { type Confinement, scopeWordIn, spanOf } from "./confinement.ts";

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

/** `registration` of `tool` confined to `confinement`, as the tool's reach requires. */
export function confineRegistration(
  registration: Registration,
  confinement: Confinement,
  tool: Pick<ToolEntry, "reach" | "bounding">,
): Registration {
  const { name, config, callback } = registration;
  const takes = propertiesOf(config.inputSchema);
  const span = spanOf(tool);
  const queryArg = tool.bounding?.mode === "drop" ? tool.bounding.query : undefined;
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
        const query = queryArg === undefined ? undefined : args[queryArg];
        const word = typeof query === "string" ? scopeWordIn(query) : undefined;
        if (word !== undefined) {
          return {
            issues: [{
              message:
                `Cannot call ${name}: a ${word} word in the query would reach beyond this server's confinement to ${confinement.describe()} (hint: leave it out and use the project/repo arguments)`,
            }],
          };
        }
        const confined = confinement.bound(args, takes, span);
        if ("refused" in confined) {
          return { issues: [{ message: `Cannot call ${name}: ${confined.refused}` }] };
        }
        return inner.validate(confined.args);
      },
      jsonSchema: { input: shown("input"), output: shown("output") },
    },
  };
  return registrationOf(name, { ...config, inputSchema }, callback);
}
