/**
 * The command line: the flags `bitbucket-mcp` takes, its `--help` text, and
 * argv parsed into {@link Flags}, a bad flag or value a startup error.
 */
import { parseArgs } from "node:util";
import { DEFAULT_TIMEOUT_SECONDS, StartupError } from "../config.ts";
import type { Confinement } from "../policy/confinement.ts";
import {
  HTTP_LIMIT_FLAGS,
  type HttpLimits,
  parseConfinement,
  parseHttpLimits,
  parseListenAddress,
  parseSignInFlags,
} from "./flag_values.ts";
import { DEFAULT_CONNECTION_LIMITS } from "../server/connection_limits.ts";
import { DEFAULT_SESSION_LIMITS } from "../server/session_limits.ts";
import type { ListenAddress } from "../server/listen_address.ts";
import { TOOLSET_NAMES } from "../tools/manifest.ts";
import { ALL_SETS, DEFAULT_SET } from "../policy/selection.ts";
import {
  DEFAULT_LOG_FORMAT,
  DEFAULT_LOG_LEVEL,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  type LogLevel,
} from "./log.ts";

/** The parsed command line. */
export interface Flags {
  command: "serve" | "tools" | "check" | "login" | "logout";
  url?: string;
  /** Unsafe writes run without asking the person. */
  yolo: boolean;
  /** Unsafe writes are not listed at all. */
  withholdUnsafe: boolean;
  readOnly: boolean;
  tools?: string[];
  /** The toolsets asked for; `default` when neither --toolsets nor --tools is given. */
  toolsets?: string[];
  exclude?: string[];
  timeoutSeconds?: number;
  /** Largest Bitbucket response body read, in MiB. */
  maxResponseMb?: number;
  json: boolean;
  /** With tools: the words to rank the tools by (`--search`). */
  search?: string;
  /** Serve Streamable HTTP on this address instead of stdio. */
  http?: ListenAddress;
  /** Each HTTP connection's deadlines, the connection cap and the session bounds (HTTP mode). */
  httpLimits: HttpLimits;
  /** Extra host names accepted in Host and Origin headers (HTTP mode). */
  allowHosts?: string[];
  /**
   * The incoming link's client id: with --http, each person signs in from their
   * client; otherwise `login` and a stdio server use the person's session.
   */
  oauthClientId?: string;
  /** The fixed loopback port of the incoming link's redirect URL (sign-in). */
  redirectPort?: number;
  /** The profile of the profiles file to use (`--profile`). */
  profile?: string;
  /** The profiles file (`--config`); absent, the one in the user's config directory. */
  configFile?: string;
  /** With check: check every profile of the profiles file. */
  allProfiles: boolean;
  /** Append one JSON line per tool call to this file. */
  auditFile?: string;
  /** A line that cannot be written refuses the call (default) or only warns. */
  auditFailure: "refuse" | "warn";
  /** The projects and repositories the server may touch (`--project`, `--repo`); absent, all. */
  confinement?: Confinement;
  /** What goes to stderr: error, warn (default), info or debug (every Bitbucket request). */
  logLevel: LogLevel;
  /** How stderr lines are written: text (default) or one JSON object per line. */
  logFormat: LogFormat;
  /** Serve `/metrics` on this address instead of the MCP port (HTTP mode). */
  metricsListen?: ListenAddress;
  help: boolean;
  version: boolean;
}

/** Words laid out in lines of at most `width` characters, each line after the first indented. */
function wrap(words: readonly string[], first: number, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const room = width - (lines.length === 0 ? first : indent.length);
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}

/** The `--toolsets` entry of the help text, naming the catalogue's toolsets. */
const TOOLSETS_HELP = wrap(
  `expose only these toolsets: ${
    TOOLSET_NAMES.join(", ")
  } (safety filter still applies); ${DEFAULT_SET}: the review loop's tools, the default without --tools; ${ALL_SETS}: every tool`
    .split(" "),
  21,
  90,
  " ".repeat(21),
);

