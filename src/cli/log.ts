/**
 * Diagnostics on stderr, filtered by `--log-level`. The JSON-RPC channel
 * (stdout) is never written here, and no line ever carries a token, a header
 * or a body.
 */
import { basePath } from "../bitbucket/base_path.ts";
import { writeErr } from "./output.ts";

/** The levels of `--log-level`, most severe first. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level used when `--log-level` is not given. */
export const DEFAULT_LOG_LEVEL: LogLevel = "warn";

/** Writes a line at a level; lines below the logger's level are dropped. */
export interface Logger {
  readonly level: LogLevel;
  /** Whether a line at `level` would be written: lets callers skip building it. */
  enabled(level: LogLevel): boolean;
  log(level: LogLevel, message: string): void;
}

/** A logger writing `bitbucket-mcp: <level>: <message>` lines to `write` (stderr by default). */
export function createLogger(level: LogLevel, write: (line: string) => void = writeErr): Logger {
  const limit = LOG_LEVELS.indexOf(level);
  const enabled = (at: LogLevel) => LOG_LEVELS.indexOf(at) <= limit;
  return {
    level,
    enabled,
    log(at, message) {
      if (enabled(at)) write(`bitbucket-mcp: ${at}: ${message}`);
    },
  };
}

/** The level a finished Bitbucket exchange is logged at: failures louder than successes. */
function levelForStatus(status: number): LogLevel {
  if (status >= 500) return "warn";
  if (status >= 400) return "info";
  return "debug";
}

/**
 * Wraps `fetch` so each request to Bitbucket logs its method, its path
 * relative to `base` (with the query), its status and how long the answer's
 * headers took: at debug for successes, info for 4xx, warn for 5xx and for
 * requests that got no answer. Never a header, a body or the token.
 */
export function loggingFetch(base: URL, logger: Logger, inner: typeof fetch = fetch): typeof fetch {
  const prefix = basePath(base);
  // The request line is built only for a line that will be written: at the
  // default level a successful request costs no URL parsing or formatting.
  const request = (input: RequestInfo | URL, init: RequestInit | undefined) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const path =
      (url.pathname.startsWith(prefix + "/") ? url.pathname.slice(prefix.length) : url.pathname) +
      url.search;
    return `${method} ${path}`;
  };
  return async (input, init) => {
    const started = performance.now();
    const elapsed = () => `${Math.round(performance.now() - started)}ms`;
    try {
      const response = await inner(input, init);
      const level = levelForStatus(response.status);
      if (logger.enabled(level)) {
        logger.log(level, `${request(input, init)} ${response.status} ${elapsed()}`);
      }
      return response;
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      const cancelled = name === "AbortError";
      logger.log(
        cancelled ? "info" : "warn",
        `${request(input, init)} ${cancelled ? "cancelled" : `no answer (${name})`} ${elapsed()}`,
      );
      throw error;
    }
  };
}
