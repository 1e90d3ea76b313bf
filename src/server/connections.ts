/**
 * The HTTP mode's connections, each with deadlines and all of them capped:
 * a client that opens a socket and sends nothing, trickles its headers or
 * its body, or holds an idle keep-alive connection forever is cut off, and
 * one process never holds more than a set number of connections, so file
 * handles cannot run out. `Deno.serve` offers none of this (no header, idle or
 * body timeout, no hook per connection), so connections are accepted here and
 * each is handed to the server behind `Deno.serve`, one connection at a time
 * (`serveHttpOnConnection`, which Deno keeps for its `node:http`): the same
 * native HTTP path and speed, with a signal per connection that closes it
 * between requests. A response being sent (an SSE stream included) is never
 * cut: the idle deadline runs only between requests.
 */

import type { ConnectionLimits } from "./connection_limits.ts";
import { DEFAULT_CONNECTION_LIMITS } from "./connection_limits.ts";
import { concatBytes } from "../bitbucket/transport/bytes.ts";

export { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from "./connection_limits.ts";

/**
 * What serves one request: its answer, given the request, when the answer
 * was sent (or failed), and the body, already read whole (the request's own
 * body is then used up); `body` is undefined for a request without one.
 */
export type ConnectionHandler = (
  request: Request,
  completed: Promise<void>,
  body: Uint8Array | undefined,
) => Promise<Response>;

/**
 * Deno's HTTP server for one accepted connection: `signal` ends it gracefully
 * (at once when no request is under way, else once the answer is sent).
 */
export type ServeConnection = (
  conn: Deno.Conn,
  signal: AbortSignal,
  handler: (request: Request, info: Deno.ServeHandlerInfo) => Promise<Response>,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => { readonly finished: Promise<void> };

/**
 * `serveHttpOnConnection`, read at run time from Deno's internals (it has the
 * signature above since Deno 1.35 and serves its `node:http`); undefined on a
 * runtime without it, where the caller falls back to `Deno.serve` and says so.
 */
export function serveConnectionFunction(): ServeConnection | undefined {
  const deno = Deno as unknown as Record<symbol, Record<string, unknown> | undefined>;
  const internal = (Deno as unknown as { internal?: symbol }).internal;
  const found = internal === undefined ? undefined : deno[internal]?.serveHttpOnConnection;
  return typeof found === "function" && found.length === 5 ? found as ServeConnection : undefined;
}

/** The answer a connection over the cap gets before it is closed. */
const BUSY = new TextEncoder().encode(
  "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\nRetry-After: 1\r\n\r\n",
);

/** A live set of connections: how many are open, and a way to close them all. */
export interface ConnectionPool {
  /** Open connections now. */
  readonly open: number;
  /** Stops accepting, closes every connection, and resolves when all have ended. */
  close(): Promise<void>;
  /** Resolves once the listener has stopped and every connection has ended. */
  readonly finished: Promise<void>;
}

/** `timeoutMs` from now, `onTimeout` runs, unless the returned function is called first. */
function deadline(timeoutMs: number, onTimeout: () => void): () => void {
  const timer = setTimeout(onTimeout, timeoutMs);
  return () => clearTimeout(timer);
}

/** The most body bytes read for one request; a longer body gets 413 unread. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/** What reading a request's body came to. */
type BodyRead = { body: Uint8Array | undefined } | { refused: Response } | { expired: true };

/**
 * The request's body, read whole under the body deadline (reading it here,
 * once, costs less than handing on a stream that is watched to its end):
 * nothing for a request without a body, 413 past {@link MAX_REQUEST_BODY_BYTES},
 * and `expired` when the deadline passed first (the caller closes the connection).
 */
async function readBody(request: Request, timeoutMs: number): Promise<BodyRead> {
  if (request.body === null) return { body: undefined };
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_REQUEST_BODY_BYTES) {
    return { refused: new Response(null, { status: 413, headers: { Connection: "close" } }) };
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let expired = false;
  const stop = deadline(timeoutMs, () => {
    expired = true;
    reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_REQUEST_BODY_BYTES) {
        return { refused: new Response(null, { status: 413, headers: { Connection: "close" } }) };
      }
      chunks.push(value);
    }
  } catch {
    return expired ? { expired: true } : { body: undefined };
  } finally {
    stop();
  }
  if (expired) return { expired: true };
  return { body: chunks.length === 1 ? chunks[0] : concatBytes(chunks, size) };
}

/** The answer to a request whose body did not arrive in time; the connection closes after it. */
function bodyTooSlow(): Response {
  return new Response(null, { status: 408, headers: { Connection: "close" } });
}

/** One served connection as the pool sees it. */
interface Served {
  /** Ends the connection: now if no request is under way, else once its answer is sent. */
  close(): void;
  /** Resolves once the connection has ended. */
  finished: Promise<void>;
}

/**
 * Serves one connection's requests under its deadlines: the header deadline
 * from accept until the first request, the idle deadline from each answer
 * sent until the next request, and the body deadline per request.
 */
function serveConnection(
  conn: Deno.Conn,
  serve: ServeConnection,
  handler: ConnectionHandler,
  limits: ConnectionLimits,
): Served {
  const stop = new AbortController();
  const close = () => stop.abort();
  let waiting = deadline(limits.headerTimeoutMs, close);
  // Requests being answered now: the idle deadline starts when the last is sent.
  let inFlight = 0;
  const answered = () => {
    if (--inFlight === 0 && !stop.signal.aborted) {
      waiting = deadline(limits.idleTimeoutMs, close);
    }
  };
  const onRequest = async (request: Request, info: Deno.ServeHandlerInfo) => {
    waiting();
    inFlight++;
    info.completed.then(answered, answered);
    const read = await readBody(request, limits.bodyTimeoutMs);
    if ("expired" in read) {
      close();
      return bodyTooSlow();
    }
    if ("refused" in read) return read.refused;
    return await handler(request, info.completed, read.body);
  };
  const onError = () => new Response(null, { status: 500 });
  try {
    const { finished } = serve(conn, stop.signal, onRequest, onError, () => {});
    return { close, finished: finished.catch(() => {}).finally(() => waiting()) };
  } catch {
    waiting();
    closeQuietly(conn);
    return { close, finished: Promise.resolve() };
  }
}

/**
 * Accepts connections from `listener` and serves each under `limits` until
 * the pool is closed. A connection past `maxConnections` is answered 503
 * (with `Retry-After`) and closed at once, so a flood of idle sockets costs a
 * handle only for as long as its header deadline, and a health check gets
 * through as soon as one of them is cut.
 */
export function serveConnections(
  listener: Deno.Listener,
  serve: ServeConnection,
  handler: ConnectionHandler,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): ConnectionPool {
  const live = new Set<Served>();
  let stopped = false;
  const accepting = (async () => {
    for (;;) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch {
        return; // the listener was closed
      }
      if (stopped || live.size >= limits.maxConnections) {
        conn.write(BUSY).catch(() => {}).finally(() => closeQuietly(conn));
        continue;
      }
      // Answers go out as written: Nagle's algorithm would hold a streamed answer's last
      // segment back for the client's delayed ACK (about 40 ms a request).
      if ("setNoDelay" in conn) (conn as Deno.TcpConn).setNoDelay(true);
      const served = serveConnection(conn, serve, handler, limits);
      live.add(served);
      served.finished.then(() => live.delete(served));
    }
  })();
  const finished = (async () => {
    await accepting;
    while (live.size > 0) await Promise.all([...live].map((served) => served.finished));
  })();
  return {
    get open() {
      return live.size;
    },
    close() {
      if (!stopped) {
        stopped = true;
        closeQuietly(listener);
        // Idle connections go now; one with an answer under way closes once it is sent.
        for (const served of live) served.close();
      }
      return finished;
    },
    finished,
  };
}

/** Closes `resource`, which the other side may have closed already. */
function closeQuietly(resource: { close(): void }): void {
  try {
    resource.close();
  } catch {
    // already closed
  }
}
