/**
 * The program: the command line parsed and checked, then `tools`, `check`, or
 * serving over stdio or Streamable HTTP with the policy the flags set.
 */
import { serveStdio } from "../deps/mcp.ts";
import { BitbucketClient } from "../bitbucket/transport/client.ts";
import {
  checkListenPermission,
  checkNetPermission,
  checkWritePermission,
  type EnvReader,
  processEnv,
  readConfig,
  StartupError,
  withDefaultUrl,
} from "../config.ts";
import { createServerFactory } from "../server/factory.ts";
import { collectWhenIdle } from "../server/idle_collector.ts";
import { formatHostPort, type ListenAddress } from "../server/listen_address.ts";
import { selectTools, SET_KEYWORDS, unknownNames } from "../policy/selection.ts";
import { Confirmations } from "../policy/confirmation.ts";
import type { CallPolicy } from "../policy/call_policy.ts";
import { type AuditLog, openAuditFile } from "../policy/audit.ts";
import {
  defaultPolicyPath,
  policyInstructions,
  type PolicyState,
  readPolicy,
  refusalOf,
} from "../policy/admin_policy.ts";
import { narrowByPolicy } from "../policy/admin_narrowing.ts";
import type { ToolEntry } from "../tools/kit/define.ts";
import { MANIFEST_TOOLS, TOOLSET_NAMES } from "../tools/manifest.ts";
import { VERSION } from "../version.ts";
import { type Flags, parseFlags, USAGE } from "./flags.ts";
import { ALLOW_HOST_HINT, CLI_HINTS } from "./hints.ts";
import { type Logger, loggingFetch, startupErrorLine } from "./log.ts";
import { startLogging } from "./logging.ts";
import type { CallScope } from "../policy/observed_registration.ts";
import { writeErr, writeOut } from "./output.ts";
import { clientIdOf, hintsFor, oauthSettings, oauthStartLine } from "./oauth_setup.ts";
import { StdioLineTransport } from "../server/stdio_transport.ts";
import { withClientCertificate } from "./client_cert_check.ts";
import { applyProfile } from "./profiles.ts";

/** What an entry point may fix at build time. */
export interface RunOptions {
  /** The Bitbucket URL used when neither --url nor BITBUCKET_URL gives one (a compiled binary's). */
  bakedUrl?: string;
  /**
   * Where the administrator's policy file is: fixed at build time (a compiled
   * binary's, or a test's), never by a flag or variable; else the system's.
   */
  policyPath?: string;
}

/**
 * Runs the command line; resolves to the exit status. Serving resolves only
 * once stdio closes, or, with --http, once SIGINT/SIGTERM has stopped the server.
 */
export async function run(argv: readonly string[], options: RunOptions = {}): Promise<number> {
  try {
    const asked = parseFlags(argv);
    if (asked.help) {
      writeOut(USAGE);
      return 0;
    }
    if (asked.version) {
      writeOut(`bitbucket-mcp ${VERSION}`);
      return 0;
    }
    // The administrator's policy, read once; the flags can only narrow it.
    const admin = await readPolicy(options.policyPath ?? defaultPolicyPath());
    const { flags, notes } = narrowByPolicy(asked, admin);
    // Serving starts from the tools' listings: the catalogue itself (every tool's zod schemas)
    // loads on the first call, or here for the commands that show it.
    const unknownSets = unknownNames([...TOOLSET_NAMES, ...SET_KEYWORDS], flags.toolsets ?? []);
    if (unknownSets.length > 0) {
      throw new StartupError(
        `unknown toolset ${unknownSets.join(", ")}: the toolsets are ${
          [...TOOLSET_NAMES, ...SET_KEYWORDS].join(", ")
        }`,
      );
    }
    const unknown = unknownNames(
      MANIFEST_TOOLS.map((t) => t.name),
      [...flags.tools ?? [], ...flags.exclude ?? []],
    );
    if (unknown.length > 0) {
      throw new StartupError(
        `unknown tool ${unknown.join(", ")}: run 'bitbucket-mcp tools' to see the names`,
      );
    }
    if (flags.command === "tools") {
      const [{ toolSearch, toolsListing }, { CATALOGUE }] = await Promise.all([
        import("./tools_command.ts"),
        import("../tools/catalogue.ts"),
      ]);
      writeOut(
        flags.search === undefined
          ? toolsListing(CATALOGUE, flags, flags.json)
          : toolSearch(CATALOGUE, flags, flags.search, flags.json),
      );
      return 0;
    }
    const { logger, scope } = await startLogging(flags);
    if (flags.allProfiles) {
      const { checkAllProfiles } = await import("./check_profiles.ts");
      return await checkAllProfiles(flags, processEnv, logger, admin);
    }
    const { flags: chosen, env } = await applyProfile(
      flags,
      withDefaultUrl(processEnv, options.bakedUrl),
    );
    if (chosen.command === "check") {
      const { formatCheckLine, runChecks } = await import("./check.ts");
      const passed = await runChecks(
        { flags: chosen, env, logger, policy: admin },
        (line) => writeOut(formatCheckLine(line)),
      );
      return passed ? 0 : 1;
    }
    if (chosen.command === "login" || chosen.command === "logout") {
      const { login, logout } = await import("./login.ts");
      return chosen.command === "login"
        ? await login(chosen, env, logger)
        : await logout(chosen, env, logger);
    }
    const refusal = refusalOf(admin);
    if (refusal !== undefined) throw new StartupError(refusal);
    for (const note of notes) logger.log("warn", note);
    if (chosen.http) return await serveOverHttp(chosen, chosen.http, env, logger, admin, scope);
    return await serve(chosen, env, logger, admin, scope);
  } catch (error) {
    if (error instanceof StartupError) {
      writeErr(startupErrorLine(argv, error.message));
      return 2;
    }
    throw error;
  }
}

