/**
 * The audit log (`--audit-file`): one JSON line per tool call, appended and
 * flushed to disk before the result goes back, saying when, which tool, with
 * which arguments, what the person answered when asked, how it ended and
 * which Bitbucket requests it made; a call of a tool only a view calls says
 * so (`via: "view"`). Over HTTP a line also names the caller by
 * a fingerprint of their token (never the token). A call of a write tool is
 * first recorded as `started` before anything reaches Bitbucket, so a write
 * never happens unrecorded: when that line cannot be written the call is
 * refused (unless `--audit-failure warn`).
 */
import type { AuthInfo, CallToolResult, InputRequiredResult, ServerContext } from "../deps/mcp.ts";
import type { Exchange } from "../bitbucket/transport/exchanges.ts";
import { BitbucketError } from "../bitbucket/transport/errors.ts";

/**
 * What became of asking the person: `asked` is the first round, answered by
 * the retry; `replayed`, a state already used on this instance; `stale`, a
 * yes whose target changed or went since (a replay on another instance finds
 * this), so nothing was written.
 */
export type ConfirmationOutcome =
  | "not needed"
  | "asked"
  | "accepted"
  | "declined"
  | "cancelled"
  | "unavailable"
  | "replayed"
  | "stale";

/** How a call ended, as its line records it. */
export type CallOutcome =
  | { result: "ok" }
  | { result: "input_required" }
  /** `message`: what was wrong, when the arguments were refused (kind `invalid_arguments`). */
  | { result: "error"; kind: string; status?: number; message?: string };

/** What to do when a line cannot be written: refuse the call (default), or warn and go on. */
export type AuditFailureMode = "refuse" | "warn";

/** Appends one line durably (written and flushed) or throws. */
export type AuditSink = (line: string) => void;

/**
 * An audit file: opened for appending now (created if missing), each line
 * written whole and flushed. `reopen` opens the path afresh, for log rotation
 * (the server calls it on SIGHUP): a rotated-away file gets no more lines.
 */
export interface AuditFile {
  readonly sink: AuditSink;
  /** Opens the path again; on failure keeps writing where it was and throws why. */
  reopen(): void;
}

/** The permission bits of an audit file: its owner alone may read it (it names calls and callers). */
export const AUDIT_FILE_MODE = 0o600;

/**
 * The audit file at `path`, opened now: throws when it cannot be opened.
 * It is created with mode 0600, and an existing file (one a rotation tool
 * made 0644, say) is set to 0600 on every open, reopen included, rather than
 * refused, so rotation never stops the log nor leaves it readable to others.
 */
export function openAuditFile(path: string): AuditFile {
  const open = () => {
    const file = Deno.openSync(path, {
      append: true,
      create: true,
      write: true,
      mode: AUDIT_FILE_MODE,
    });
    // Reading the bits would need read permission, which the server does not ask for: set them.
    if (Deno.build.os === "windows") return file;
    try {
      Deno.chmodSync(path, AUDIT_FILE_MODE);
    } catch (error) {
      file.close();
      throw error;
    }
    return file;
  };
  let file = open();
  const encoder = new TextEncoder();
  return {
    sink: (line) => {
      const bytes = encoder.encode(line + "\n");
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
      file.syncDataSync();
    },
    reopen: () => {
      const next = open();
      file.close();
      file = next;
    },
  };
}

/** The audit log of a running server. */
export interface AuditLog {
  readonly sink: AuditSink;
  readonly failure: AuditFailureMode;
  /** Where a line that could not be written is reported under `warn` (stderr). */
  readonly warn: (message: string) => void;
}

