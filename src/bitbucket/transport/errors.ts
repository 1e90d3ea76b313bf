/**
 * The one error type for everything that goes wrong between us and Bitbucket.
 * `kind` is a closed vocabulary so callers can branch on it; the message is
 * written for a model to act on: the failed request, then details after a colon.
 */
import { type Advice, NEUTRAL_HINTS } from "./advice.ts";
import { cleanText } from "../text/untrusted_text.ts";
import { quotedId } from "../text/visible_id.ts";

/** What went wrong, in a closed vocabulary; {@link kindForStatus} maps HTTP statuses onto it. */
export type BitbucketErrorKind =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "server"
  | "timeout"
  | "network"
  | "invalid_response"
  | "refused";

/** One entry of Bitbucket's `{"errors": [...]}` body. */
export interface BitbucketErrorDetail {
  message?: string;
  exceptionName?: string;
  context?: string;
  /** Extra fields some exceptions carry (e.g. the versions of a PullRequestOutOfDateException, or vetoes). */
  [key: string]: unknown;
}

/** What went wrong, as Bitbucket or the network reported it. */
export interface BitbucketErrorInit {
  kind: BitbucketErrorKind;
  method: string;
  path: string;
  status?: number;
  details?: BitbucketErrorDetail[];
  reason?: string;
  /** The same request may succeed a moment later (429, 502-504, a dropped connection). */
  transient?: boolean;
  /** How long Bitbucket asked to wait before trying again (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** How many times the request was sent, when more than once. */
  attempts?: number;
  /** The fix, when the program embedding the client words it (its flags and variables); see {@link Advice}. */
  advice?: Advice;
  /** What to do, shown as `(hint: ...)`, in place of the hint for the kind. */
  hint?: string;
  /** What the caller was doing (see {@link BitbucketError.during}): the message then starts `Cannot <action>: `. */
  action?: string;
  /** The error this one reports (a fetch failure, an abort, a JSON or schema parse error, an earlier BitbucketError). */
  cause?: unknown;
}

/** A failed Bitbucket request; thrown by the client and turned into an `isError` tool result by the SDK. */
export class BitbucketError extends Error {
  readonly kind: BitbucketErrorKind;
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  readonly details: BitbucketErrorDetail[];
  /** The same request may succeed a moment later: reads are retried on these. */
  readonly transient: boolean;
  /** How long Bitbucket asked to wait before trying again, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** The fix, as a key for the embedding program to branch on; its words are already in the message. */
  readonly advice: Advice | undefined;
  readonly #init: BitbucketErrorInit;

  constructor(init: BitbucketErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "BitbucketError";
    this.kind = init.kind;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.details = init.details ?? [];
    this.transient = init.transient ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.advice = init.advice;
    this.#init = init;
  }

