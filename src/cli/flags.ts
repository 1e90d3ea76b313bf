import { parseArgs } from "node:util";
import { StartupError } from "../config.ts";

/** The parsed command line. */
export interface Flags {
  command: "serve" | "tools";
  url?: string;
  yolo: boolean;
  readOnly: boolean;
  tools?: string[];
  exclude?: string[];
  timeoutSeconds?: number;
  json: boolean;
  help: boolean;
  version: boolean;
}

/** The help text for `--help`. */
export const USAGE = `bitbucket-mcp: an MCP server for Bitbucket Data Center

Usage:
  bitbucket-mcp [serve] [flags]   serve MCP over stdio (default)
  bitbucket-mcp tools [--json]    list the tools and whether the flags expose them

Flags:
  --url URL          Bitbucket base URL (overrides BITBUCKET_URL)
  --yolo             also expose unsafe write tools (merge, decline, approve, ...)
  --read-only        expose read-only tools only (wins over every other flag)
  --tools a,b        expose exactly these tools (overrides the safety filter)
  --exclude c,d      hide these tools (applied last)
  --timeout SECONDS  per-request timeout (default 30)
  --json             with tools: machine-readable output
  -h, --help         this text
  -V, --version      print the version

Environment:
  BITBUCKET_URL       Bitbucket base URL, e.g. https://bitbucket.example.com
  BITBUCKET_TOKEN     HTTP access token (never accepted as a flag)
  BITBUCKET_USERNAME  optional: send the token as Basic auth for this user
`;

function names(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((n) => n.trim()).filter((n) => n.length > 0);
}

/** Parses argv; unknown flags and bad values are startup errors. */
export function parseFlags(argv: readonly string[]): Flags {
  if (argv.some((a) => a === "--token" || a.startsWith("--token="))) {
    throw new StartupError(
      "--token is not accepted (flags show in process lists): set BITBUCKET_TOKEN in the environment",
    );
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: "string" },
        yolo: { type: "boolean", default: false },
        "read-only": { type: "boolean", default: false },
        tools: { type: "string" },
        exclude: { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(`${message.split("\n")[0]}: see --help`);
  }
  const { values, positionals } = parsed;
  const command = positionals[0] ?? "serve";
  if (command !== "serve" && command !== "tools") {
    throw new StartupError(`unknown command ${JSON.stringify(command)}: use serve or tools`);
  }
  if (positionals.length > 1) {
    throw new StartupError(`unexpected argument ${JSON.stringify(positionals[1])}: see --help`);
  }
  let timeoutSeconds: number | undefined;
  if (values.timeout !== undefined) {
    timeoutSeconds = Number(values.timeout);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > 600) {
      throw new StartupError(
        `--timeout must be a number of seconds from 0 to 600, not ${values.timeout}`,
      );
    }
  }
  return {
    command,
    url: values.url,
    yolo: values.yolo,
    readOnly: values["read-only"],
    tools: names(values.tools),
    exclude: names(values.exclude),
    timeoutSeconds,
    json: values.json,
    help: values.help,
    version: values.version,
  };
}
