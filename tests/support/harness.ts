import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { BitbucketClient, type BitbucketClientOptions } from "../../src/bitbucket/client.ts";
import { createServerFactory } from "../../src/server/factory.ts";
import { selectTools, type ToolSelection } from "../../src/server/gating.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { type FixtureBitbucket, type Route, startFixtureBitbucket } from "./fixture_bitbucket.ts";
import { ALL_ROUTES } from "../cases/mod.ts";

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
  /** Routes tried before the shared fixtures. */
  routes?: Route[];
  selection?: Partial<ToolSelection>;
  /** `legacy` speaks the 2025 handshake; `modern` pins 2026-07-28. */
  era?: "legacy" | "modern";
  timeoutMs?: number;
  username?: string;
  /** More client options (retry policy, body cap, sleep); retries back off from 1 ms unless given. */
  client?: Partial<BitbucketClientOptions>;
}

/**
 * Connects a real `Client` to the real server factory through `serveStdio`
 * over an in-memory transport pair, backed by a fresh fixture Bitbucket.
 */
export async function connect(options: ConnectOptions = {}): Promise<Harness> {
  const fixture = startFixtureBitbucket([...options.routes ?? [], ...ALL_ROUTES]);
  const bitbucket = new BitbucketClient({
    baseUrl: new URL(fixture.url),
    token: TEST_TOKEN,
    username: options.username,
    timeoutMs: options.timeoutMs ?? 5000,
    retry: { baseDelayMs: 1 },
    ...options.client,
  });
  const tools = selectTools(CATALOGUE, { yolo: false, readOnly: false, ...options.selection });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(createServerFactory(tools, bitbucket), { transport: serverSide });
  const client = new Client(
    { name: "bitbucket-mcp-tests", version: "0.0.0" },
    {
      versionNegotiation: {
        mode: options.era === "legacy" ? "legacy" : { pin: "2026-07-28" },
      },
    },
  );
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
