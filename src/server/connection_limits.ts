/**
 * The HTTP mode's connection limits and their defaults, apart from the code
 * that applies them (connections.ts), so the command line can name the
 * defaults without loading that code on the stdio path.
 */

/** How long a connection may take at each wait, and how many may be open at once. */
export interface ConnectionLimits {
  /** From accepting a connection until its first request's headers are read. */
  headerTimeoutMs: number;
  /** On a kept-alive connection, from one answer sent until the next request's headers are read. */
  idleTimeoutMs: number;
  /** From a request's headers until its whole body is read. */
  bodyTimeoutMs: number;
  /** Connections served at once; past it, a connection is answered 503 and closed. */
  maxConnections: number;
}

/** Deadlines a real client never meets (an MCP request is one small JSON body), and a cap that leaves file handles to spare. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  bodyTimeoutMs: 30_000,
  maxConnections: 256,
};
