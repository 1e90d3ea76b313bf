/**
 * Tool registrations under the audit log: the outermost layer, so that every
 * call is recorded, the ones its arguments refuse included (a schema error, or
 * a project outside the confinement). The SDK would refuse those before any
 * callback runs; here the input schema lets every value through to the
 * callback, which checks it with the registration's own schema, records a
 * refusal as the SDK would have answered it, and otherwise runs the call
 * under {@link audited}.
 */
import type { CallToolResult, StandardSchemaWithJSON } from "../deps/mcp.ts";
import { type Registration, registrationOf } from "./sdk_registration.ts";
import { audited, type AuditLog, recordRefusal } from "./audit.ts";
import { isAppOnlyTool } from "../tools/kit/apps.ts";

type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };

/** An issue as the SDK words it: `path.to.key: message`. */
function issueText(issue: Issue): string {
  if (!issue.path?.length) return issue.message;
  const path = issue.path.map((p) => String(typeof p === "object" ? p.key : p));
  return `${path.join(".")}: ${issue.message}`;
}

/** The answer to arguments their schema refused, worded as the SDK words it. */
export function invalidArguments(name: string, issues: readonly Issue[]): CallToolResult {
  const text = `Input validation error: Invalid arguments for tool ${name}: ${
    issues.map(issueText).join(", ")
  }`;
  return { content: [{ type: "text", text }], isError: true };
}

/** `registration` with each call, refused or run, recorded in `log`. */
export function auditRegistration(registration: Registration, log: AuditLog): Registration {
  const { name, config, callback } = registration;
  const checked = config.inputSchema["~standard"];
  const writes = config.annotations.readOnlyHint !== true;
  // A tool only a view calls: its every line says the call came from a view, pressed by the person.
  const via = isAppOnlyTool(config._meta) ? "view" as const : undefined;
  const inputSchema: StandardSchemaWithJSON = {
    "~standard": { ...checked, validate: (value: unknown) => ({ value }) },
  };
  return registrationOf(name, { ...config, inputSchema }, async (raw, ctx, connection, outer) => {
    const call = { tool: name, args: raw, ctx, writes, via };
    const result = await checked.validate(raw);
    if (result.issues) {
      const refused = invalidArguments(name, result.issues);
      const text = (refused.content[0] as { text: string }).text;
      return recordRefusal(log, call, text, refused);
    }
    return await audited(
      log,
      call,
      (recorder) => callback(result.value, ctx, connection, recorder),
      outer,
    );
  });
}
