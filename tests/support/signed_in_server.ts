/**
 * A stdio server on a person's signed-in session, in process, for the gate's
 * tests: the real server factory with the sign-in gate, its Bitbucket client
 * carrying the session's token, in front of the fake OAuth Bitbucket, and a
 * real v2 client that may open URLs (URL-mode elicitation) on either era.
 */
import { Client, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { authorizingFetch } from "../../src/auth/authorizing_fetch.ts";
import { InClientSignIn } from "../../src/auth/in_client.ts";
import { SessionKeeper } from "../../src/auth/keeper.ts";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { CLI_HINTS } from "../../src/cli/hints.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { createServerFactory } from "../../src/server/factory.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import type { FakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";
import { fakeSignIn, MemoryStore } from "./sign_in.ts";

/** What the client behind the server does. */
export interface SessionClientOptions {
  era: "legacy" | "modern";
  /** The client declares URL-mode elicitation and answers with this. */
  openUrl?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  store?: MemoryStore;
}

/** The words the gate gives a client that cannot open the page. */
export const FALLBACK = "run 'bitbucket-mcp login --oauth-client-id ID' in a terminal";

/** Connects a v2 client to a session-mode server in front of `fake`. */
export async function connectSession(fake: FakeOAuthBitbucket, options: SessionClientOptions) {
  const store = options.store ?? new MemoryStore();
  const base = new URL(fake.url);
  const logged: string[] = [];
  const keeper = new SessionKeeper({
    ...fakeSignIn(fake),
    store,
    initial: store.sessions.get(base.href),
    log: (level, message) => logged.push(`${level}: ${message}`),
  });
  const signIn = new InClientSignIn(keeper, fakeSignIn(fake), FALLBACK);
  const bitbucket = new BitbucketClient({
    baseUrl: base,
    token: "(signed-in session)",
    timeoutMs: 5000,
    retry: { baseDelayMs: 1 },
    hints: CLI_HINTS,
    fetch: authorizingFetch(keeper, base.origin, fetch),
  });
  const tools = selectTools(CATALOGUE, { readOnly: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(
    createServerFactory(tools, bitbucket, { unsafeWrites: true }, signIn),
    { transport: serverSide },
  );
  const client = new Client(
    { name: "sign-in-tests", version: "0.0.0" },
    {
      versionNegotiation: { mode: options.era === "legacy" ? "legacy" : { pin: "2026-07-28" } },
      capabilities: options.openUrl ? { elicitation: { url: {} } } : {},
    },
  );
  const completed: string[] = [];
  const openUrl = options.openUrl;
  if (openUrl) {
    client.setRequestHandler("elicitation/create", async (request) => await openUrl(request));
    client.setNotificationHandler("notifications/elicitation/complete", (notification) => {
      completed.push(notification.params.elicitationId);
    });
  }
  await client.connect(clientSide);
  const close = async () => {
    await client.close();
    await handle.close();
    await signIn.close();
  };
  return { client, store, keeper, logged, completed, close, [Symbol.asyncDispose]: close };
}