/**
 * What the agent may do unasked (`--yolo`), and the key confirmation states
 * are signed with: BITBUCKET_MCP_STATE_KEY when set (instances behind a load
 * balancer share it), else a random one made now.
 */
function callPolicy(
  flags: Flags,
  env: EnvReader,
  audit: AuditLog | undefined,
  admin: PolicyState,
): CallPolicy {
  const key = env("BITBUCKET_MCP_STATE_KEY") || undefined;
  if (key !== undefined && new TextEncoder().encode(key).length < 32) {
    throw new StartupError(
      "BITBUCKET_MCP_STATE_KEY is too short: use at least 32 bytes, e.g. the output of `openssl rand -hex 32`",
    );
  }
  return {
    unsafeWrites: flags.yolo,
    confirmations: new Confirmations({ key }),
    audit,
    confinement: flags.confinement,
    adminNote: policyInstructions(admin),
  };
}

/**
 * The audit log of `--audit-file`, its file opened for appending now: a
 * missing write permission, or a file that cannot be opened, stops the start.
 * SIGHUP reopens the file (after log rotation moved it away).
 */
function auditLog(flags: Flags, logger: Logger): AuditLog | undefined {
  const path = flags.auditFile;
  if (path === undefined) return undefined;
  checkWritePermission(path);
  let file;
  try {
    file = openAuditFile(path);
  } catch (error) {
    throw new StartupError(`cannot open the audit file ${path}: ${messageOf(error)}`);
  }
  if (Deno.build.os !== "windows") {
    Deno.addSignalListener("SIGHUP", () => {
      try {
        file.reopen();
        logger.log("info", `audit log: reopened ${path}`);
      } catch (error) {
        logger.log(
          "warn",
          `audit log: could not reopen ${path} (${
            messageOf(error)
          }); still writing to the file open before`,
        );
      }
    });
  }
  const warn = (message: string) => logger.log("warn", message);
  return { sink: file.sink, failure: flags.auditFailure, warn };
}

