/**
 * What Bitbucket's final answer says: a body read within the size cap, an
 * HTML page told apart from JSON, JSON parsed, an error answer turned into a
 * {@link BitbucketError} with Bitbucket's own messages, and a body checked
 * against its entity schema. Every error names the request and the status.
 */
import type { z } from "../../deps/zod.ts";
import type { HintTable } from "./advice.ts";
import { declaredLength, isHtml, MAX_ERROR_BODY_BYTES, readAtMost } from "./body.ts";
import { clientAuthPage } from "./client_auth.ts";
import {
  BitbucketError,
  type BitbucketErrorDetail,
  type BitbucketErrorInit,
  KIND_ADVICE,
  kindForStatus,
} from "./errors.ts";
import { RETRY_STATUSES, retryAfterMs } from "./retry.ts";
import type { Flight } from "./transport.ts";

/** A successful answer, read: the JSON body (or text, or null when empty) and the headers. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A raw answer: at most the bytes asked for. */
export interface BitbucketBytes {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** False when the body went on beyond the bytes read. */
  complete: boolean;
}

/** Where an answer came from, for naming it in errors. */
export interface AnswerSource {
  method: string;
  path: string;
  status?: number;
}

/** The body of a final answer, read within `cap` and parsed: JSON, text, or null when empty. */
export async function readAnswer(response: Response, flight: Flight, cap: number): Promise<Answer> {
  if (!response.ok) throw await statusError(response, flight);
  const { method, shownPath: path, hints } = flight;
  const { status, headers } = response;
  const failure = (reason: string, more: Pick<BitbucketErrorInit, "advice" | "cause"> = {}) =>
    new BitbucketError({ kind: "invalid_response", method, path, status, reason, ...more });
  const tooLarge = () =>
    failure(
      `the answer is larger than ${
        formatBytes(cap)
      }, the most this server reads; ${hints.raise_response_cap}`,
      { advice: "raise_response_cap" },
    );
  const declared = declaredLength(headers);
  if (declared !== undefined && declared > cap) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const text = await readText(response, cap, flight);
  if (text === undefined) throw tooLarge();
  if (text.length === 0) return { status, headers, body: null };
  if (looksLikeHtml(response, text)) {
    throw failure(
      `expected JSON but got an HTML page (a login, SSO or proxy page?); ${hints.check_not_web_page}`,
      { advice: "check_not_web_page" },
    );
  }
  if (!(headers.get("content-type") ?? "").includes("json")) return { status, headers, body: text };
  try {
    return { status, headers, body: JSON.parse(text) };
  } catch (error) {
    throw failure("the body is not valid JSON", { cause: error });
  }
}

/** At most `limit` bytes of a final answer's body, uninterpreted (raw file content). */
export async function readBytes(
  response: Response,
  flight: Flight,
  limit: number,
): Promise<BitbucketBytes> {
  if (!response.ok) throw await statusError(response, flight);
  const { bytes, complete } = await readAtMostOf(response, limit, flight);
  return { status: response.status, headers: response.headers, bytes, complete };
}

/** Checks a body against an entity schema; a mismatch is an invalid response naming the field. */
export function parseEntityOf<S extends z.ZodType>(
  schema: S,
  body: unknown,
  source: AnswerSource,
  hints: HintTable,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const failure = (reason: string, advice?: "check_not_proxy") =>
    new BitbucketError({
      kind: "invalid_response",
      ...source,
      reason,
      advice,
      cause: result.error,
    });
  if (body === null) {
    throw failure(
      `no body where a JSON body was expected; ${hints.check_not_proxy}`,
      "check_not_proxy",
    );
  }
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "body";
  throw failure(`unexpected response shape at ${where}: ${issue?.message ?? "invalid"}`);
}

/** The error for a non-2xx answer: its status, and Bitbucket's messages unless the body is an HTML page. */
async function statusError(response: Response, flight: Flight): Promise<BitbucketError> {
  const { bytes } = await readAtMostOf(response, MAX_ERROR_BODY_BYTES, flight);
  const text = new TextDecoder().decode(bytes);
  const { status } = response;
  const kind = kindForStatus(status);
  // A proxy's page about our client certificate says more than the status does.
  const advice = clientAuthPage(status, text) ?? KIND_ADVICE[kind];
  const transient = RETRY_STATUSES.has(status);
  return new BitbucketError({
    kind,
    method: flight.method,
    path: flight.shownPath,
    status,
    details: looksLikeHtml(response, text) ? [] : errorDetails(text),
    transient,
    retryAfterMs: transient ? retryAfterMs(response.headers.get("retry-after")) : undefined,
    advice,
    hint: advice === undefined ? undefined : flight.hints[advice],
  });
}

/** Reads at most `limit` bytes of a body, turning a dropped connection, a timeout or a cancel into an error. */
async function readAtMostOf(response: Response, limit: number, flight: Flight) {
  try {
    return await readAtMost(response.body, limit);
  } catch (error) {
    throw flight.broken(error);
  }
}

/**
 * A body as text, or undefined when it is longer than `cap`. A body whose
 * length is declared (and not compressed, so the length is what arrives) is
 * read natively, which costs less; any other is read chunk by chunk and
 * abandoned at the cap, so a huge, endless or decompression-bomb body never
 * fills memory.
 */
async function readText(response: Response, cap: number, flight: Flight) {
  const encoding = response.headers.get("content-encoding");
  if (declaredLength(response.headers) !== undefined && (!encoding || encoding === "identity")) {
    try {
      return await response.text();
    } catch (error) {
      throw flight.broken(error);
    }
  }
  const { bytes, complete } = await readAtMostOf(response, cap, flight);
  return complete ? new TextDecoder().decode(bytes) : undefined;
}

/** A byte count as people say it: `8 MiB`, `512 KiB`, `100 bytes`. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** True when an answer is an HTML page (a login, SSO or proxy page) rather than Bitbucket's JSON. */
function looksLikeHtml(response: Response, text: string): boolean {
  return isHtml(response.headers.get("content-type") ?? "", text);
}

/** Bitbucket's `{"errors": [...]}` (or a lone `{"message"}`) from an error body; none when it is not JSON. */
function errorDetails(text: string): BitbucketErrorDetail[] {
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(parsed.errors)) {
      return parsed.errors.filter((e): e is BitbucketErrorDetail =>
        typeof e === "object" && e !== null
      );
    }
    if (typeof (parsed as { message?: unknown }).message === "string") {
      return [parsed as BitbucketErrorDetail];
    }
  } catch {
    // not JSON: the status alone must do
  }
  return [];
}
