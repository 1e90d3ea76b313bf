/**
 * Sessions for 2025-era HTTP clients that can be asked. Stateless HTTP cannot
 * ask a 2025-era client anything: the question (`elicitation/create`) goes
 * out on the call's response stream and the answer comes back in a request
 * of its own, which only the server instance that asked can match. So a
 * client whose `initialize` declares form elicitation gets an
 * `Mcp-Session-Id` and a server instance kept for it (the SDK's sessionful
 * transport); 2026-07-28 clients (whose retry carries the answer) and
 * clients that cannot ask stay stateless.
 *
 * Bounded: at most {@link SessionLimits.maxSessions} at once (past it a client
 * is served statelessly, and told why if it is ever refused a question), and
 * one with no request for {@link SessionLimits.sessionTimeoutMs} is ended.
 * A session belongs to the token that opened it: a request for it with
 * another token, or for a session this instance does not hold (another
 * instance's, an ended one), is answered 404, so the client initializes
 * again; it never reaches another person's session. Each request's own token
 * still serves its calls.
 */
import {
  type AuthInfo,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "../deps/mcp.ts";
import type { SessionLimits } from "./session_limits.ts";

/** What a session id of this server starts with; the rest is 32 lower-case hex digits. */
export const SESSION_PREFIX = "bbmcp.s1.";

const SESSION_ID = /^bbmcp\.s1\.[0-9a-f]{32}$/;

/** The header the 2025 transport carries the session id in. */
export const SESSION_HEADER = "mcp-session-id";

/** Whether `value` (a request's `Mcp-Session-Id`) names a session of this server, held or not. */
export function isSessionId(value: string | null | undefined): value is string {
  return typeof value === "string" && SESSION_ID.test(value);
}

/** Who a session belongs to: a digest of the token (and whose it is), never the token itself. */
export async function identityOf(auth: AuthInfo): Promise<string> {
  const bytes = new TextEncoder().encode(`${auth.clientId}\n${auth.token}`);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One session: its transport and server, whose it is, and when it was last used. */
interface Held {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  identity: string;
  lastUsed: number;
  /** Requests whose answers are still being written: a session is not idle while one is. */
  inFlight: number;
}

/** The 404 of a session this instance does not hold, as the spec asks (the client re-initializes). */
function notFound(): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32001, message: "Session not found: initialize again" },
      id: null,
    },
    { status: 404 },
  );
}

/** Options of {@link Sessions}: the bounds, the clock and where notices go. */
export interface SessionsOptions {
  limits: SessionLimits;
  /** The clock idleness is read against (tests pass their own). */
  now?: () => number;
  /** Told when a session is refused for the cap, and when idle ones are ended. */
  notice?: (message: string) => void;
  /** Sweep for idle sessions on a timer (off in tests that sweep by hand). */
  sweepEvery?: number;
}

/** The sessions this instance holds. */
export class Sessions {
  readonly limits: SessionLimits;
  readonly #held = new Map<string, Held>();
  readonly #now: () => number;
  readonly #notice: (message: string) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #full = false;