/** Logs a warning: for what a starting server wants seen but need not stop for. */
function warnWith(logger: Logger): (message: string) => void {
  return (message) => logger.log("warn", message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The listed tools these flags expose. */
function exposed(flags: Flags): ToolEntry[] {
  return selectTools(MANIFEST_TOOLS, flags);
}

async function serve(
  flags: Flags,
  env: EnvReader,
  logger: Logger,
  admin: PolicyState,
  scope?: CallScope,
): Promise<number> {
  const signingIn = clientIdOf(flags, env) !== undefined;
  const config = withClientCertificate(
    readConfig(flags, env, { tokenOptional: signingIn }),
    env,
    warnWith(logger),
  );
  await checkNetPermission(config.baseUrl);
  const audit = auditLog(flags, logger);
  const fetcher = collectWhenIdle(loggingFetch(config.baseUrl, logger));
  if (config.token && signingIn) {
    logger.log("info", "BITBUCKET_TOKEN is set: serving with it, not the signed-in session");
  }
  // The session's modules (and zod, through them) load only for a server that signs in.
  const session = config.token
    ? undefined
    : await import("./session_setup.ts").then((m) =>
      m.servingSession(m.signInSettings(flags, env, config)!, env, logger, fetcher)
    );
  const bitbucket = new BitbucketClient({
    ...config,
    ...(session ? { username: undefined } : {}),
    token: config.token ?? "(signed-in session)",
    fetch: session?.fetch ?? fetcher,
    hints: session?.hints ?? CLI_HINTS,
  });
  const tools = exposed(flags);
  const transport = new StdioLineTransport();
  const handle = serveStdio(
    createServerFactory(
      tools,
      bitbucket,
      { ...callPolicy(flags, env, audit, admin), scope },
      session?.port,
    ),
    {
      transport,
      onerror: (error) => logger.log("error", error.message),
    },
  );
  const stop = async () => {
    await handle.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await transport.ended;
  await handle.close();
  await session?.close();
  return 0;
}

/**
 * Serves Streamable HTTP until SIGINT or SIGTERM, then stops cleanly (letting
 * answers in flight finish) and resolves to 0. A second signal exits at once.
 */
async function serveOverHttp(
  flags: Flags,
  address: ListenAddress,
  env: EnvReader,
  logger: Logger,
  admin: PolicyState,
  scope?: CallScope,
): Promise<number> {
  const config = withClientCertificate(
    readConfig(flags, env, { tokenOptional: true }),
    env,
    warnWith(logger),
  );
  const where = formatHostPort(address.hostname, address.port);
  await checkNetPermission(config.baseUrl);
  await checkListenPermission(where);
  const metricsAt = flags.metricsListen;
  if (metricsAt) await checkListenPermission(formatHostPort(metricsAt.hostname, metricsAt.port));
  const audit = auditLog(flags, logger);
  const { ServerMetrics } = await import("../metrics/server_metrics.ts");
  const metrics = new ServerMetrics(VERSION);
  const { HEALTH_PATH, METRICS_PATH, serveHttp } = await import("../server/http.ts");
  const oauth = oauthSettings(clientIdOf(flags, env), env, config.token);
  let server;
  try {
    server = serveHttp({
      tools: exposed(flags),
      policy: { ...callPolicy(flags, env, audit, admin), scope, metrics },
      config,
      address,
      metricsAddress: metricsAt,
      allowHosts: flags.allowHosts,
      limits: flags.httpLimits,
      sessions: flags.httpLimits,
      onsession: (message) => logger.log("info", message),
      onerror: (error) => logger.log("error", error.message),
      fetch: collectWhenIdle(loggingFetch(config.baseUrl, logger)),
      hints: hintsFor(oauth),
      hostHint: ALLOW_HOST_HINT,
      oauth,
      catalogue: MANIFEST_TOOLS,
      onnarrow: (message) => logger.log("warn", message),
    });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse || error instanceof Deno.errors.AddrNotAvailable) {
      throw new StartupError(`cannot listen on ${where}: ${error.message}`);
    }
    throw error;
  }
  logger.notice(
    `serving MCP at ${server.url.href} (health: ${server.url.origin}${HEALTH_PATH})`,
  );
  logger.notice(`metrics at ${server.metricsUrl?.href ?? server.url.origin + METRICS_PATH}`);
  if (server.limits === undefined) {
    logger.log(
      "warn",
      "this Deno has no per-connection HTTP server: HTTP connections are served without deadlines or a cap (use Deno 2.9, or put a proxy with timeouts in front)",
    );
  }
  if (oauth) logger.notice(oauthStartLine(oauth, server.url, exposed(flags)));
  if (!config.token && !oauth) {
    logger.notice(
      "no BITBUCKET_TOKEN: requests without 'Authorization: Bearer <token>' are refused",
    );
  }
  let stopping = false;
  const stop = () => {
    if (stopping) Deno.exit(1);
    stopping = true;
    void server.shutdown();
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
  return 0;
}
