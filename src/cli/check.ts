/**
 * `bitbucket-mcp check`: verifies the set-up step by step, the way a support
 * engineer would, and prints one line per check: the URL parses, the host is
 * permitted, the client certificate (when one is configured) is current, the
 * network gets there (DNS, TCP, TLS, a proxy's mutual TLS), the server is Bitbucket,
 * the token authenticates (and as whom), and which tools the flags expose.
 * A check whose prerequisite failed is shown as not run.
 */
import { basePath, restPrefix } from "../bitbucket/transport/base_path.ts";
import { isHtml } from "../bitbucket/transport/body.ts";
import { BitbucketClient } from "../bitbucket/transport/client.ts";
import { BitbucketError } from "../bitbucket/transport/errors.ts";
import { hungUp } from "../bitbucket/transport/client_auth.ts";
import { innermostMessage } from "../bitbucket/transport/fetch_failure.ts";
import {
  APPLICATION_PROPERTIES_PATH,
  parseVersion,
} from "../bitbucket/transport/server_version.ts";
import { tokenUser } from "../bitbucket/token_user.ts";
import { type EnvReader, parseBaseUrl, StartupError, timeoutMsOf } from "../config.ts";
import { type PolicyState, refusalOf } from "../policy/admin_policy.ts";
import { withheldByConfinement } from "../policy/confinement.ts";
import { exposedTools } from "../policy/choices.ts";
import { ALL_SETS, DEFAULT_SET, selectTools } from "../policy/selection.ts";
import { LOOP_STEPS } from "../tools/kit/default_set.ts";
import { CATALOGUE, TOOLSETS } from "../tools/catalogue.ts";
import { diagnoseConnection, diagnoseNotBitbucket, diagnoseToken } from "./check_diagnosis.ts";
import { checkClientCertificate } from "./client_cert_check.ts";
import { checkPolicy } from "./check_policy.ts";
import { checkSession } from "./check_session.ts";
import { signInSettings } from "./session_setup.ts";
import { versionLine } from "./check_version.ts";
import type { Flags } from "./flags.ts";
import { CLI_HINTS } from "./hints.ts";
import { type Logger, loggingFetch } from "./log.ts";

/** The outcome of one check. */
export interface CheckLine {
  name: string;
  status: "pass" | "warn" | "fail" | "skip";
  /** What was found (pass) or what is wrong (fail), or why the check did not run (skip). */
  detail: string;
  /** What to do about a failure. */
  fix?: string;
}

const MARK = { pass: "✓", warn: "!", fail: "✗", skip: "-" } as const;

/** One check as a line: mark, name, finding, and for a failure the fix. */
export function formatCheckLine(line: CheckLine): string {
  const head = `${MARK[line.status]} ${line.name.padEnd(10)}  ${line.detail}`;
  return line.fix ? `${head}. Fix: ${line.fix}` : head;
}

/** What `check` reads: the flags and the environment; requests are logged like the server's. */
export interface CheckInputs {
  flags: Flags;
  env: EnvReader;
  logger: Logger;
  /** The `fetch` under the logging one; the global `fetch` by default. */
  fetch?: typeof fetch;
  /** The time the client certificate's validity is judged at; now by default. */
  now?: Date;
  /** The administrator's policy read at start-up (`flags` are already narrowed by it). */
  policy?: PolicyState;
}

/** The REST resource that names Bitbucket's version; it needs no login. */
const PROPERTIES_PATH = APPLICATION_PROPERTIES_PATH;

