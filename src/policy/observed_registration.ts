/**
 * Tool registrations watched from outside every other wrapper, for the
 * operator rather than the agent: each call is counted and timed by the
 * metrics (HTTP mode), and run inside a scope that names its tool and request
 * id for the log lines it causes (`--log-format json`). Like the audit, it
 * checks the arguments itself, so the calls the SDK would refuse before any
 * callback runs are counted as refused too; the answer is the SDK's own.
 */
import type { CallToolResult, InputRequiredResult, StandardSchemaWithJSON } from "../deps/mcp.ts";
import type { CallOutcomeLabel, ServerMetrics } from "../metrics/server_metrics.ts";
import type { CallRecorder, ConfirmationOutcome } from "./audit.ts";
import { invalidArguments } from "./audited_registration.ts";
import { type Registration, registrationOf } from "./sdk_registration.ts";

/** What names a call in the log lines it causes. */
export interface CallLabel {
  tool: string;
  /** The JSON-RPC id of the `tools/call` request. */
  requestId?: string | number;
}

/** Runs `body` with `call` as the current call (the JSON log lines read it). */
export type CallScope = <T>(call: CallLabel, body: () => Promise<T>) => Promise<T>;

/** Who watches the calls: the metrics, the log scope, or both. */
export interface CallObservers {
  metrics?: ServerMetrics;
  scope?: CallScope;
}

type Result = CallToolResult | InputRequiredResult;

/** The metrics outcome of a call that answered (rather than threw). */
function outcomeOf(
  result: Result,
  confirmation: ConfirmationOutcome | undefined,
): CallOutcomeLabel {
  if ("resultType" in result && result.resultType === "input_required") return "input_required";
  if (!("isError" in result) || !result.isError) return "ok";
  return confirmation === "declined" || confirmation === "cancelled" ? "declined" : "refused";
}

/** `registration` with each call counted, timed and scoped by `observers`. */
export function observeRegistration(
  registration: Registration,
  observers: CallObservers,
): Registration {
  const { name, config, callback } = registration;
  const { metrics, scope } = observers;
  const checked = config.inputSchema["~standard"];
  const inputSchema: StandardSchemaWithJSON = {
    "~standard": { ...checked, validate: (value: unknown) => ({ value }) },
  };
  return registrationOf(name, { ...config, inputSchema }, (raw, ctx, connection) => {
    const run = async (): Promise<Result> => {
      const timer = metrics?.call(name);
      let confirmation: ConfirmationOutcome | undefined;
      // Outermost, so nothing hands this one a recorder: the audit, inside, tells it what the
      // person answered as well as recording it.
      const recorder: CallRecorder = {
        confirmation: (outcome) => {
          confirmation = outcome;
          metrics?.confirmation(outcome);
        },
      };
      try {
        const valid = await checked.validate(raw);
        if (valid.issues) {
          timer?.end("refused");
          return invalidArguments(name, valid.issues);
        }
        const result = await callback(valid.value, ctx, connection, recorder);
        timer?.end(outcomeOf(result, confirmation));
        return result;
      } catch (error) {
        timer?.end("error");
        throw error;
      }
    };
    return scope ? scope({ tool: name, requestId: ctx.mcpReq.id }, run) : run();
  });
}
