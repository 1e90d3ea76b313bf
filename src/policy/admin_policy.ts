/**
 * The administrator's policy: one JSON file at a fixed system location
 * (`/etc/bitbucket-mcp/policy.json`; on Windows
 * `C:\ProgramData\bitbucket-mcp\policy.json`) that switches this program
 * off, makes it read-only, confines it, or makes every unsafe write ask,
 * and that no flag or environment variable can loosen. Here it is found,
 * read and checked; `admin_narrowing.ts` applies it to the flags.
 *
 * It governs this program, not the token: it is not access control.
 */
import type { AdminPolicy } from "./admin_policy_file.ts";

export type { AdminPolicy };

/**
 * Where the policy lives on `os` when the build fixed no other path. On
 * Windows the path is fixed too, not read from `%ProgramData%`: a variable
 * the user sets would let the user move the policy out of the way.
 */
export function defaultPolicyPath(os: typeof Deno.build.os = Deno.build.os): string {
  return os === "windows"
    ? "C:\\ProgramData\\bitbucket-mcp\\policy.json"
    : "/etc/bitbucket-mcp/policy.json";
}

/** The largest policy file read; a bigger one is invalid (and refused). */
const MAX_POLICY_BYTES = 64 * 1024;

/**
 * The keys a policy file may hold, in the order the docs give them. The
 * file's schema (`admin_policy_file.ts`, zod) loads only when there is a
 * file to parse, so a start-up with none pays nothing for it; a test keeps
 * the two lists the same.
 */
export const POLICY_KEYS = [
  "disabled",
  "reason",
  "contact",
  "read_only",
  "no_yolo",
  "confine",
] as const;

/**
 * What was found at the policy's path: no file (`none`); a file this process
 * may not read (`unread`: no `--allow-read` for it, so whether one exists is
 * unknown); a file that could not be read or is not a valid policy
 * (`invalid`: served as refusing everything); or a policy `in force`.
 */
export type PolicyState =
  | { kind: "none"; path: string }
  | { kind: "unread"; path: string }
  | { kind: "invalid"; path: string; problem: string }
  | { kind: "in force"; path: string; policy: AdminPolicy };

/** How the policy file is read: injectable so tests need no file at a system path. */
export interface PolicyReader {
  /** Whether this process may read `path` (never prompts). */
  permitted(path: string): boolean;
  /** The file's text; throws `Deno.errors.NotFound` when there is none. */
  read(path: string): string;
}

/** Reads through Deno, asking the permission first so that nothing ever prompts. */
export const DENO_READER: PolicyReader = {
  permitted: (path) => Deno.permissions.querySync({ name: "read", path }).state === "granted",
  read: (path) => {
    const size = Deno.statSync(path).size;
    if (size > MAX_POLICY_BYTES) throw new Error(`${size} bytes, more than ${MAX_POLICY_BYTES}`);
    return Deno.readTextFileSync(path);
  },
};

/**
 * The policy at `path`: read once, at start-up. A file that exists but
 * cannot be read (or is a directory, or too big) is `invalid`, like one
 * that does not parse.
 */
export async function readPolicy(
  path: string,
  reader: PolicyReader = DENO_READER,
): Promise<PolicyState> {
  if (!reader.permitted(path)) return { kind: "unread", path };
  let text: string;
  try {
    text = reader.read(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "none", path };
    const problem = `cannot be read: ${oneLine(error instanceof Error ? error.message : error)}`;
    return { kind: "invalid", path, problem };
  }
  const { parsePolicy } = await import("./admin_policy_file.ts");
  const parsed = parsePolicy(text);
  return "policy" in parsed
    ? { kind: "in force", path, policy: parsed.policy }
    : { kind: "invalid", path, problem: parsed.problem };
}

/** Who decided, as a refusal names them: the reason and the contact, when the file gives them. */
export function whoDecided(policy: AdminPolicy): string {
  const reason = policy.reason ?? "no reason given";
  return policy.contact ? `${reason} (contact: ${policy.contact})` : reason;
}

/** The keys in force, in words: `read-only, unsafe writes always ask, confined to …`. */
export function describeKeys(policy: AdminPolicy): string {
  const keys = [
    ...(policy.disabled ? ["disabled"] : []),
    ...(policy.readOnly ? ["read-only"] : []),
    ...(policy.noYolo ? ["unsafe writes always ask"] : []),
    ...(policy.confinement ? [`confined to ${policy.confinement.describe()}`] : []),
  ];
  return keys.length > 0 ? keys.join(", ") : "no restriction";
}

/**
 * Why nothing may be served under `state`, as the one line start-up prints,
 * or undefined when serving may go on.
 */
export function refusalOf(state: PolicyState): string | undefined {
  if (state.kind === "invalid") {
    return `the administrator's policy ${state.path} is invalid (${state.problem}): nothing is served until it is fixed (ask whoever manages this machine)`;
  }
  if (state.kind === "in force" && state.policy.disabled) {
    return `the administrator's policy ${state.path} disables bitbucket-mcp on this machine: ${
      whoDecided(state.policy)
    }`;
  }
  return undefined;
}

/** What the server instructions say of a policy in force; undefined for none. Short. */
export function policyInstructions(state: PolicyState): string | undefined {
  if (state.kind !== "in force") return undefined;
  return `An administrator's policy governs this server (${
    describeKeys(state.policy)
  }); no flag lifts it.`;
}

function oneLine(value: unknown): string {
  return String(value).replace(/\s+/g, " ").trim();
}