/** Runs every check in order, handing each line to `report` as soon as it is known; true when all passed. */
export async function runChecks(
  inputs: CheckInputs,
  report: (line: CheckLine) => void,
): Promise<boolean> {
  let passed = true;
  const emit = (line: CheckLine) => {
    if (line.status === "fail" || line.status === "skip") passed = false;
    report(line);
  };
  const { flags, env } = inputs;
  const timeoutMs = timeoutMsOf(flags);
  // Reading the variables may itself stop the command (no --allow-env): a startup error.
  const rawUrl = flags.url ?? env("BITBUCKET_URL");
  const token = env("BITBUCKET_TOKEN") || undefined;
  const username = env("BITBUCKET_USERNAME") || undefined;

  const base = checkUrl(rawUrl);
  emit(base.line);
  const reachable = base.url ? await checkPermission(base.url) : undefined;
  emit(reachable?.line ?? skip("permission", "needs a valid URL"));
  const mtls = checkClientCertificate(env, inputs.now ?? new Date());
  if (mtls.verdict) emit({ name: "mtls", ...mtls.verdict });
  const presented = mtls.certificate;

  let bitbucket = false;
  const fetcher = base.url ? loggingFetch(base.url, inputs.logger, inputs.fetch) : fetch;
  if (base.url && reachable?.ok) {
    const probe = new URL(restPrefix(base.url) + PROPERTIES_PATH, base.url);
    const answer = await fetchProbe(fetcher, probe, timeoutMs, presented?.httpClient);
    if (answer instanceof Response) {
      emit({
        name: "connection",
        status: "pass",
        detail: `${base.url.host} answered${
          base.url.protocol === "https:" ? " over TLS (certificate trusted)" : " (plain HTTP)"
        }${presented ? `, our client certificate accepted` : ""}`,
      });
      const found = await checkBitbucket(answer, probe);
      bitbucket = found.answered;
      emit(found.line);
    } else {
      emit({
        name: "connection",
        status: "fail",
        ...diagnoseConnection(answer, probe, timeoutMs, presented?.subject),
      });
      emit(skip("bitbucket", "needs a connection"));
    }
  } else {
    emit(skip("connection", "needs a valid, permitted URL"));
    emit(skip("bitbucket", "needs a connection"));
  }

  const signIn = !token && base.url
    ? signInSettings(flags, env, { baseUrl: base.url, timeoutMs, clientCertificate: presented })
    : undefined;
  if (signIn) {
    const lines = await checkSession(signIn, env, inputs.logger, fetcher, bitbucket);
    for (const line of lines) emit(line);
  } else if (!token) {
    emit({
      name: "token",
      status: "fail",
      detail: "BITBUCKET_TOKEN is not set",
      fix:
        "create an HTTP access token (Bitbucket: your avatar > Manage account > HTTP access tokens) and export it as BITBUCKET_TOKEN, or sign in: bitbucket-mcp login --oauth-client-id ID",
    });
  } else if (!bitbucket || !base.url) {
    emit(skip("token", "needs Bitbucket to answer"));
  } else {
    const client = new BitbucketClient({
      baseUrl: base.url,
      token,
      username,
      timeoutMs,
      fetch: fetcher,
      hints: CLI_HINTS,
      clientCertificate: presented,
    });
    emit(await checkToken(client, username));
  }
  const policy = inputs.policy;
  if (policy) emit({ name: "policy", ...checkPolicy(policy) });
  emit(
    policy && refusalOf(policy)
      ? skip("tools", "the administrator's policy serves nothing")
      : checkTools(flags, policy),
  );
  return passed;
}

function skip(name: string, why: string): CheckLine {
  return { name, status: "skip", detail: `not checked: ${why}` };
}

function checkUrl(raw: string | undefined): { url?: URL; line: CheckLine } {
  if (!raw) {
    return {
      line: {
        name: "url",
        status: "fail",
        detail: "BITBUCKET_URL is not set",
        fix:
          "export BITBUCKET_URL=https://bitbucket.example.com (the address you open Bitbucket at, with its context path if it has one), or pass --url",
      },
    };
  }
  try {
    const url = parseBaseUrl(raw);
    if (/(^|\.)bitbucket\.org$/i.test(url.hostname)) {
      return {
        line: {
          name: "url",
          status: "fail",
          detail: `${url.hostname} is Bitbucket Cloud, which this server does not speak to`,
          fix: "set BITBUCKET_URL to a Bitbucket Data Center server",
        },
      };
    }
    return { url, line: { name: "url", status: "pass", detail: url.origin + basePath(url) } };
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    return {
      line: {
        name: "url",
        status: "fail",
        detail: error.message,
        fix: "set BITBUCKET_URL to the base URL only, e.g. https://bitbucket.example.com",
      },
    };
  }
}

async function checkPermission(url: URL): Promise<{ ok: boolean; line: CheckLine }> {
  const status = await Deno.permissions.query({ name: "net", host: url.host });
  if (status.state === "granted") {
    return {
      ok: true,
      line: { name: "permission", status: "pass", detail: `network access to ${url.host} granted` },
    };
  }
  return {
    ok: false,
    line: {
      name: "permission",
      status: "fail",
      detail: `no network permission for ${url.host}`,
      fix:
        `run with --allow-net=${url.host} (a compiled binary: build it with deno task compile --host ${url.hostname})`,
    },
  };
}