/** The first 12 hex digits of SHA-256 of `token`: names a caller across lines without the token. */
export async function fingerprint(token: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(hash).slice(0, 6), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** One call as the audit sees it while it runs. */
export interface AuditedCall {
  tool: string;
  args: unknown;
  ctx: ServerContext;
  /** The tool can write: its start is recorded before it runs. */
  writes: boolean;
  /** `view`: the tool is a view's own (`visibility: ["app"]`), so the person's press made the call. */
  via?: "view";
}

/** What {@link audited} hands the call: where requests and the confirmation outcome go. */
export interface CallRecorder {
  /** Absent when nobody records requests: the call's client is then not wrapped for it. */
  request?(exchange: Exchange): void;
  confirmation(outcome: ConfirmationOutcome): void;
}

type Result = CallToolResult | InputRequiredResult;

/**
 * Runs `body` under the audit log: a `started` line first for a write tool,
 * then the call's line once it ends (thrown errors are recorded, then thrown
 * on). A line that cannot be written refuses (before) or withholds (after)
 * the call, unless the log only warns. `outer`, a recorder outside the audit
 * (the metrics'), is told the confirmation outcome too.
 */
export async function audited(
  log: AuditLog,
  call: AuditedCall,
  body: (recorder: CallRecorder) => Promise<Result>,
  outer?: CallRecorder,
): Promise<Result> {
  const head = await headOf(call);
  if (call.writes) {
    const wrote = append(log, { time: now(), event: "started", ...head });
    if (wrote !== undefined) {
      return refusal(
        `Cannot call ${call.tool}: the audit log could not record it (${wrote}); nothing was sent to Bitbucket (hint: the person running the server must fix the audit file, or start it with --audit-failure warn)`,
      );
    }
  }
  const requests: Exchange[] = [];
  let confirmation: ConfirmationOutcome = "not needed";
  const recorder: CallRecorder = {
    request: (exchange) => requests.push(exchange),
    confirmation: (outcome) => {
      confirmation = outcome;
      outer?.confirmation(outcome);
    },
  };
  let result: Result;
  try {
    result = await body(recorder);
  } catch (error) {
    const failed = append(log, line(head, confirmation, thrown(error), requests));
    if (failed !== undefined) return withheld(call.tool, failed);
    throw error;
  }
  const failed = append(log, line(head, confirmation, outcomeOf(result), requests));
  return failed === undefined ? result : withheld(call.tool, failed);
}

/**
 * Records a call its arguments refused (nothing ran, nothing reached
 * Bitbucket) and returns `refused`, the answer the caller gets: the call
 * was refused whether or not the line could be written.
 */
export async function recordRefusal(
  log: AuditLog,
  call: AuditedCall,
  message: string,
  refused: CallToolResult,
): Promise<CallToolResult> {
  const outcome: CallOutcome = { result: "error", kind: "invalid_arguments", message };
  append(log, line(await headOf(call), "not needed", outcome, []));
  return refused;
}

/**
 * Records a call of a tool this server does not have (the SDK answers it
 * "not found" before any tool's wrapper runs): one line with kind
 * `unknown_tool`, nothing run, nothing sent. `auth` names the caller over HTTP.
 */
export async function recordUnknownTool(
  log: AuditLog,
  tool: string,
  args: unknown,
  auth: AuthInfo | undefined,
): Promise<void> {
  const outcome: CallOutcome = {
    result: "error",
    kind: "unknown_tool",
    message: `Tool ${tool} not found`,
  };
  append(log, line(await headFor(tool, args, auth), "not needed", outcome, []));
}

/** What every line of one call starts with: its id, tool, arguments and caller. */
async function headOf(call: AuditedCall): Promise<Record<string, unknown>> {
  const head = await headFor(call.tool, call.args, call.ctx.http?.authInfo);
  return call.via === undefined ? head : { ...head, via: call.via };
}

async function headFor(
  tool: string,
  args: unknown,
  auth: AuthInfo | undefined,
): Promise<Record<string, unknown>> {
  const caller = auth ? await fingerprint(auth.token) : undefined;
  return { call: crypto.randomUUID(), tool, arguments: args, caller };
}

function line(
  head: Record<string, unknown>,
  confirmation: ConfirmationOutcome,
  outcome: CallOutcome,
  requests: Exchange[],
): Record<string, unknown> {
  return { time: now(), event: "call", ...head, confirmation, outcome, requests };
}

function now(): string {
  return new Date().toISOString();
}

/** Appends `record`; undefined when written, else why not (already warned about under `warn`). */
function append(log: AuditLog, record: Record<string, unknown>): string | undefined {
  try {
    log.sink(JSON.stringify(record));
    return undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (log.failure === "warn") {
      log.warn(`audit log: could not record a call of ${record.tool} (${why}); going on`);
      return undefined;
    }
    return why;
  }
}

function outcomeOf(result: Result): CallOutcome {
  if ("resultType" in result && result.resultType === "input_required") {
    return { result: "input_required" };
  }
  return "isError" in result && result.isError
    ? { result: "error", kind: "refused" }
    : { result: "ok" };
}

function thrown(error: unknown): CallOutcome {
  if (error instanceof BitbucketError) {
    return error.status === undefined
      ? { result: "error", kind: error.kind }
      : { result: "error", kind: error.kind, status: error.status };
  }
  return { result: "error", kind: "tool" };
}

function withheld(tool: string, why: string): CallToolResult {
  return refusal(
    `Cannot return ${tool}'s result: the call ran, but the audit log could not record it (${why}), so its result is withheld (hint: do not repeat a write before checking what it did; the person running the server must fix the audit file)`,
  );
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
