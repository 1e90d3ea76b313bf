/**
 * The HTTP mode's connections, each with deadlines and all of them capped:
 * a client that opens a socket and sends nothing, trickles its headers or
 * its body, or holds an idle keep-alive connection forever is cut off, and
 * one process never holds more than a set number of connections, so file
 * handles cannot run out. `Deno.serve` offers none of this (no header, idle or
 * body timeout, no hook per connection), so connections are accepted here and
 * each is served with `Deno.serveHttp`: one request at a time, with a timer on
 * every wait. A response being sent (an SSE stream included) is never cut:
 * the idle deadline runs only between requests.
 */

import type { ConnectionLimits } from "./connection_limits.ts";
import { DEFAULT_CONNECTION_LIMITS } from "./connection_limits.ts";

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

/** One request of a connection served by `Deno.serveHttp`. */
interface RequestEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): Promise<void>;
}

/** A connection served by `Deno.serveHttp`. */
interface HttpConn {
  nextRequest(): Promise<RequestEvent | null>;
  close(): void;
}

type ServeHttp = (conn: Deno.Conn) => HttpConn;

/**
 * `Deno.serveHttp`, read at run time: Deno 2 keeps it (its `node:http` is
 * built on it) but leaves it out of its types. Undefined on a runtime
 * without it, where the caller falls back to `Deno.serve` and says so.
 */
export function serveHttpFunction(): ServeHttp | undefined {
  const found = (Deno as unknown as Record<string, unknown>)["serveHttp"];
  return typeof found === "function" ? found.bind(Deno) as ServeHttp : undefined;
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
  if (chunks.length === 1) return { body: chunks[0] };
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body };
}

/** One served connection as the pool sees it. */
interface Served {
  /** An answer is being made or sent: a graceful stop waits for it. */
  busy: boolean;
  /** Closes the connection now. */
  close(): void;
}

/** Serves one connection's requests in turn, each wait under its deadline. */
async function serveConnection(
  http: HttpConn,
  served: Served,
  stopping: () => boolean,
  handler: ConnectionHandler,
  limits: ConnectionLimits,
): Promise<void> {
  let waiting = deadline(limits.headerTimeoutMs, served.close);
  try {
    for (;;) {
      const event = await http.nextRequest().catch(() => null);
      waiting();
      if (event === null || stopping()) break;
      served.busy = true;
      const read = await readBody(event.request, limits.bodyTimeoutMs);
      if ("expired" in read) break;
      let delivered!: () => void;
      let failed!: (error: unknown) => void;
      const completed = new Promise<void>((resolve, reject) => {
        delivered = resolve;
        failed = reject;
      });
      completed.catch(() => {});
      const answer = "refused" in read
        ? Promise.resolve(read.refused)
        : handler(event.request, completed, read.body);
      const ok = await event.respondWith(answer).then(() => true, (error) => {
        failed(error);
        return false;
      });
      if (ok) delivered();
      served.busy = false;
      if (!ok || stopping()) break;
      waiting = deadline(limits.idleTimeoutMs, served.close);
    }
  } finally {
    waiting();
    served.close();
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
  serveHttp: ServeHttp,
  handler: ConnectionHandler,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): ConnectionPool {
  const live = new Map<Served, Promise<void>>();
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
      const http = serveHttp(conn);
      let closed = false;
      const served: Served = {
        busy: false,
        close: () => {
          if (closed) return;
          closed = true;
          closeQuietly(http);
        },
      };
      live.set(
        served,
        serveConnection(http, served, () => stopped, handler, limits).catch(() => {})
          .finally(() => live.delete(served)),
      );
    }
  })();
  const finished = (async () => {
    await accepting;
    while (live.size > 0) await Promise.all(live.values());
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
        for (const served of live.keys()) if (!served.busy) served.close();
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