/** The help text for `--help`. */
export const USAGE = `bitbucket-mcp: an MCP server for Bitbucket Data Center

Usage:
  bitbucket-mcp [serve] [flags]   serve MCP over stdio (default)
  bitbucket-mcp serve --http [host:]port [flags]
                                  serve MCP over Streamable HTTP at /mcp (stateless)
  bitbucket-mcp tools [--json]    list the tools and whether the flags expose them
  bitbucket-mcp tools --search WORDS
                                  the tools that match, best first, and the flags that
                                  select them
  bitbucket-mcp check [flags]     check the set-up (URL, permission, network, Bitbucket,
                                  token or session, tools), one line per check
  bitbucket-mcp login [flags]     sign in with your Bitbucket account in the browser
                                  (OAuth 2.0, PKCE) and keep the session in the keyring
  bitbucket-mcp logout [flags]    forget the signed-in session

Flags:
  --url URL          Bitbucket base URL (overrides BITBUCKET_URL)
  --yolo             run unsafe writes (merge, decline, approve, ...) without asking;
                     by default each one first asks the person (elicitation)
  --withhold-unsafe  do not list unsafe writes at all (for a client that cannot ask)
  --read-only        expose read-only tools only (wins over every other flag)
  --toolsets a,b     ${TOOLSETS_HELP}
  --tools a,b        expose these tools too (or only these, without --toolsets),
                     whatever their safety; --read-only, --exclude, the policy and
                     the confinement still narrow them
  --exclude c,d      hide these tools (applied last)
  --project KEY,...  confine the server to these projects: other projects are refused
  --repo P/slug,...  confine the server to these repositories (with --project: as well);
                     a left-out project/repo is filled in when only one is allowed
  --timeout SECONDS  per-request timeout, retries included (default ${DEFAULT_TIMEOUT_SECONDS})
  --max-response-mb MIB
                     largest Bitbucket response body read (default 8)
  --json             with tools: machine-readable output
  --search WORDS     with tools: rank the tools by name, title and description
  --http [HOST:]PORT serve Streamable HTTP on this address (host defaults to 127.0.0.1);
                     callers may send their own token as Authorization: Bearer, and
                     narrow their tools (X-MCP-Toolsets, X-MCP-Readonly, /mcp/x/a,b)
  --allow-host a,b   with --http: also accept these names in Host/Origin headers
                     (localhost, 127.0.0.1 and [::1] always are)
  --oauth-client-id ID
                     the incoming link's client id: login, and a stdio server without
                     BITBUCKET_TOKEN, use your session; with --http, each person signs in
  --redirect-port PORT
                     sign in with the redirect URL http://127.0.0.1:PORT/callback (for an
                     incoming link that names that exact URL); default: any free port
  --profile NAME     use this profile of the profiles file (url, token, sign-in)
  --config PATH      the profiles file (default ~/.config/bitbucket-mcp/config.json)
  --all-profiles     with check: check every profile of the profiles file
  --http-header-timeout SECONDS
                     with --http: cut a connection whose first request's headers take
                     longer (default ${DEFAULT_CONNECTION_LIMITS.headerTimeoutMs / 1000})
  --http-idle-timeout SECONDS
                     with --http: cut a kept-alive connection with no request this
                     long (default ${DEFAULT_CONNECTION_LIMITS.idleTimeoutMs / 1000})
  --http-body-timeout SECONDS
                     with --http: cut a connection whose request body takes longer
                     (default ${DEFAULT_CONNECTION_LIMITS.bodyTimeoutMs / 1000})
  --http-max-connections N
                     with --http: connections served at once; more get 503
                     (default ${DEFAULT_CONNECTION_LIMITS.maxConnections})
  --http-max-sessions N
                     with --http: sessions held for 2025-era clients that can be asked
                     to confirm (default ${DEFAULT_SESSION_LIMITS.maxSessions}); past it they are served without one
  --http-session-timeout SECONDS
                     with --http: end a session with no request this long
                     (default ${DEFAULT_SESSION_LIMITS.sessionTimeoutMs / 1000})
  --audit-file PATH  append one JSON line per tool call (tool, arguments, confirmation,
                     outcome, Bitbucket requests) before its result goes back;
                     needs --allow-write=PATH; SIGHUP reopens it (log rotation)
  --audit-failure MODE
                     refuse (default): a call that cannot be recorded is refused;
                     warn: log a warning and go on
  --log-level LEVEL  error, warn (default), info or debug, on stderr; debug logs
                     each Bitbucket request: method, path, status, duration
  --log-format FORMAT
                     text (default) or json: one JSON object per line on stderr
                     (time, level, message, and the request id, tool and status)
  --metrics-listen [HOST:]PORT
                     with --http: serve /metrics (Prometheus) here instead of on the
                     MCP port (host defaults to 127.0.0.1)
  -h, --help         this text
  -V, --version      print the version

Environment:
  BITBUCKET_URL       Bitbucket base URL, e.g. https://bitbucket.example.com
  BITBUCKET_TOKEN     HTTP access token (never accepted as a flag; optional with --http)
  BITBUCKET_USERNAME  optional: send the token as Basic auth for this user
  BITBUCKET_MCP_STATE_KEY
                      optional: the key (32+ bytes) signing confirmation states; give
                      every instance behind a load balancer the same (default: random)
  BITBUCKET_OAUTH_CLIENT_ID
                      optional: as --oauth-client-id
  BITBUCKET_OAUTH_CLIENT_SECRET
                      optional, with --oauth-client-id: the incoming link's secret (login
                      sends it to Bitbucket's token endpoint; --http never sends it)
  BITBUCKET_PROFILE   optional: as --profile
  HOME, XDG_CONFIG_HOME, APPDATA
                      where the profiles file and, without a keyring, the session are
  BITBUCKET_CLIENT_CERT, BITBUCKET_CLIENT_KEY
                      optional, both or neither: PEM files of a client certificate and
                      its key, for a Bitbucket behind a proxy that demands mutual TLS
                      (the files need --allow-read)
`;

