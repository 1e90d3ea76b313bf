/**
 * How a request travels to Bitbucket and back, whatever it asks: its URL must
 * stay under the base URL, it is authenticated, redirects are followed only as
 * {@link redirectTarget} allows, reads that failed for a passing reason are
 * tried again within the retry policy, and one deadline bounds all of it.
 * What the final answer says is for `response.ts` to read.
 */
import type { HintTable } from "./advice.ts";
import type { ClientCertificate } from "./client_auth.ts";
import type { MultipartBody } from "./multipart.ts";
import { restPrefix } from "./base_path.ts";
import { BitbucketError } from "./errors.ts";
import { describeFetchFailure } from "./fetch_failure.ts";
import { redirectTarget } from "./redirect.ts";
import { nextDelay, type RetryPolicy } from "./retry.ts";

/** The methods the server sends; only GET is ever retried. */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Query values; `undefined` entries are left out, arrays repeat the name. */
export type Query = Record<string, string | number | boolean | undefined | (string | number)[]>;

/** The fixed policy of a {@link Transport}: where, as whom, and within what limits. */
export interface TransportOptions {
  baseUrl: URL;
  /** The `Authorization` header value; held here alone. */
  authorization: string;
  /** How long one request may take in all (redirects, retries and their waits included), in milliseconds. */
  timeoutMs: number;
  retry: RetryPolicy;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  fetch: typeof fetch;
  /** The words for each fix, as the embedding program gives them. */
  hints: HintTable;
  /** The client certificate each request presents (mutual TLS); none by default. */
  clientCertificate?: ClientCertificate;
  /** Told each time a read is about to be tried again (the metrics count retries). */
  onRetry?: () => void;
}

/** One request to the REST API; `path` is relative to `<base>/rest` and already encoded. */
export interface Outgoing {
  method: Method;
  path: string;
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as `multipart/form-data`, with its own `Content-Type` (the boundary). */
  form?: MultipartBody;
  signal?: AbortSignal;
  /** The `Accept` header: JSON for the API, anything for raw file content. */
  accept: string;
}

/** A request in flight, as the reader of its answer sees it: for naming it in errors. */
export interface Flight {
  readonly method: Method;
  /** The path as errors show it: relative to `<base>/rest`, with the query. */
  readonly shownPath: string;
  readonly hints: HintTable;
  /** The error for a connection that failed (the deadline, a cancel, TLS, the network), also mid-body. */
  broken(error: unknown): BitbucketError;
}

/** Reads a final (non-redirect) answer; a {@link BitbucketError} it throws may be retried. */
export type AnswerReader<T> = (response: Response, flight: Flight) => Promise<T>;

