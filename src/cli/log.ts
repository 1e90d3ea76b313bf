/**
 * Diagnostics on stderr, filtered by `--log-level`, as text lines or, with
 * `--log-format json`, one JSON object per line (time, level, message, and
 * the call's request id and tool, a Bitbucket request's status, when there
 * are). The JSON-RPC channel (stdout) is never written here, and no line ever
 * carries a token, a header or a body.
 */
import { basePath } from "../bitbucket/transport/base_path.ts";
import { writeErr } from "./output.ts";

/** The levels of `--log-level`, most severe first. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level used when `--log-level` is not given. */
export const DEFAULT_LOG_LEVEL: LogLevel = "warn";

/** The formats of `--log-format`. */
export const LOG_FORMATS = ["text", "json"] as const;

/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The format used when `--log-format` is not given. */
export const DEFAULT_LOG_FORMAT: LogFormat = "text";

/** What a JSON line carries besides time, level and message (text lines leave these out). */
export interface LogFields {
  /** The JSON-RPC id of the tool call the line is about. */
  requestId?: string | number;
  tool?: string;
  /** A Bitbucket answer's HTTP status. */
  status?: number;
  method?: string;
  path?: string;
  durationMs?: number;
}

/** Writes a line at a level; lines below the logger's level are dropped. */
export interface Logger {
  readonly level: LogLevel;
  /** Whether a line at `level` would be written: lets callers skip building it. */
  enabled(level: LogLevel): boolean;
  log(level: LogLevel, message: string, fields?: LogFields): void;
  /** A line written whatever the level (what the server serves, at start-up): `info` in JSON. */
  notice(message: string): void;
}

/** How {@link createLogger} writes, and where a JSON line finds the call it is about. */
export interface LogOptions {
  format?: LogFormat;
  /** The call running now (its tool and request id), for JSON lines. */
  context?: () => LogFields | undefined;
}

/**
 * A logger writing to `write` (stderr by default): `bitbucket-mcp: <level>:
 * <message>` lines, or, in the JSON format, `{"time","level","message",…}`
 * with the fields given and the current call's.
 */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = writeErr,
  options: LogOptions = {},
): Logger {
  const limit = LOG_LEVELS.indexOf(level);
  const enabled = (at: LogLevel) => LOG_LEVELS.indexOf(at) <= limit;
  const { context } = options;
  const json = (at: LogLevel, message: string, fields?: LogFields) =>
    write(JSON.stringify({
      time: new Date().toISOString(),
      level: at,
      message,
      ...context?.(),
      ...fields,
    }));
  if (options.format === "json") {
    return {
      level,
      enabled,
      log(at, message, fields) {
        if (enabled(at)) json(at, message, fields);
      },
      notice: (message) => json("info", message),
    };
  }
  return {
    level,
    enabled,
    log(at, message) {
      if (enabled(at)) write(`bitbucket-mcp: ${at}: ${message}`);
    },
    notice: (message) => write(`bitbucket-mcp: ${message}`),
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
    return { text: `${method} ${path}`, fields: { method, path } };
  };
  return async (input, init) => {
    const started = performance.now();
    const elapsed = () => `${Math.round(performance.now() - started)}ms`;
    try {
      const response = await inner(input, init);
      const level = levelForStatus(response.status);
      if (logger.enabled(level)) {
        const line = request(input, init);
        logger.log(level, `${line.text} ${response.status} ${elapsed()}`, {
          ...line.fields,
          status: response.status,
          durationMs: Math.round(performance.now() - started),
        });
      }
      return response;
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      const cancelled = name === "AbortError";
      const line = request(input, init);
      logger.log(
        cancelled ? "info" : "warn",
        `${line.text} ${cancelled ? "cancelled" : `no answer (${name})`} ${elapsed()}`,
        { ...line.fields, durationMs: Math.round(performance.now() - started) },
      );
      throw error;
    }
  };
}

/**
 * The one line a start-up problem prints: JSON when the command line asks for
 * JSON logs (read from `argv` itself, since the problem may be in the flags),
 * else `bitbucket-mcp: <message>`.
 */
export function startupErrorLine(argv: readonly string[], message: string): string {
  const at = argv.lastIndexOf("--log-format");
  const json = argv.includes("--log-format=json") || (at >= 0 && argv[at + 1] === "json");
  return json
    ? JSON.stringify({ time: new Date().toISOString(), level: "error", message })
    : `bitbucket-mcp: ${message}`;
}
