/**
 * The `policy` line of `check`: the administrator's policy in force (its
 * path and keys), none, or why none could be read, and a policy that stops
 * the server from serving (disabled, or invalid) as a failure.
 */
import { describeKeys, POLICY_KEYS, type PolicyState, whoDecided } from "../policy/admin_policy.ts";

/** The line's finding, as `check` prints it under the name `policy`. */
export interface PolicyFinding {
  status: "pass" | "fail";
  detail: string;
  fix?: string;
}

/** The keys a policy file may hold, for a fix that names them. */
const KEYS = POLICY_KEYS.join(", ");

/** The `policy` line for what was found at the policy's path. */
export function checkPolicy(state: PolicyState): PolicyFinding {
  switch (state.kind) {
    case "none":
      return { status: "pass", detail: `none (no ${state.path})` };
    case "unread":
      return {
        status: "pass",
        detail:
          `none read: this process may not read ${state.path} (an administrator's policy there applies with --allow-read=${state.path})`,
      };
    case "invalid":
      return {
        status: "fail",
        detail: `${state.path} is invalid (${state.problem}): nothing is served`,
        fix:
          `ask whoever manages this machine to correct it (JSON with only the keys ${KEYS}), or remove it`,
      };
    case "in force": {
      const { policy } = state;
      const why = policy.reason || policy.contact ? `; why: ${whoDecided(policy)}` : "";
      if (policy.disabled) {
        return {
          status: "fail",
          detail: `${state.path}: disabled, nothing is served: ${whoDecided(policy)}`,
          fix: "no flag can change this; ask whoever manages this machine",
        };
      }
      return { status: "pass", detail: `${state.path}: ${describeKeys(policy)}${why}` };
    }
  }
}