/** Sends requests to one Bitbucket, as one user, under one policy. */
export class Transport {
  /** The origin every request goes to; anything else is refused. */
  readonly origin: string;
  readonly #base: URL;
  readonly #restPrefix: string;
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#base = new URL(options.baseUrl.href);
    this.origin = this.#base.origin;
    this.#restPrefix = restPrefix(this.#base);
    this.#options = options;
  }

  /** The absolute URL for a REST path, refusing any result outside the configured origin and context path. */
  url(path: string, query?: Query, method: Method = "GET"): URL {
    const url = new URL(this.#restPrefix + path, this.origin);
    if (url.origin !== this.origin || !url.pathname.startsWith(this.#restPrefix + "/")) {
      throw new BitbucketError({
        kind: "refused",
        method,
        path,
        reason: `the request would leave ${this.origin}${this.#restPrefix}`,
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

  /**
   * Runs a request to the end: sends it (following redirects), hands the
   * final response to `read`, and, for a GET that failed for a passing reason,
   * waits and tries again within the retry policy and the deadline. Writes are
   * sent exactly once: a retried POST could act twice.
   */
  async send<T>(out: Outgoing, read: AnswerReader<T>): Promise<T> {
    const url = this.url(out.path, out.query, out.method);
    // A timer of our own rather than AbortSignal.timeout: it is cleared as soon as the
    // request ends, so nothing of a finished request waits out the timeout in memory.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("the request timed out", "TimeoutError")),
      this.#options.timeoutMs,
    );
    const signal = out.signal ? AbortSignal.any([out.signal, deadline.signal]) : deadline.signal;
    const flight: Flight = {
      method: out.method,
      shownPath: url.pathname.slice(this.#restPrefix.length) + url.search,
      hints: this.#options.hints,
      broken: (error) => this.#broken(error, flight, deadline.signal, out.signal),
    };
    try {
      return await this.#attempts(url, out, signal, flight, read);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The attempts of {@link send}, within the deadline it set. */
  async #attempts<T>(
    url: URL,
    out: Outgoing,
    signal: AbortSignal,
    flight: Flight,
    read: AnswerReader<T>,
  ): Promise<T> {
    const { retry, timeoutMs, sleep } = this.#options;
    const started = Date.now();
    let waited = 0;
    for (let attempt = 1;; attempt++) {
      let failure: BitbucketError;
      try {
        const response = await this.#exchange(url, out, signal, flight);
        return await read(response, flight);
      } catch (error) {
        if (!(error instanceof BitbucketError)) throw error;
        failure = error.afterAttempts(attempt);
        if (out.method !== "GET" || !error.transient) throw failure;
      }
      const delay = nextDelay(retry, attempt, waited, failure.retryAfterMs);
      if (delay === undefined || Date.now() - started + delay >= timeoutMs) throw failure;
      this.#options.onRetry?.();
      try {
        await sleep(delay, signal);
      } catch (error) {
        throw flight.broken(error);
      }
      waited += delay;
    }
  }

  /** Sends one attempt, following redirects within the base URL, and returns the final (non-redirect) response. */
  async #exchange(first: URL, out: Outgoing, signal: AbortSignal, flight: Flight) {
    const headers: Record<string, string> = {
      Authorization: this.#options.authorization,
      Accept: out.accept,
    };
    if (out.method !== "GET") headers["X-Atlassian-Token"] = "no-check";
    if (out.body !== undefined) headers["Content-Type"] = "application/json";
    if (out.form !== undefined) headers["Content-Type"] = out.form.contentType;
    const body = out.form?.bytes ?? (out.body === undefined ? undefined : JSON.stringify(out.body));
    const httpClient = this.#options.clientCertificate?.httpClient;
    let url = first;
    for (let hop = 0;; hop++) {
      let response: Response;
      try {
        response = await this.#options.fetch(url, {
          method: out.method,
          headers,
          body,
          redirect: "manual",
          signal,
          ...(httpClient === undefined ? {} : { client: httpClient }),
        });
      } catch (error) {
        throw flight.broken(error);
      }
      if (response.status < 300 || response.status >= 400) return response;
      await response.body?.cancel().catch(() => {});
      const target = redirectTarget(this.#base, url, response.headers.get("location"), hop);
      if (!(target instanceof URL)) {
        const { kind, reason, advice } = target;
        throw new BitbucketError({
          kind,
          method: out.method,
          path: flight.shownPath,
          status: response.status,
          reason: advice === undefined ? reason : `${reason}; ${flight.hints[advice]}`,
          advice,
        });
      }
      url = target;
    }
  }

  /** A failure of the connection: the deadline, the caller cancelling, TLS, or the network. */
  #broken(
    error: unknown,
    flight: Flight,
    deadline: AbortSignal,
    cancel: AbortSignal | undefined,
  ): BitbucketError {
    const { method, shownPath: path, hints } = flight;
    if (deadline.aborted) {
      return new BitbucketError({
        kind: "timeout",
        method,
        path,
        reason: `no answer within ${this.#options.timeoutMs} ms (${hints.raise_timeout})`,
        advice: "raise_timeout",
        cause: error,
      });
    }
    if (cancel?.aborted) {
      return new BitbucketError({
        kind: "network",
        method,
        path,
        reason: "cancelled by the client",
        cause: error,
      });
    }
    const presented = this.#options.clientCertificate?.subject;
    const failure = describeFetchFailure(error, this.origin, hints, presented);
    return new BitbucketError({ kind: "network", method, path, ...failure, cause: error });
  }
}
