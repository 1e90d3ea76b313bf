/**
 * The only way the server talks to Bitbucket: one request API whose answers
 * are parsed with an entity schema, and one for raw bytes. How a request
 * travels (origin, redirects, retries, timeout) is `transport.ts`; how its
 * answer is read (size cap, HTML, JSON, error bodies, schema) is `response.ts`.
 */
import type { z } from "../../deps/zod.ts";
import type { ClientCertificate } from "./client_auth.ts";
import type { MultipartBody } from "./multipart.ts";
import { type Hints, type HintTable, hintTable } from "./advice.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./body.ts";
import { type BitbucketBytes, parseEntityOf, readAnswer, readBytes } from "./response.ts";
import { DEFAULT_RETRY, type RetryPolicy, sleep } from "./retry.ts";
import { type Method, type Query, Transport } from "./transport.ts";
import { type Exchange, observingFetch } from "./exchanges.ts";
import {
  APPLICATION_PROPERTIES_PATH,
  ServerFacts,
  type ServerVersion,
  versionOfProperties,
} from "./server_version.ts";

export type { Query } from "./transport.ts";

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
  /** The words for the fixes errors suggest, naming the program's flags and variables; neutral by default. */
  hints?: Hints;
  /** The client certificate each request presents, for Bitbucket behind a mutual-TLS proxy. */
  clientCertificate?: ClientCertificate;
  /** Told each time a read is about to be tried again (the metrics count retries). */
  onRetry?: () => void;
  /**
   * What is known of the server (its version), shared by every client of it;
   * a client made without one starts its own, which the clients it derives share.
   */
  serverFacts?: ServerFacts;
}

/** One request to the REST API, and the schema its answer is parsed with. */
export interface RequestOptions<S extends z.ZodType> {
  /** Default `"GET"`; only GET is ever retried. */
  method?: Method;
  /** Relative to `<base>/rest`, already encoded (see `apiPath`). */
  path: string;
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /**
   * Sent as `multipart/form-data` instead of a JSON body (never both), for the
   * few resources that take a form (a file edit), each field's bytes as given.
   * Like every write it carries `X-Atlassian-Token`, and like every write it
   * is never retried.
   */
  form?: MultipartBody;
  /** The entity schema the answer is parsed with (`z.unknown()` for an answer without a body). */
  schema: S;
  signal?: AbortSignal;
}

/** A parsed answer and its headers. */
export interface Reply<T> {
  body: T;
  headers: Headers;
  status: number;
}

/** What {@link BitbucketClient.getBytes} asks for: at most `maxBytes` of a GET's body. */
export interface BytesOptions {
  path: string;
  maxBytes: number;
  query?: Query;
  signal?: AbortSignal;
}

/**
 * A Bitbucket server as one user sees it. Every failure is a `BitbucketError`
 * whose message names the request and, for an answer, its status.
 */
export class BitbucketClient {
  /** The origin every request goes to; anything else is refused. */
  readonly origin: string;
  readonly #transport: Transport;
  readonly #hints: HintTable;
  readonly #maxResponseBytes: number;
  readonly #options: BitbucketClientOptions;
  /** Cancels every request this client makes that brings no signal of its own (see {@link withSignal}). */
  #signal: AbortSignal | undefined;

  constructor(options: BitbucketClientOptions) {
    this.#options = { ...options, serverFacts: options.serverFacts ?? new ServerFacts() };
    this.#hints = hintTable(options.hints);
    this.#transport = new Transport({
      baseUrl: options.baseUrl,
      authorization: options.username === undefined
        ? `Bearer ${options.token}`
        : `Basic ${btoa(`${options.username}:${options.token}`)}`,
      timeoutMs: options.timeoutMs,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      sleep: options.sleep ?? sleep,
      fetch: options.fetch ?? fetch,
      hints: this.#hints,
      clientCertificate: options.clientCertificate,
      onRetry: options.onRetry,
    });
    this.origin = this.#transport.origin;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /**
   * The same server and user, through a client that passes each request it
   * makes to `observe` (one tool call's audit record); this client is unchanged.
   */
  observed(observe: (exchange: Exchange) => void): BitbucketClient {
    const inner = this.#options.fetch ?? fetch;
    const observing = new BitbucketClient({
      ...this.#options,
      fetch: observingFetch(this.#options.baseUrl, inner, observe),
    });
    observing.#signal = this.#signal;
    return observing;
  }

  /**
   * The same server and user, through a client whose every request is
   * cancelled by `signal` (one tool call's), so the code making requests for
   * that call never passes it along; this client is unchanged.
   */
  withSignal(signal: AbortSignal): BitbucketClient {
    const bound = new BitbucketClient(this.#options);
    bound.#signal = signal;
    return bound;
  }

  /** The absolute URL for a REST path, refusing any result outside the configured origin and context path. */
  url(path: string, query?: Query): URL {
    return this.#transport.url(path, query);
  }

  /** Sends one request and parses its answer with `schema`; a non-2xx answer or a mismatch throws. */
  async request<S extends z.ZodType>(options: RequestOptions<S>): Promise<Reply<z.infer<S>>> {
    const { method = "GET", path, query, body, form, schema } = options;
    const signal = options.signal ?? this.#signal;
    if (body !== undefined && form !== undefined) {
      throw new TypeError(`${method} ${path}: a request sends a JSON body or a form, not both`);
    }
    const out = { method, path, query, body, form, signal, accept: "application/json" };
    return await this.#transport.send(out, async (response, flight) => {
      const answer = await readAnswer(response, flight, this.#maxResponseBytes);
      // A body that does not fit its schema is named by the path alone: the query does not shape it.
      const source = { method, path, status: answer.status };
      const parsed = parseEntityOf(schema, answer.body, source, this.#hints);
      return { body: parsed, headers: answer.headers, status: answer.status };
    });
  }

  /**
   * The server's version, read from `application-properties` the first time
   * any client sharing these server facts asks; undefined when the server does
   * not say (the caller then cannot tell what it lacks). A failed read throws
   * and is tried again next time.
   */
  serverVersion(): Promise<ServerVersion | undefined> {
    return this.#options.serverFacts!.version(async () => {
      const raw = await this.getBytes({ path: APPLICATION_PROPERTIES_PATH, maxBytes: 64 * 1024 });
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(raw.bytes));
      } catch {
        return undefined;
      }
      return versionOfProperties(body);
    });
  }

  /**
   * GET a path and read at most `maxBytes` of its body as bytes (never more
   * than the response cap), without interpreting them (for raw file content).
   * The rest of a longer body is never downloaded; `complete` says whether the
   * body ended within the limit. Errors are reported exactly as for {@link request}.
   */
  async getBytes(options: BytesOptions): Promise<BitbucketBytes> {
    const limit = Math.min(options.maxBytes, this.#maxResponseBytes);
    // Raw content comes in whatever type the file has, so any type is accepted.
    const signal = options.signal ?? this.#signal;
    const out = { ...options, signal, method: "GET" as const, accept: "*/*" };
    return await this.#transport.send(out, (response, flight) => {
      return readBytes(response, flight, limit);
    });
  }
}
