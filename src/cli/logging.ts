/**
 * The logger the command line asks for: `--log-level` and `--log-format`.
 * JSON logs also get the scope each tool call runs in, so the lines a call
 * causes name its tool and request id; text logs load none of that.
 */
import type { CallScope } from "../policy/observed_registration.ts";
import { createLogger, type LogFormat, type Logger, type LogLevel } from "./log.ts";
import { writeErr } from "./output.ts";

/** The logger, and the scope calls run in when lines name their call. */
export interface Logging {
  logger: Logger;
  scope?: CallScope;
}

/** The logging of `--log-level` and `--log-format`. */
export async function startLogging(
  flags: { logLevel: LogLevel; logFormat: LogFormat },
  write: (line: string) => void = writeErr,
): Promise<Logging> {
  if (flags.logFormat === "text") return { logger: createLogger(flags.logLevel, write) };
  const { callContext } = await import("./log_context.ts");
  const context = callContext();
  const logger = createLogger(flags.logLevel, write, { format: "json", context: context.current });
  return { logger, scope: context.scope };
}
