import type { z } from "zod";
import { BitbucketError, type BitbucketErrorDetail, kindForStatus } from "./errors.ts";

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
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
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

const MAX_REDIRECTS = 3;

/**
 * The only way the server talks to Bitbucket: it builds URLs under the
 * configured base, authenticates, applies the timeout, follows redirects only
 * within the same origin, and turns every failure into a {@link BitbucketError}.
 */
export class BitbucketClient {
  readonly #base: URL;
  readonly #restPrefix: string;
  readonly #authorization: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: BitbucketClientOptions) {
    this.#base = new URL(options.baseUrl.href);
    this.#restPrefix = this.#base.pathname.replace(/\/+$/, "") + "/rest";
    this.#authorization = options.username === undefined
      ? `Bearer ${options.token}`
      : `Basic ${btoa(`${options.username}:${options.token}`)}`;
    this.#timeoutMs = options.timeoutMs;
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
    const { response, shownPath } = await this.#exchange(req);
    return await this.#answer(req.method, shownPath, response);
  }

  /**
   * GET a path and read at most `maxBytes` of its body as bytes, without
   * interpreting them (for raw file content). The rest of a longer body is
   * never downloaded; `complete` says whether the body ended within the limit.
   * Errors are reported exactly as for {@link request}.
   */
  async getBytes(
    path: string,
    maxBytes: number,
    query?: Query,
    signal?: AbortSignal,
  ): Promise<BitbucketBytes> {
    const req: BitbucketRequest = { method: "GET", path, query, signal };
    // Raw content comes in whatever type the file has, so any type is accepted.
    const { response, shownPath, timeout } = await this.#exchange(req, "*/*");
    if (!response.ok) {
      throw this.#statusError("GET", shownPath, response, await response.text());
    }
    const chunks: Uint8Array[] = [];
    let length = 0;
    let complete = true;
    const reader = response.body?.getReader();
    try {
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        const room = maxBytes - length;
        if (value.length > room) {
          chunks.push(value.subarray(0, room));
          length += room;
          complete = false;
          await reader.cancel();
          break;
        }
        chunks.push(value);
        length += value.length;
      }
    } catch (error) {
      throw this.#transportError("GET", shownPath, error, timeout, signal);
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return { status: response.status, headers: response.headers, bytes, complete };
  }

  /** Sends a request, following same-origin redirects, and returns the final (non-redirect) response. */
  async #exchange(
    req: BitbucketRequest,
    accept = "application/json",
  ): Promise<{ response: Response; shownPath: string; timeout: AbortSignal }> {
    let url = this.url(req.path, req.query);
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      Authorization: this.#authorization,
      Accept: accept,
    };
    if (req.method !== "GET") headers["X-Atlassian-Token"] = "no-check";
    if (req.body !== undefined) headers["Content-Type"] = "application/json";
    const shownPath = url.pathname.slice(this.#restPrefix.length) + url.search;

    for (let hop = 0;; hop++) {
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: req.method,
          headers,
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
          redirect: "manual",
          signal,
        });
      } catch (error) {
        throw this.#transportError(req.method, shownPath, error, timeout, req.signal);
      }
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        url = this.#redirectTarget(req.method, shownPath, url, response, hop);
        continue;
      }
      return { response, shownPath, timeout };
    }
  }

  /** GET a path and parse the body with an entity schema. */
  async get<S extends z.ZodType>(
    path: string,
    schema: S,
    query?: Query,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const response = await this.request({ method: "GET", path, query, signal });
    return parseEntity(schema, response.body, "GET", path);
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
    return parseEntity(schema, response.body, method, path);
  }

  #redirectTarget(method: string, path: string, from: URL, response: Response, hop: number): URL {
    const location = response.headers.get("location");
    if (!location) {
      throw new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status: response.status,
        reason: "a redirect without a Location header",
      });
    }
    const target = new URL(location, from);
    if (target.origin !== this.#base.origin) {
      throw new BitbucketError({
        kind: "refused",
        method,
        path,
        status: response.status,
        reason:
          `Bitbucket redirected to another origin (${target.origin}), which is not followed; check BITBUCKET_URL`,
      });
    }
    if (hop + 1 >= MAX_REDIRECTS) {
      throw new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status: response.status,
        reason: `more than ${MAX_REDIRECTS} redirects`,
      });
    }
    return target;
  }

  #transportError(
    method: string,
    path: string,
    error: unknown,
    timeout: AbortSignal,
    caller: AbortSignal | undefined,
  ): BitbucketError {
    if (timeout.aborted) {
      return new BitbucketError({
        kind: "timeout",
        method,
        path,
        reason: `no answer within ${this.#timeoutMs} ms (raise --timeout if Bitbucket is slow)`,
      });
    }
    if (caller?.aborted) {
      return new BitbucketError({
        kind: "network",
        method,
        path,
        reason: "cancelled by the client",
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new BitbucketError({
      kind: "network",
      method,
      path,
      reason: `cannot reach ${this.#base.origin}: ${message}`,
    });
  }

  /** The error for a non-2xx answer: its status, and Bitbucket's messages unless the body is an HTML page. */
  #statusError(method: string, path: string, response: Response, text: string): BitbucketError {
    return new BitbucketError({
      kind: kindForStatus(response.status),
      method,
      path,
      status: response.status,
      details: looksLikeHtml(response, text) ? [] : errorDetails(text),
    });
  }

  async #answer(method: string, path: string, response: Response): Promise<BitbucketResponse> {
    const text = await response.text();
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.ok) throw this.#statusError(method, path, response, text);
    if (text.length === 0) {
      return { status: response.status, headers: response.headers, body: null };
    }
    if (looksLikeHtml(response, text)) {
      throw new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status: response.status,
        reason:
          "expected JSON but got an HTML page (a login, SSO or proxy page?); check that BITBUCKET_URL is the Bitbucket base URL",
      });
    }
    if (!contentType.includes("json")) {
      return { status: response.status, headers: response.headers, body: text };
    }
    try {
      return { status: response.status, headers: response.headers, body: JSON.parse(text) };
    } catch {
      throw new BitbucketError({
        kind: "invalid_response",
        method,
        path,
        status: response.status,
        reason: "the body is not valid JSON",
      });
    }
  }
}

/** Parses a body with an entity schema; a mismatch is reported as an invalid response naming the field. */
export function parseEntity<S extends z.ZodType>(
  schema: S,
  body: unknown,
  method: string,
  path: string,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "body";
  throw new BitbucketError({
    kind: "invalid_response",
    method,
    path,
    reason: `unexpected response shape at ${where}: ${issue?.message ?? "invalid"}`,
  });
}

/** True when a body is an HTML page (a login, SSO or proxy page) rather than Bitbucket's JSON. */
function looksLikeHtml(response: Response, text: string): boolean {
  const contentType = response.headers.get("content-type") ?? "";
  return contentType.includes("text/html") || /^\s*<(!doctype|html)/i.test(text);
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
