/**
 * An in-process server for tests, the demo's checks and the benchmarks: a
 * real MCP client connected to the real server factory over an in-memory
 * transport, backed by a fresh fixture Bitbucket, and the token they use.
 */
import { Client, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { BitbucketClient, type BitbucketClientOptions } from "../src/bitbucket/transport/client.ts";
import { CLI_HINTS } from "../src/cli/hints.ts";
import { createServerFactory } from "../src/server/factory.ts";
import { selectTools, type ToolSelection } from "../src/policy/selection.ts";
import type { Confinement } from "../src/policy/confinement.ts";
import type { AuditLog } from "../src/policy/audit.ts";
import { CATALOGUE } from "../src/tools/catalogue.ts";
import { APPS_EXTENSION, APPS_MIME } from "../src/tools/kit/apps.ts";
import { type FixtureBitbucket, type Route, startFixtureBitbucket } from "./fixture_bitbucket.ts";

/** What a client that draws MCP Apps views declares. */
export const APPS_CLIENT_CAPABILITIES = {
  extensions: { [APPS_EXTENSION]: { mimeTypes: [APPS_MIME] } },
};

/** The token the tests use: recognisable, so a leak is easy to spot. */
export const TEST_TOKEN = "test-token-SECRET-0123456789";

/** A connected MCP client, the fixture Bitbucket behind the server, and a way to tear both down. */
export interface Harness {
  client: Client;
  fixture: FixtureBitbucket;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options for {@link connect}. */
export interface ConnectOptions {
  /**
   * Everything the fixture Bitbucket answers, first match first; nothing else
   * is answered (a request no route matches gets a 501 and lands in
   * `unmatched`). Absent: no routes, for tests that reach no Bitbucket.
   * Usually a test's own routes, then its domain's: `[...extra, ...refs.routes]`.
   */
  routes?: Route[];
  /** Which tools are listed, and `yolo`: unsafe writes run without asking. */
  selection?: Partial<ToolSelection> & { yolo?: boolean };
  /**
   * The person behind the client: declares the elicitation capability and
   * answers each form with this (absent: the client cannot ask).
   */
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  /** The client declares MCP Apps (`io.modelcontextprotocol/ui`, the HTML profile): it draws views. */
  apps?: boolean;
  /** `legacy` speaks the 2025 handshake; `modern` pins 2026-07-28. */
  era?: "legacy" | "modern";
  timeoutMs?: number;
  username?: string;
  /** Where each call is recorded (`--audit-file`). */
  audit?: AuditLog;
  /** The projects and repositories the server is confined to (`--project`, `--repo`). */
  confinement?: Confinement;
  /** More client options (retry policy, body cap, sleep); retries back off from 1 ms unless given. */
  client?: Partial<BitbucketClientOptions>;
}

/**
 * Connects a real `Client` to the real server factory through `serveStdio`
 * over an in-memory transport pair, backed by a fresh fixture Bitbucket
 * holding exactly `options.routes`.
 */
export async function connect(options: ConnectOptions = {}): Promise<Harness> {
  const fixture = startFixtureBitbucket(options.routes ?? []);
  const bitbucket = new BitbucketClient({
    baseUrl: new URL(fixture.url),
    token: TEST_TOKEN,
    username: options.username,
    timeoutMs: options.timeoutMs ?? 5000,
    retry: { baseDelayMs: 1 },
    hints: CLI_HINTS,
    ...options.client,
  });
  const tools = selectTools(CATALOGUE, { readOnly: false, ...options.selection });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(
    createServerFactory(tools, bitbucket, {
      unsafeWrites: options.selection?.yolo ?? false,
      audit: options.audit,
      confinement: options.confinement,
    }),
    { transport: serverSide },
  );
  const client = new Client(
    { name: "bitbucket-mcp-tests", version: "0.0.0" },
    {
      versionNegotiation: {
        mode: options.era === "legacy" ? "legacy" : { pin: "2026-07-28" },
      },
      capabilities: {
        ...(options.elicit ? { elicitation: { form: {} } } : {}),
        ...(options.apps ? APPS_CLIENT_CAPABILITIES : {}),
      },
    },
  );
  const elicit = options.elicit;
  if (elicit) {
    client.setRequestHandler("elicitation/create", async (request) => await elicit(request));
  }
  await client.connect(clientSide);
  const close = async () => {
    await client.close();
    await handle.close();
    await fixture.close();
  };
  return { client, fixture, close, [Symbol.asyncDispose]: close };
}

/** The text of a result's first content block. */
export function firstText(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  const block = content?.find((c) => c.type === "text");
  if (!block?.text) throw new Error("result has no text block");
  return block.text;
}
