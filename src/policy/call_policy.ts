/**
 * What the person running the server lets the agent do without asking, and
 * where calls are recorded and bounded: one value, made once by the command
 * line and read by every registration.
 */
import type { AuditLog } from "./audit.ts";
import { Confirmations } from "./confirmation.ts";
import type { Confinement } from "./confinement.ts";
import type { CallObservers } from "./observed_registration.ts";

/** What the person running the server lets the agent do without asking. */
export interface CallPolicy extends CallObservers {
  /**
   * Unsafe writes go ahead unasked (`--yolo`). Unset, every unsafe call, and
   * a safe write's call that is risky for its arguments (a commit straight
   * onto the default branch), first asks the person (see `confirm`).
   */
  unsafeWrites: boolean;
  /** Signs and checks confirmation states; absent, the process's own (a random key). */
  confirmations?: Confirmations;
  /** Where each call is recorded (`--audit-file`); absent, calls are not recorded. */
  audit?: AuditLog;
  /** The projects and repositories calls may touch (`--project`, `--repo`); absent, all. */
  confinement?: Confinement;
  /** What the server instructions say of the administrator's policy in force; absent, none. */
  adminNote?: string;
}

/** The policy of a server started without `--yolo`. */
export const CAUTIOUS: CallPolicy = { unsafeWrites: false };

let processConfirmations: Confirmations | undefined;

/** The confirmations of `policy`: its own, or one per process made on first use. */
export function confirmationsOf(policy: CallPolicy): Confirmations {
  return policy.confirmations ?? (processConfirmations ??= new Confirmations());
}