  /** The same failure, saying the request was sent `attempts` times. */
  afterAttempts(attempts: number): BitbucketError {
    return attempts > 1 ? new BitbucketError({ ...this.#init, attempts }) : this;
  }

  /**
   * The same failure (kind, status, details and all) said of what the caller
   * was doing: `Cannot <action>: <this message>`, with this error as its cause.
   * `hint`, when given, is the fix as that caller knows it (a 409 on a file
   * edit means the file changed), in place of the generic hint for the kind.
   */
  during(action: string, hint?: string): BitbucketError {
    const outer = this.#init.action === undefined
      ? action
      : `${action}: Cannot ${this.#init.action}`;
    const init = { ...this.#init, action: outer, cause: this };
    return new BitbucketError(hint === undefined ? init : { ...init, hint });
  }
}

/** The closed mapping from an HTTP status to a kind: the only place statuses are interpreted. */
export function kindForStatus(status: number): BitbucketErrorKind {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 429:
      return "rate_limited";
    default:
      return status >= 500 ? "server" : "bad_request";
  }
}

/** Kinds whose fix names the embedding program's configuration: their hint comes from its words. */
export const KIND_ADVICE: Partial<Record<BitbucketErrorKind, Advice>> = {
  unauthorized: "renew_token",
};

/** The neutral words for a kind's advice, for an error built without the program's words. */
function neutralHint(kind: BitbucketErrorKind): string | undefined {
  const advice = KIND_ADVICE[kind];
  return advice === undefined ? undefined : NEUTRAL_HINTS[advice];
}

/** What to do about each kind, where the fix needs no word of the embedding program's. */
const HINTS: Partial<Record<BitbucketErrorKind, string>> = {
  forbidden:
    "the token lacks the permission this needs; use a token with the required project or repository permission",
  not_found: "check the project key, repository slug, ref or id",
  conflict:
    "the resource changed or already exists; read it again and retry with the current version",
  rate_limited: "Bitbucket is rate limiting this token; wait a moment before retrying",
  server:
    "Bitbucket, or a proxy in front of it, failed on its side; try again later, and if it persists its administrator will find the cause in Bitbucket's logs",
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Hints for particular exceptions, which say more than the hint for their status. */
const EXCEPTION_HINTS: [RegExp, string][] = [
  [
    /OutOfDateException$/,
    "someone changed it after the version used was read; read it again for its current version, check the change still makes sense, and retry",
  ],
  [
    /MergeVetoedException$/,
    "each veto is a merge check to satisfy first (approvals, builds, tasks); deal with them, then retry",
  ],
  [
    /InvalidPullRequestReviewersException$/,
    "leave the refused reviewers out of reviewers and retry (find_users finds the right usernames)",
  ],
  [
    /CommentDeletionException$/,
    "a comment with replies cannot be deleted; edit its text instead",
  ],
];

/** A refused reviewer as text: the name as sent, then Bitbucket's reason. */
function reviewerErrorText(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { context, message } = error as Record<string, unknown>;
  if (typeof context !== "string") {
    return typeof message === "string" ? cleanText(message) : undefined;
  }
  return typeof message === "string"
    ? `${quotedId(context)} (${cleanText(message)})`
    : quotedId(context);
}

/** A merge check's veto as text: its summary, then its detail when that adds anything. */
function vetoText(veto: unknown): string | undefined {
  if (typeof veto !== "object" || veto === null) return undefined;
  const { summaryMessage, detailedMessage } = veto as Record<string, unknown>;
  if (typeof summaryMessage !== "string") return undefined;
  const summary = cleanText(summaryMessage);
  if (typeof detailedMessage !== "string") return summary;
  const detailed = cleanText(detailedMessage);
  return detailed !== summary ? `${summary} (${detailed})` : summary;
}

/**
 * One error entry as text: Bitbucket's message, then the extra fields some
 * exceptions carry (the versions of an out-of-date update, a merge's vetoes);
 * the messages cleaned, since they can quote what others wrote (a merge
 * check's words, a branch name).
 */
function detailText(detail: BitbucketErrorDetail): string | undefined {
  const message = typeof detail.message === "string" ? cleanText(detail.message) : "";
  const parts = message ? [message] : [];
  const { expectedVersion, currentVersion } = detail;
  if (typeof expectedVersion === "number" && typeof currentVersion === "number") {
    parts.push(
      `version ${expectedVersion} was given, but it has changed and is now at version ${currentVersion}`,
    );
  }
  const vetoes = Array.isArray(detail.vetoes)
    ? detail.vetoes.map(vetoText).filter((v): v is string => v !== undefined)
    : [];
  const reviewers = Array.isArray(detail.reviewerErrors)
    ? detail.reviewerErrors.map(reviewerErrorText).filter((r): r is string => r !== undefined)
    : [];
  if (reviewers.length > 0) parts.push(`reviewers refused: ${reviewers.join(", ")}`);
  if (vetoes.length > 0) {
    parts.push(
      `vetoed by ${vetoes.length} merge check(s): ${
        vetoes.map((v, i) => `${i + 1}) ${v}`).join("; ")
      }`,
    );
  }
  return parts.length > 0 ? parts.join(": ") : undefined;
}

function describe(init: BitbucketErrorInit): string {
  const request = `${init.method} ${init.path}`;
  const parts: string[] = [];
  if (init.status !== undefined) {
    parts.push(`${init.status} ${STATUS_TEXT[init.status] ?? ""}`.trim());
  }
  const details = init.details ?? [];
  const messages = details.map(detailText).filter((m): m is string => !!m);
  if (messages.length > 0) parts.push(messages.join("; "));
  if (init.reason) parts.push(init.reason);
  if (init.retryAfterMs !== undefined) {
    parts.push(`Bitbucket asked to wait ${Math.ceil(init.retryAfterMs / 1000)} s (Retry-After)`);
  }
  if (init.attempts !== undefined && init.attempts > 1) parts.push(`tried ${init.attempts} times`);
  const exceptions = details.map((d) => d.exceptionName ?? "");
  const hint = EXCEPTION_HINTS.find(([pattern]) => exceptions.some((e) => pattern.test(e)))?.[1] ??
    init.hint ?? HINTS[init.kind] ?? neutralHint(init.kind);
  const text = `${request} failed: ${parts.join(": ")}`;
  const described = hint ? `${text} (hint: ${hint})` : text;
  return init.action === undefined ? described : `Cannot ${init.action}: ${described}`;
}

/**
 * A `.catch` handler saying what was asked of a failed Bitbucket request
 * (see {@link BitbucketError.during}), with the fix the caller knows for some
 * kinds (`{ conflict: "..." }`); any other error passes as it is.
 */
export function rethrowDuring(
  action: string,
  hints: Partial<Record<BitbucketErrorKind, string>> = {},
): (error: unknown) => never {
  return (error) => {
    throw error instanceof BitbucketError ? error.during(action, hints[error.kind]) : error;
  };
}
