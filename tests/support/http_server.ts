import type { AuditLog } from "../../src/policy/audit.ts";
import type { Confinement } from "../../src/policy/confinement.ts";
import type { ServerMetrics } from "../../src/metrics/server_metrics.ts";
import {
  Client,
  type ElicitRequest,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { ALLOW_HOST_HINT, CLI_HINTS } from "../../src/cli/hints.ts";
import { selectTools, type ToolSelection } from "../../src/policy/selection.ts";
import { serveHttp } from "../../src/server/http.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { Confirmations } from "../../src/policy/confirmation.ts";
import { MAIN } from "../../testing/spawn.ts";
import type { SessionLimits } from "../../src/server/session_limits.ts";
import {
  type FixtureBitbucket,
  type Route,
  startFixtureBitbucket,
} from "../../testing/fixture_bitbucket.ts";

/** The HTTP mode on 127.0.0.1 (a free port), in process, in front of a fresh fixture Bitbucket. */
export interface HttpHarness {
  /** The MCP endpoint. */
  url: URL;
  fixture: FixtureBitbucket;
  /** Everything the server reported through `onerror`. */
  errors: string[];
  /** Every line the server logged of a request asking for more than it serves, or of its sessions. */
  notices: string[];
  /** The metrics URL when they have a listener of their own (`metricsAddress`). */
  metricsUrl?: URL;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options for {@link startHttp}. */
export interface StartHttpOptions {
  /** Everything the fixture Bitbucket answers (as in `connect`); absent: none. */
  routes?: Route[];
  /** The server-wide token (BITBUCKET_TOKEN); absent by default. */
  serverToken?: string;
  username?: string;
  allowHosts?: string[];
  /** The whole-request timeout of the server's Bitbucket calls (5 s by default). */
  timeoutMs?: number;
  /** Unsafe writes ask the person (the default without `--yolo`); absent: they run unasked. */
  ask?: boolean;
  /** The key confirmation states are signed with (BITBUCKET_MCP_STATE_KEY). */
  stateKey?: string;
  /** Where each call is recorded (`--audit-file`). */
  audit?: AuditLog;
  /** The projects and repositories the server is confined to (`--project`, `--repo`). */
  confinement?: Confinement;
  /** The metrics counted and served (HTTP mode's `/metrics`). */
  metrics?: ServerMetrics;
  /** Where the metrics are served instead of the MCP port (`--metrics-listen`). */
  metricsAddress?: { hostname: string; port: number };
  /** The server's own selection (`--toolsets`, `--read-only`, …); absent: every tool. */
  selection?: Partial<ToolSelection>;
  /** The bounds of 2025-era sessions (`--http-max-sessions`, `--http-session-timeout`). */
  sessions?: SessionLimits;
}

/**
 * Starts the HTTP mode with every tool, unsafe writes unasked (`--yolo`) unless
 * `options.ask`, backed by a fresh fixture Bitbucket holding exactly `options.routes`.
 */
export function startHttp(options: StartHttpOptions = {}): HttpHarness {
  const fixture = startFixtureBitbucket(options.routes ?? []);
  const errors: string[] = [];
  const notices: string[] = [];
  const server = serveHttp({
    tools: selectTools(CATALOGUE, { readOnly: false, ...options.selection }),
    catalogue: CATALOGUE,
    onnarrow: (message) => notices.push(message),
    sessions: options.sessions,
    onsession: (message) => notices.push(message),
    policy: {
      unsafeWrites: !options.ask,
      confirmations: new Confirmations({ key: options.stateKey }),
      audit: options.audit,
      confinement: options.confinement,
      metrics: options.metrics,
    },
    metricsAddress: options.metricsAddress,
    config: {
      baseUrl: new URL(fixture.url),
      token: options.serverToken,
      username: options.username,
      timeoutMs: options.timeoutMs ?? 5000,
    },
    address: { hostname: "127.0.0.1", port: 0 },
    allowHosts: options.allowHosts,
    onerror: (error) => errors.push(error.message),
    hints: CLI_HINTS,
    hostHint: ALLOW_HOST_HINT,
  });
  const close = async () => {
    await server.shutdown();
    await fixture.close();
  };
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    fixture,
    errors,
    notices,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Which era a client speaks: `modern` pins 2026-07-28, `legacy` the 2025 handshake. */
export type Era = "modern" | "legacy";

/**
 * Connects a v2 client over Streamable HTTP, sending `token` (if any) as
 * `Authorization: Bearer`; with `elicit`, it declares elicitation and answers each form so;
 * `capabilities` are declared besides (MCP Apps, say); `headers` go with every request.
 */
export async function connectHttp(
  url: URL,
  era: Era,
  token?: string,
  elicit?: (request: ElicitRequest) => ElicitResult,
  capabilities: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client(
    { name: `http-${era}`, version: "0.0.0" },
    {
      versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" },
      capabilities: { ...(elicit ? { elicitation: { form: {} } } : {}), ...capabilities },
    },
  );
  if (elicit) client.setRequestHandler("elicitation/create", (request) => elicit(request));
  const transport = new StreamableHTTPClientTransport(url, {
    ...(token === undefined ? {} : { authProvider: { token: () => Promise.resolve(token) } }),
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

/** A raw HTTP/1.1 exchange over TCP, for headers `fetch` will not send as given (Host). */
export async function rawHttp(
  port: number,
  head: string[],
  body = "",
): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const bytes = new TextEncoder().encode(body);
    const request = [...head, `Content-Length: ${bytes.length}`, "Connection: close", "", body]
      .join("\r\n");
    await conn.write(new TextEncoder().encode(request));
    const text = await new Response(conn.readable).text();
    return { status: Number(text.split(" ")[1]), text };
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by reading the response to its end
    }
  }
}

/** The real entry point serving HTTP in a child process. */
export interface SpawnedHttpServer {
  /** The MCP endpoint the server announced on stderr. */
  url: URL;
  /** Sends SIGTERM and waits for the exit status and everything the server printed. */
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * Runs `deno run <denoFlags> main.ts <args>` with exactly `env` and waits for
 * its "serving MCP at URL" line on stderr.
 */
export async function spawnHttpMain(
  denoFlags: string[],
  args: string[],
  env: Record<string, string>,
): Promise<SpawnedHttpServer> {
  const denoDir = Deno.env.get("DENO_DIR");
  const child = new Deno.Command("deno", {
    args: ["run", "--no-prompt", ...denoFlags, MAIN, ...args],
    env: {
      ...env,
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      ...(denoDir ? { DENO_DIR: denoDir } : {}),
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  let url: URL | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) {
      const { code } = await child.status;
      throw new Error(`the server exited (${code}) before listening: ${stderr}`);
    }
    stderr += value;
    const match = /serving MCP at (\S+)/.exec(stderr);
    if (match) url = new URL(match[1]!);
  }
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      stderr += value;
    }
  })();
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      const { code } = await child.status;
      await drained;
      return { code, stdout: await stdout, stderr };
    },
  };
}
