/**
 * Which tool call is running, for the JSON log lines it causes: each call
 * runs inside a scope naming its tool and request id, and a line written
 * meanwhile (a Bitbucket request's) reads it back. Loaded only with
 * `--log-format json`, so text logging costs nothing for it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { CallLabel, CallScope } from "../policy/observed_registration.ts";
import type { LogFields } from "./log.ts";

/** A scope to run calls in, and the fields of the call running now. */
export interface CallContext {
  scope: CallScope;
  current(): LogFields | undefined;
}

/** A fresh {@link CallContext}. */
export function callContext(): CallContext {
  const storage = new AsyncLocalStorage<CallLabel>();
  return {
    scope: (call, body) => storage.run(call, body),
    current: () => storage.getStore(),
  };
}