  constructor(options: SessionsOptions) {
    this.limits = options.limits;
    this.#now = options.now ?? Date.now;
    this.#notice = options.notice ?? (() => {});
    const every = options.sweepEvery ?? Math.min(this.limits.sessionTimeoutMs, 60_000);
    if (every > 0) {
      const timer = setInterval(() => this.sweep(), every);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  /** How many sessions are held now. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Serves an `initialize` in a new session on `server`; undefined, with
   * nothing opened, when the cap is reached even after idle ones are ended
   * (the caller serves it statelessly).
   */
  async open(
    request: Request,
    body: unknown,
    auth: AuthInfo,
    server: McpServer,
  ): Promise<Response | undefined> {
    if (this.#held.size >= this.limits.maxSessions) this.sweep();
    if (this.#held.size >= this.limits.maxSessions) {
      if (!this.#full) {
        this.#notice(
          `${this.#held.size} sessions held, the most --http-max-sessions allows: a 2025-era client that can be asked is served without one (it cannot confirm unsafe writes) until one ends`,
        );
      }
      this.#full = true;
      return undefined;
    }
    const id = SESSION_PREFIX + hex(16);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessionclosed: () => void this.#end(id),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo: auth, parsedBody: body });
    if (transport.sessionId !== id || response.status >= 400) {
      await server.close();
      return response;
    }
    const held: Held = {
      transport,
      server,
      identity: await identityOf(auth),
      lastUsed: this.#now(),
      inFlight: 1,
    };
    this.#held.set(id, held);
    return this.#tracked(held, response, true);
  }

  /** Serves a request of session `id`: 404 unless this instance holds it for this token. */
  async serve(id: string, request: Request, body: unknown, auth: AuthInfo): Promise<Response> {
    const held = this.#held.get(id);
    if (held === undefined || held.identity !== await identityOf(auth)) return notFound();
    held.lastUsed = this.#now();
    // A GET is the client's standing stream: it may stay open while the session idles.
    const counts = request.method === "POST";
    if (counts) held.inFlight++;
    let response: Response;
    try {
      response = await held.transport.handleRequest(request, { authInfo: auth, parsedBody: body });
    } catch (error) {
      if (counts) this.#settle(held);
      throw error;
    }
    return this.#tracked(held, response, counts);
  }

  /** Ends every session idle for the timeout, and says how many; a session answering is never idle. */
  sweep(): number {
    const now = this.#now();
    let ended = 0;
    for (const [id, held] of this.#held) {
      if (held.inFlight > 0 || now - held.lastUsed < this.limits.sessionTimeoutMs) continue;
      void this.#end(id);
      ended++;
    }
    if (ended > 0) {
      this.#notice(`ended ${ended} idle session(s); ${this.#held.size} held`);
    }
    return ended;
  }

  /** Ends every session and stops sweeping (the server is shutting down). */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.all([...this.#held.keys()].map((id) => this.#end(id)));
  }

  /** Forgets session `id` and closes its server (ending its open streams). */
  async #end(id: string): Promise<void> {
    const held = this.#held.get(id);
    if (held === undefined) return;
    this.#held.delete(id);
    if (this.#held.size < this.limits.maxSessions) this.#full = false;
    await held.server.close().catch(() => {});
  }

  /** A request of `held` finished: it is used now, and one fewer is in flight. */
  #settle(held: Held): void {
    held.inFlight = Math.max(0, held.inFlight - 1);
    held.lastUsed = this.#now();
  }

  /** `response`, its body settling `held` once written or abandoned (when `counts`). */
  #tracked(held: Held, response: Response, counts: boolean): Response {
    if (!counts) return response;
    if (response.body === null) {
      this.#settle(held);
      return response;
    }
    return afterBody(response, () => this.#settle(held));
  }
}

/** `response` whose body calls `done` once, when it ends, fails or is cancelled. */
function afterBody(response: Response, done: () => void): Response {
  const reader = response.body!.getReader();
  let settled = false;
  const finish = () => {
    if (!settled) {
      settled = true;
      done();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: end } = await reader.read();
        if (end) {
          finish();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** `n` random bytes as lower-case hex. */
function hex(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether the JSON-RPC `body` is an `initialize` from a client that can be
 * asked by form: it declares elicitation (form mode, or none named, the rule
 * from before modes) at a revision that has it.
 */
export function opensSession(body: unknown, elicitationSince: string): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const { method, params } = body as {
    method?: unknown;
    params?: { protocolVersion?: unknown; capabilities?: { elicitation?: unknown } };
  };
  if (method !== "initialize") return false;
  const version = params?.protocolVersion;
  if (typeof version !== "string" || version < elicitationSince) return false;
  const elicitation = params?.capabilities?.elicitation as
    | { form?: unknown; url?: unknown }
    | undefined;
  return typeof elicitation === "object" && elicitation !== null &&
    (elicitation.form !== undefined || elicitation.url === undefined);
}