/** GET `probe` without a token and without following redirects; the error when nothing answered. */
async function fetchProbe(
  fetcher: typeof fetch,
  probe: URL,
  timeoutMs: number,
  client?: Deno.HttpClient,
): Promise<Response | unknown> {
  const once = async () => {
    try {
      return await fetcher(probe, {
        headers: { Accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
        ...(client === undefined ? {} : { client }),
      });
    } catch (error) {
      return error;
    }
  };
  const answer = await once();
  // A server that wants a client certificate may hang up before its alert is read: ask again.
  return answer instanceof Response || client !== undefined || !hungUp(innermostMessage(answer))
    ? answer
    : await once();
}

/** The bitbucket line, and whether Bitbucket answered (even one too old to support). */
async function checkBitbucket(
  response: Response,
  probe: URL,
): Promise<{ line: CheckLine; answered: boolean }> {
  const contentType = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (response.status === 200 && !isHtml(contentType, text)) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const { version, buildNumber, displayName } = (body ?? {}) as Record<string, unknown>;
    if (typeof version === "string") {
      const build = typeof buildNumber === "string" ? ` (build ${buildNumber})` : "";
      const name = typeof displayName === "string" ? `, "${displayName}"` : "";
      const found = `Bitbucket Data Center ${version}${build}${name}`;
      return {
        line: { name: "bitbucket", ...versionLine(found, parseVersion(version)) },
        answered: true,
      };
    }
  }
  const line: CheckLine = {
    name: "bitbucket",
    status: "fail",
    ...diagnoseNotBitbucket(
      response.status,
      contentType,
      text,
      response.headers.get("location"),
      probe,
    ),
  };
  return { line, answered: false };
}

async function checkToken(
  client: BitbucketClient,
  username: string | undefined,
): Promise<CheckLine> {
  try {
    const caller = await tokenUser(client);
    if (!caller) {
      return {
        name: "token",
        status: "fail",
        detail:
          "Bitbucket answered, but as nobody (no X-AUSERNAME header): the token did not reach it",
        fix:
          "a proxy in front of Bitbucket must pass the Authorization header on; ask its administrators",
      };
    }
    const how = username ? `Basic auth as ${username}` : "Bearer token";
    return { name: "token", status: "pass", detail: `authenticated as ${caller} (${how})` };
  } catch (error) {
    if (!(error instanceof BitbucketError)) throw error;
    return { name: "token", status: "fail", ...diagnoseToken(error, username) };
  }
}

/** What the `tools` line says of the `default` set, when the flags ask for it: what it is for. */
function defaultNote(flags: Flags): string {
  const sets = flags.toolsets ?? [];
  if (!sets.includes(DEFAULT_SET) || sets.includes(ALL_SETS)) return "";
  return `, the ${DEFAULT_SET} set (the review loop: ${
    Object.keys(LOOP_STEPS).join(", ")
  }; --toolsets ${ALL_SETS} lists every tool)`;
}

/** The `tools` line of `check`: how many tools the flags (narrowed by `policy`) expose, per toolset. */
export function checkTools(flags: Flags, policy?: PolicyState): CheckLine {
  const selected = selectTools(CATALOGUE, flags);
  const served = exposedTools(selected, flags.confinement);
  const exposed = new Set(served.map((t) => t.name));
  const perSet = TOOLSETS.map((set) =>
    `${set.name} ${set.tools.filter((t) => exposed.has(t.name)).length}/${set.tools.length}`
  );
  // The unsafe writes these flags would list but for --withhold-unsafe.
  const withheldUnsafe = flags.withholdUnsafe
    ? selectTools(CATALOGUE, { ...flags, withholdUnsafe: false })
      .filter((t) => t.access.level === "unsafe write" && !exposed.has(t.name)).length
    : 0;
  if (exposed.size === 0) {
    return {
      name: "tools",
      status: "fail",
      detail: "the flags expose no tool at all",
      fix: "loosen --toolsets, --tools, --read-only or --exclude (bitbucket-mcp tools shows each)",
    };
  }
  const byPolicy = policy?.kind === "in force" && policy.policy.readOnly;
  const unsafe = flags.readOnly
    ? `; read-only tools only (${byPolicy ? "the administrator's policy" : "--read-only"})`
    : withheldUnsafe > 0
    ? `; ${withheldUnsafe} unsafe writes withheld (--withhold-unsafe)`
    : flags.yolo
    ? "; unsafe writes run without asking (--yolo)"
    : "; unsafe writes ask the person first";
  const withheld = [...withheldByConfinement(selected)].map(([why, names]) =>
    `${names.join(", ")} not listed: ${why}`
  );
  const confined = flags.confinement
    ? `; confined to ${flags.confinement.describe()}${
      withheld.length > 0 ? ` (${withheld.join("; ")})` : ""
    }`
    : "";
  const detail = `${exposed.size} of ${CATALOGUE.length} tools exposed${defaultNote(flags)}: ${
    perSet.join(", ")
  }${unsafe}${confined}`;
  const path = flags.auditFile;
  if (path === undefined) {
    return { name: "tools", status: "pass", detail };
  }
  if (Deno.permissions.querySync({ name: "write", path }).state !== "granted") {
    return {
      name: "tools",
      status: "fail",
      detail: `${detail}; audit file ${path} is not writable`,
      fix: `run with --allow-write=${path}`,
    };
  }
  const failing = flags.auditFailure === "warn"
    ? "a call it cannot record goes on with a warning (--audit-failure warn)"
    : "a call it cannot record is refused";
  return { name: "tools", status: "pass", detail: `${detail}; audit file ${path}: ${failing}` };
}
