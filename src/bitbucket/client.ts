import type { z } from "zod";
import {
  declaredLength,
  DEFAULT_MAX_RESPONSE_BYTES,
  isHtml,
  MAX_ERROR_BODY_BYTES,
  readAtMost,
} from "./body.ts";
import { BitbucketError, type BitbucketErrorDetail, kindForStatus } from "./errors.ts";
import { describeFetchFailure } from "./fetch_failure.ts";
import {
  DEFAULT_RETRY,
  nextDelay,
  RETRY_STATUSES,
  retryAfterMs,
  type RetryPolicy,
  sleep,
} from "./retry.ts";

/** Query values; `undefined` entries are left out, arrays repeat the name. */
export type Query = Record<string, string | number | boolean | undefined | (string | number)[]>;

/** How the client reaches Bitbucket: fixed for the life of the process. */
export interface BitbucketClientOptions {
  /** Base URL of the Bitbucket server, possibly with a context path (`https://host/bitbucket`). */
  baseUrl: URL;
  /** HTTP access token (or password when `username` is set). */
  token: string;
  /** When set, the token is sent as HTTP Basic auth for this user instead of as a Bearer token. */
  username?: string;
  /** How long one request may take in all (redirects, retries and their waits included), in milliseconds. */
  timeoutMs: number;
  /** The largest response body read (default 8 MiB); a longer one is an error, never read whole. */
  maxResponseBytes?: number;
  /** How failed reads are retried (default {@link DEFAULT_RETRY}); tests shorten the waits. */
  retry?: Partial<RetryPolicy>;
  /** Waits between attempts (default: a timer); tests inject one that records the waits. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Injected for tests; defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** One request to the REST API; `path` is relative to `<base>/rest` and already encoded. */
export interface BitbucketRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

/** A successful answer: the parsed JSON body (or text) and the headers. */
export interface BitbucketResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A raw answer from {@link BitbucketClient.getBytes}: at most the bytes asked for. */
export interface BitbucketBytes {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** False when the body went on beyond the bytes read. */
  complete: boolean;
}

/** Redirects followed for one request; one more is an error (a redirect loop, most likely). */
const MAX_REDIRECTS = 3;

/** One request in flight: where it shows in errors, and the signals that end it. */
interface Flight {
  req: BitbucketRequest;
  shownPath: string;
  /** Aborts at the deadline (`timeoutMs` after the request started). */
  deadline: AbortSignal;
  /** Aborts at the deadline or when the caller cancels. */
  signal: AbortSignal;
}

/**
 * The only way the server talks to Bitbucket: it builds URLs under the
 * configured base, authenticates, applies the timeout, follows redirects only
 * within the base URL, retries reads that failed for a passing reason, caps
 * the bodies it reads, and turns every failure into a {@link BitbucketError}.
 */
export class BitbucketClient {
  readonly #base: URL;
  readonly #restPrefix: string;
  readonly #authorization: string;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #retry: RetryPolicy;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #fetch: typeof fetch;

  constructor(options: BitbucketClientOptions) {
    this.#base = new URL(options.baseUrl.href);
    this.#restPrefix = this.#base.pathname.replace(/\/+$/, "") + "/rest";
    this.#authorization = options.username === undefined
      ? `Bearer ${options.token}`
      : `Basic ${btoa(`${options.username}:${options.token}`)}`;
    this.#timeoutMs = options.timeoutMs;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#sleep = options.sleep ?? sleep;
    this.#fetch = options.fetch ?? fetch;
  }

  /** The origin every request goes to; anything else is refused. */
  get origin(): string {
    return this.#base.origin;
  }