/** The commands, in the order --help lists them. */
const COMMANDS: readonly Flags["command"][] = ["serve", "tools", "check", "login", "logout"];

/**
 * How a stray argument is quoted back: a word that looks like a mistyped
 * command is shown; anything else is not, in case it is a pasted secret.
 */
function shown(value: string): string {
  return /^[a-z][a-z-]{0,19}$/.test(value)
    ? JSON.stringify(value)
    : `(${value.length} characters, not shown in case it is a secret)`;
}

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
        "withhold-unsafe": { type: "boolean", default: false },
        "read-only": { type: "boolean", default: false },
        tools: { type: "string" },
        toolsets: { type: "string" },
        exclude: { type: "string" },
        project: { type: "string" },
        repo: { type: "string" },
        timeout: { type: "string" },
        "max-response-mb": { type: "string" },
        json: { type: "boolean", default: false },
        search: { type: "string" },
        http: { type: "string" },
        "allow-host": { type: "string" },
        "oauth-client-id": { type: "string" },
        "redirect-port": { type: "string" },
        profile: { type: "string" },
        config: { type: "string" },
        "all-profiles": { type: "boolean", default: false },
        ...Object.fromEntries(HTTP_LIMIT_FLAGS.map((flag) => [flag, { type: "string" as const }])),
        "audit-file": { type: "string" },
        "audit-failure": { type: "string" },
        "log-level": { type: "string", default: DEFAULT_LOG_LEVEL },
        "log-format": { type: "string", default: DEFAULT_LOG_FORMAT },
        "metrics-listen": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(`${message.split("\n")[0]}: see --help`);
  }
  const { values, positionals } = parsed;
  const command = (positionals[0] ?? "serve") as Flags["command"];
  if (!COMMANDS.includes(command as Flags["command"])) {
    throw new StartupError(
      `unknown command ${shown(command)}: use ${COMMANDS.join(", ")}`,
    );
  }
  const logLevel = LOG_LEVELS.find((level) => level === values["log-level"]);
  if (logLevel === undefined) {
    throw new StartupError(
      `--log-level must be one of ${LOG_LEVELS.join(", ")}, not ${values["log-level"]}`,
    );
  }
  const logFormat = LOG_FORMATS.find((format) => format === values["log-format"]);
  if (logFormat === undefined) {
    throw new StartupError(
      `--log-format must be one of ${LOG_FORMATS.join(", ")}, not ${
        JSON.stringify(values["log-format"])
      }`,
    );
  }
  if (values["metrics-listen"] !== undefined && values.http === undefined) {
    throw new StartupError("--metrics-listen applies to --http only");
  }
  const auditFailure = values["audit-failure"] ?? "refuse";
  if (auditFailure !== "refuse" && auditFailure !== "warn") {
    throw new StartupError(`--audit-failure must be refuse or warn, not ${auditFailure}`);
  }
  if (values["audit-failure"] !== undefined && values["audit-file"] === undefined) {
    throw new StartupError("--audit-failure applies to --audit-file only");
  }
  if (values["audit-file"] === "") throw new StartupError("--audit-file needs a path");
  if (positionals.length > 1) {
    throw new StartupError(`unexpected argument ${shown(positionals[1] ?? "")}: see --help`);
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
  let maxResponseMb: number | undefined;
  if (values["max-response-mb"] !== undefined) {
    maxResponseMb = Number(values["max-response-mb"]);
    if (!Number.isFinite(maxResponseMb) || maxResponseMb <= 0 || maxResponseMb > 1024) {
      throw new StartupError(
        `--max-response-mb must be a number of MiB from 0 to 1024, not ${
          values["max-response-mb"]
        }`,
      );
    }
  }
  if (values.search !== undefined && command !== "tools") {
    throw new StartupError("--search applies to tools only");
  }
  if (values.search !== undefined && values.search.trim() === "") {
    throw new StartupError("--search needs words to look for, e.g. --search 'build status'");
  }
  if (values.http !== undefined && command !== "serve") {
    throw new StartupError("--http applies to serve only");
  }
  if (values["allow-host"] !== undefined && values.http === undefined) {
    throw new StartupError("--allow-host applies to --http only");
  }
  const oauthClientId = values["oauth-client-id"];
  if (oauthClientId !== undefined && !/^[\x21-\x7e]+$/.test(oauthClientId)) {
    throw new StartupError("--oauth-client-id needs the incoming link's client id (no spaces)");
  }
  const sign = parseSignInFlags(command, values);
  const given = values as Record<string, string | boolean | undefined>;
  const httpLimits = parseHttpLimits((flag) => given[flag] as string | undefined);
  if (values.http === undefined && HTTP_LIMIT_FLAGS.some((flag) => given[flag] !== undefined)) {
    throw new StartupError(
      `--${HTTP_LIMIT_FLAGS.find((flag) => given[flag] !== undefined)} applies to --http only`,
    );
  }
  const allowHosts = names(values["allow-host"]);
  const badHost = allowHosts?.find((h) => !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(h));
  if (badHost !== undefined) {
    throw new StartupError(
      `--allow-host takes host names without scheme or port, not ${JSON.stringify(badHost)}`,
    );
  }
  return {
    command,
    url: values.url,
    yolo: values.yolo,
    withholdUnsafe: values["withhold-unsafe"],
    readOnly: values["read-only"],
    tools: names(values.tools),
    // No toolset and no tool named: the review loop's set, which every client's cap takes whole.
    toolsets: names(values.toolsets) ?? (values.tools === undefined ? [DEFAULT_SET] : undefined),
    exclude: names(values.exclude),
    timeoutSeconds,
    maxResponseMb,
    json: values.json,
    search: values.search,
    http: values.http === undefined ? undefined : parseListenAddress(values.http),
    allowHosts,
    oauthClientId,
    ...sign,
    httpLimits,
    auditFile: values["audit-file"],
    auditFailure,
    confinement: parseConfinement(names(values.project), names(values.repo)),
    logLevel,
    logFormat,
    metricsListen: values["metrics-listen"] === undefined
      ? undefined
      : parseListenAddress(values["metrics-listen"], "--metrics-listen"),
    help: values.help,
    version: values.version,
  };
}