  /** The absolute URL for a REST path, refusing any result outside the configured origin and context path. */
  url(path: string, query?: Query): URL {
    const url = new URL(this.#restPrefix + path, this.#base.origin);
    if (url.origin !== this.#base.origin || !url.pathname.startsWith(this.#restPrefix + "/")) {
      throw new BitbucketError({
        kind: "refused",
        method: "GET",
        path,
        reason: `the request would leave ${this.#base.origin}${this.#restPrefix}`,
      });
    }
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        url.searchParams.append(name, String(item));
      }
    }
    return url;
  }

  /** Sends one request and returns its parsed body; non-2xx answers throw {@link BitbucketError}. */
  async request(req: BitbucketRequest): Promise<BitbucketResponse> {
    return await this.#attempts(req, "application/json", (response, flight) => {
      return this.#answer(response, flight);
    });
  }

  /**
   * GET a path and read at most `maxBytes` of its body as bytes (never more
   * than the response cap), without interpreting them (for raw file content).
   * The rest of a longer body is never downloaded; `complete` says whether the
   * body ended within the limit. Errors are reported exactly as for {@link request}.
   */
  async getBytes(
    path: string,
    maxBytes: number,
    query?: Query,
    signal?: AbortSignal,
  ): Promise<BitbucketBytes> {
    const req: BitbucketRequest = { method: "GET", path, query, signal };
    // Raw content comes in whatever type the file has, so any type is accepted.
    return await this.#attempts(req, "*/*", async (response, flight) => {
      if (!response.ok) throw await this.#statusError(response, flight);
      const limit = Math.min(maxBytes, this.#maxResponseBytes);
      const { bytes, complete } = await this.#read(response, limit, flight);
      return { status: response.status, headers: response.headers, bytes, complete };
    });
  }

  /** GET a path and parse the body with an entity schema. */
  async get<S extends z.ZodType>(
    path: string,
    schema: S,
    query?: Query,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const response = await this.request({ method: "GET", path, query, signal });
    return parseEntity(schema, response.body, "GET", path, response.status);
  }

  /** Send a write (POST/PUT/DELETE) and parse the body with an entity schema. */
  async send<S extends z.ZodType>(
    method: "POST" | "PUT" | "DELETE",
    path: string,
    schema: S,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const response = await this.request({ method, path, body, signal });
    return parseEntity(schema, response.body, method, path, response.status);
  }

  /**
   * Runs a request to the end: sends it (following redirects), hands the
   * final response to `read`, and, for a GET that failed for a passing reason,
   * waits and tries again within the retry policy and the deadline. Writes are
   * sent exactly once: a retried POST could act twice.
   */
  async #attempts<T>(
    req: BitbucketRequest,
    accept: string,
    read: (response: Response, flight: Flight) => Promise<T>,
  ): Promise<T> {
    const url = this.url(req.path, req.query);
    // A timer of our own rather than AbortSignal.timeout: it is cleared as soon as the
    // request ends, so nothing of a finished request waits out the timeout in memory.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("the request timed out", "TimeoutError")),
      this.#timeoutMs,
    );
    const flight: Flight = {
      req,
      shownPath: url.pathname.slice(this.#restPrefix.length) + url.search,
      deadline: deadline.signal,
      signal: req.signal ? AbortSignal.any([req.signal, deadline.signal]) : deadline.signal,
    };
    try {
      return await this.#attemptUntilDone(url, accept, flight, read);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The attempts of {@link #attempts}, within the deadline it set. */
  async #attemptUntilDone<T>(
    url: URL,
    accept: string,
    flight: Flight,
    read: (response: Response, flight: Flight) => Promise<T>,
  ): Promise<T> {
    const { req } = flight;
    const started = Date.now();
    let waited = 0;
    for (let attempt = 1;; attempt++) {
      let failure: BitbucketError;
      try {
        const response = await this.#exchange(url, accept, flight);
        return await read(response, flight);
      } catch (error) {
        if (!(error instanceof BitbucketError)) throw error;
        failure = error.afterAttempts(attempt);
        if (req.method !== "GET" || !error.transient) throw failure;
      }
      const delay = nextDelay(this.#retry, attempt, waited, failure.retryAfterMs);
      if (delay === undefined || Date.now() - started + delay >= this.#timeoutMs) throw failure;
      try {
        await this.#sleep(delay, flight.signal);
      } catch (error) {
        throw this.#transportError(error, flight);
      }
      waited += delay;
    }
  }

  /** Sends one attempt, following redirects within the base URL, and returns the final (non-redirect) response. */
  async #exchange(first: URL, accept: string, flight: Flight): Promise<Response> {
    const { req } = flight;
    const headers: Record<string, string> = {
      Authorization: this.#authorization,
      Accept: accept,
    };
    if (req.method !== "GET") headers["X-Atlassian-Token"] = "no-check";
    if (req.body !== undefined) headers["Content-Type"] = "application/json";
    let url = first;
    for (let hop = 0;; hop++) {
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: req.method,
          headers,
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
          redirect: "manual",
          signal: flight.signal,
        });
      } catch (error) {
        throw this.#transportError(error, flight);
      }
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => {});
        url = this.#redirectTarget(url, response, hop, flight);
        continue;
      }
      return response;
    }
  }

  /**
   * Where a redirect leads, if it may be followed: only to the same origin
   * and under the base path (so the token never goes to another host or
   * another application on the same host), and at most {@link MAX_REDIRECTS} times.
   */
  #redirectTarget(from: URL, response: Response, hop: number, flight: Flight): URL {
    const { req, shownPath } = flight;
    const failure = (kind: "invalid_response" | "refused", reason: string) =>
      new BitbucketError({
        kind,
        method: req.method,
        path: shownPath,
        status: response.status,
        reason,
      });
    const location = response.headers.get("location");
    if (!location) throw failure("invalid_response", "a redirect without a Location header");
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      throw failure("invalid_response", "a redirect to something that is not a URL");
    }
    const basePath = this.#base.pathname.replace(/\/+$/, "") + "/";
    if (target.origin !== this.#base.origin) {
      throw failure(
        "refused",
        `Bitbucket redirected to another origin (${target.origin}), which is not followed so the token stays with ${this.#base.origin}; check BITBUCKET_URL`,
      );
    }
    if (!target.pathname.startsWith(basePath)) {
      throw failure(
        "refused",
        `Bitbucket redirected outside ${this.#base.origin}${basePath} (to ${target.pathname}), which is not followed; check that BITBUCKET_URL includes Bitbucket's context path`,
      );
    }
    if (hop + 1 > MAX_REDIRECTS) {
      throw failure(
        "invalid_response",
        `more than ${MAX_REDIRECTS} redirects in a row (a redirect loop?); check BITBUCKET_URL`,
      );
    }
    return target;
  }

  /** A failure of the connection: the deadline, the caller cancelling, TLS, or the network. */
  #transportError(error: unknown, flight: Flight): BitbucketError {
    const { req, shownPath } = flight;
    if (flight.deadline.aborted) {
      return new BitbucketError({
        kind: "timeout",
        method: req.method,
        path: shownPath,
        reason: `no answer within ${this.#timeoutMs} ms (raise --timeout if Bitbucket is slow)`,
      });
    }
    if (req.signal?.aborted) {
      return new BitbucketError({
        kind: "network",
        method: req.method,
        path: shownPath,
        reason: "cancelled by the client",
      });
    }
    const { reason, transient } = describeFetchFailure(error, this.#base.origin);
    return new BitbucketError({
      kind: "network",
      method: req.method,
      path: shownPath,
      reason,
      transient,
    });
  }

  /** Reads at most `limit` bytes of a body, turning a dropped connection, a timeout or a cancel into an error. */
  async #read(response: Response, limit: number, flight: Flight) {
    try {
      return await readAtMost(response.body, limit);
    } catch (error) {
      throw this.#transportError(error, flight);
    }
  }

  /**
   * A body as text, or undefined when it is longer than `cap`. A body whose
   * length is declared (and not compressed, so the length is what arrives) is
   * read natively, which costs less; any other is read chunk by chunk and
   * abandoned at the cap, so a huge, endless or decompression-bomb body never
   * fills memory.
   */
  async #text(response: Response, cap: number, flight: Flight): Promise<string | undefined> {
    const encoding = response.headers.get("content-encoding");
    if (declaredLength(response.headers) !== undefined && (!encoding || encoding === "identity")) {
      try {
        return await response.text();
      } catch (error) {
        throw this.#transportError(error, flight);
      }
    }
    const { bytes, complete } = await this.#read(response, cap, flight);
    return complete ? new TextDecoder().decode(bytes) : undefined;
  }

  /** The error for a non-2xx answer: its status, and Bitbucket's messages unless the body is an HTML page. */
  async #statusError(response: Response, flight: Flight): Promise<BitbucketError> {
    const { bytes } = await this.#read(response, MAX_ERROR_BODY_BYTES, flight);
    const text = new TextDecoder().decode(bytes);
    const transient = RETRY_STATUSES.has(response.status);
    return new BitbucketError({
      kind: kindForStatus(response.status),
      method: flight.req.method,
      path: flight.shownPath,
      status: response.status,
      details: looksLikeHtml(response, text) ? [] : errorDetails(text),
      transient,
      retryAfterMs: transient ? retryAfterMs(response.headers.get("retry-after")) : undefined,
    });
  }

  /** The body of a final answer, read within the cap and parsed: JSON, text, or null when empty. */
  async #answer(response: Response, flight: Flight): Promise<BitbucketResponse> {
    if (!response.ok) throw await this.#statusError(response, flight);
    const { req: { method }, shownPath: path } = flight;
    const status = response.status;
    const cap = this.#maxResponseBytes;
    const tooLarge = () =>
      new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status,
        reason: `the answer is larger than ${
          formatBytes(cap)
        }, the most this server reads; ask for less (a smaller limit, a narrower path) or raise --max-response-mb`,
      });
    const declared = declaredLength(response.headers);
    if (declared !== undefined && declared > cap) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    const text = await this.#text(response, cap, flight);
    if (text === undefined) throw tooLarge();
    const contentType = response.headers.get("content-type") ?? "";
    if (text.length === 0) return { status, headers: response.headers, body: null };
    if (looksLikeHtml(response, text)) {
      throw new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status,
        reason:
          "expected JSON but got an HTML page (a login, SSO or proxy page?); check that BITBUCKET_URL is the Bitbucket base URL",
      });
    }
    if (!contentType.includes("json")) return { status, headers: response.headers, body: text };
    try {
      return { status, headers: response.headers, body: JSON.parse(text) };
    } catch {
      throw new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status,
        reason: "the body is not valid JSON",
      });
    }
  }
}

/** A byte count as people say it: `8 MiB`, `512 KiB`, `100 bytes`. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Parses a body with an entity schema; a mismatch is reported as an invalid response naming the field. */
export function parseEntity<S extends z.ZodType>(
  schema: S,
  body: unknown,
  method: string,
  path: string,
  status?: number,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  if (body === null) {
    throw new BitbucketError({
      kind: "invalid_response",
      method,
      path,
      status,
      reason:
        "no body where a JSON body was expected; check that BITBUCKET_URL is Bitbucket Data Center itself, not a proxy in front of it",
    });
  }
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "body";
  throw new BitbucketError({
    kind: "invalid_response",
    method,
    path,
    reason: `unexpected response shape at ${where}: ${issue?.message ?? "invalid"}`,
  });
}

/** True when an answer is an HTML page (a login, SSO or proxy page) rather than Bitbucket's JSON. */
function looksLikeHtml(response: Response, text: string): boolean {
  return isHtml(response.headers.get("content-type") ?? "", text);
}

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
