/**
 * The compatibility matrix: for each protocol revision, the SDK client of that
 * revision, in memory against the real server factory and over the real HTTP
 * mode where the revision has Streamable HTTP, lists and calls every tool,
 * gets every prompt, reads every resource template and completes an
 * argument through its typed methods, so its own schemas validate every
 * answer; and one unsafe write without `--yolo` shows how the person is
 * reached. Each cell checked is a cell of {@link MATRIX}, which
 * docs/compatibility.md shows (`deno task generate` rewrites it, running the
 * last test alone with `UPDATE_COMPAT_DOC=1`).
 */
import assert from "node:assert/strict";
import { Client as Client2024 } from "mcp-sdk-1.9.0/client/index.js";
import { InMemoryTransport as InMemory2024 } from "mcp-sdk-1.9.0/inMemory.js";
import { Client as Client202503 } from "mcp-sdk-1.12.1/client/index.js";
import { InMemoryTransport as InMemory202503 } from "mcp-sdk-1.12.1/inMemory.js";
import { StreamableHTTPClientTransport as Http202503 } from "mcp-sdk-1.12.1/client/streamableHttp.js";
import { Client as Client202506 } from "mcp-sdk-1.22.0/client/index.js";
import { InMemoryTransport as InMemory202506 } from "mcp-sdk-1.22.0/inMemory.js";
import { StreamableHTTPClientTransport as Http202506 } from "mcp-sdk-1.22.0/client/streamableHttp.js";
import { ElicitRequestSchema as Elicit202506 } from "mcp-sdk-1.22.0/types.js";
import { Client as Client202511 } from "mcp-sdk-1.32.2/client/index.js";
import { InMemoryTransport as InMemory202511 } from "mcp-sdk-1.32.2/inMemory.js";
import { StreamableHTTPClientTransport as Http202511 } from "mcp-sdk-1.32.2/client/streamableHttp.js";
import { ElicitRequestSchema as Elicit202511 } from "mcp-sdk-1.32.2/types.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { InMemoryTransport, serveStdio } from "@modelcontextprotocol/server";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { CLI_HINTS } from "../../src/cli/hints.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { createServerFactory } from "../../src/server/factory.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { ALL_ROUTES } from "../../testing/cases/mod.ts";
import { DASHBOARD_BY_ROLE, PR_HEAD_COMMIT, PR_HEAD_SHORT } from "../../testing/cases/features.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { ALL_TOOL_NAMES, callEveryTool } from "../support/payload.ts";
import { startHttp } from "../support/http_server.ts";
import { staleFile } from "../support/line_diff.ts";
import {
  MATRIX,
  type MatrixRow,
  renderMatrix,
  withMatrix,
} from "../support/compatibility_matrix.ts";

const ROUTES = [...DASHBOARD_BY_ROLE, ...PR_HEAD_COMMIT, ...ALL_ROUTES];
const BASE = "bitbucket://projects/PROJ/repos/web";
/** One URI for each resource template. */
const RESOURCE_URIS = [
  `${BASE}/pull-requests/42`,
  `${BASE}/pull-requests/42/diff`,
  `${BASE}/pull-requests/42/threads`,
  `${BASE}/files/src/app.ts?at=refs%2Fheads%2Fmain`,
  `${BASE}/commits/${PR_HEAD_SHORT}`,
];
const PR_ARGS = { project: "PROJ", repo: "web", pr_id: "42" };

/** What the test calls on a client, whichever SDK generation made it (each method validates). */
interface Session {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: unknown[] }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{
    messages: { content: { type: string; text?: string } }[];
  }>;
  listResourceTemplates(): Promise<{ resourceTemplates: unknown[] }>;
  listResources(): Promise<{ resources: unknown[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string }[] }>;
  complete(params: unknown): Promise<{ completion: { values: string[] } }>;
  close(): Promise<void>;
}

/**
 * A client of one revision: given `ask`, it declares elicitation and declines
 * every form, telling `ask` (before 2025-06-18 it has no handler to answer with).
 */
type MakeClient = (ask?: () => void) => Session;

/** The way the person is asked, per revision, and the client's transports. */
interface Speaker {
  client: MakeClient;
  /** A client transport pair end for in-memory use: [client side, server side]. */
  pair(): [unknown, unknown];
  http?: (url: URL) => unknown;
}

const decline = { action: "decline" as const };

/**
 * The options of a client whose revision has no elicitation: given `ask`, it
 * declares the capability anyway (as a client ahead of its revision might).
 */
function lacking(ask?: () => void) {
  return { capabilities: ask ? { elicitation: {} } : {} } as never;
}
const auth = { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } };

/** The client for each revision of {@link MATRIX}. */
const SPEAKERS: Record<string, Speaker> = {
  "2024-11-05": {
    client: (ask) => new Client2024({ name: "matrix", version: "0" }, lacking(ask)) as never,
    pair: () => InMemory2024.createLinkedPair(),
  },
  "2025-03-26": {
    client: (ask) => new Client202503({ name: "matrix", version: "0" }, lacking(ask)) as never,
    pair: () => InMemory202503.createLinkedPair(),
    http: (url) => new Http202503(url, auth),
  },
  "2025-06-18": {
    client: (ask) => {
      const c = new Client202506({ name: "matrix", version: "0" }, {
        capabilities: ask ? { elicitation: {} } : {},
      });
      if (ask) c.setRequestHandler(Elicit202506, () => (ask(), decline));
      return c as unknown as Session;
    },
    pair: () => InMemory202506.createLinkedPair(),
    http: (url) => new Http202506(url, auth),
  },
  "2025-11-25": {
    client: (ask) => {
      const c = new Client202511({ name: "matrix", version: "0" }, {
        capabilities: ask ? { elicitation: { form: {} } } : {},
      });
      if (ask) c.setRequestHandler(Elicit202511, () => (ask(), decline));
      return c as unknown as Session;
    },
    pair: () => InMemory202511.createLinkedPair(),
    http: (url) => new Http202511(url, auth),
  },
  "2026-07-28": {
    client: (ask) => {
      const c = new Client({ name: "matrix", version: "0" }, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        capabilities: ask ? { elicitation: { form: {} } } : {},
      });
      if (ask) c.setRequestHandler("elicitation/create", () => (ask(), decline));
      return c as unknown as Session;
    },
    pair: () => InMemoryTransport.createLinkedPair(),
    http: (url) => new StreamableHTTPClientTransport(url, auth),
  },
};

/** The real server factory behind one end of an in-memory pair, before a fresh fixture. */
function serveInMemory(serverSide: unknown, yolo: boolean) {
  const fixture = startFixtureBitbucket(ROUTES);
  const bitbucket = new BitbucketClient({
    baseUrl: new URL(fixture.url),
    token: TEST_TOKEN,
    timeoutMs: 5000,
    retry: { baseDelayMs: 1 },
    hints: CLI_HINTS,
  });
  // The revision `initialize` answered, seen on the way out (2026-07-28 has no initialize).
  let negotiated: string | undefined;
  const wire = serverSide as { send(message: unknown, options?: unknown): Promise<void> };
  const send = wire.send.bind(wire);
  wire.send = (message, options) => {
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === "string") negotiated = version;
    return send(message, options);
  };
  const tools = selectTools(CATALOGUE, { readOnly: false });
  const handle = serveStdio(createServerFactory(tools, bitbucket, { unsafeWrites: yolo }), {
    transport: serverSide as never,
  });
  return {
    fixture,
    negotiated: () => negotiated,
    close: async () => {
      await handle.close();
      await fixture.close();
    },
  };
}

/** Everything a client of `row` is checked for, on a connected `session`. */
async function exercise(row: MatrixRow, session: Session): Promise<void> {
  const { tools } = await session.listTools();
  assert.deepEqual(tools.map((t) => t.name), ALL_TOOL_NAMES);
  await callEveryTool((name, args) => session.callTool({ name, arguments: args }));
  // callEveryTool failed unless every answer (but the view-only submit, refused) carried a named
  // structuredContent: the cell says so.
  assert.equal(row.structuredContent, true, `${row.revision}: structuredContent on every call`);
  const { prompts } = await session.listPrompts();
  assert.equal(prompts.length, 4);
  for (const prompt of prompts) {
    const got = await session.getPrompt({
      name: prompt.name,
      ...(prompt.arguments ? { arguments: PR_ARGS } : {}),
    });
    if (!prompt.arguments) continue;
    assert.deepEqual(got.messages.map((m) => m.content.type), row.promptContent, prompt.name);
    const last = got.messages.at(-1)!.content;
    if (last.type === "text") assert.match(last.text!, new RegExp(`${BASE}/pull-requests/42`));
  }
  const { resourceTemplates } = await session.listResourceTemplates();
  assert.equal(resourceTemplates.length, RESOURCE_URIS.length);
  for (const uri of RESOURCE_URIS) {
    const read = await session.readResource({ uri });
    assert.equal(read.contents[0]?.uri, uri);
  }
  assert.ok((await session.listResources()).resources.length > 0);
  const completed = await session.complete({
    ref: { type: "ref/prompt", name: "review_pull_request" },
    argument: { name: "project", value: "" },
  });
  assert.ok(completed.completion.values.includes("PROJ"), completed.completion.values.join());
}

/** How an unsafe write without `--yolo` reached a client of `row`, checked against its cell. */
async function unsafeWrite(row: MatrixRow, session: Session, asked: () => number) {
  const result = await session.callTool({
    name: "merge_pull_request",
    arguments: { project: "PROJ", repo: "web", pr_id: 42 },
  }) as { isError?: boolean; content: { type: string; text: string }[] };
  assert.equal(result.isError, true);
  const text = result.content[0]!.text;
  if (row.unsafeWrite === "refusal") {
    assert.equal(asked(), 0);
    assert.match(text, /--yolo/);
    assert.match(text, /--withhold-unsafe/);
  } else {
    assert.equal(asked(), 1, "the person was asked once");
    assert.match(text, /^Not done: the person declined/);
  }
}

for (const row of MATRIX) {
  const speaker = SPEAKERS[row.revision]!;
  Deno.test(`${row.revision} (${row.sdk}) in memory: every tool, prompt, resource and a completion validate`, async () => {
    const [clientSide, serverSide] = speaker.pair();
    const server = serveInMemory(serverSide, true);
    const session = speaker.client();
    try {
      await (session as unknown as { connect(t: unknown): Promise<void> }).connect(clientSide);
      const modern = session as { getNegotiatedProtocolVersion?(): string | undefined };
      assert.equal(server.negotiated() ?? modern.getNegotiatedProtocolVersion?.(), row.revision);
      await exercise(row, session);
      assert.deepEqual(server.fixture.unmatched, []);
    } finally {
      await session.close();
      await server.close();
    }
  });

  Deno.test(`${row.revision} (${row.sdk}) in memory, no --yolo: an unsafe write is ${row.unsafeWrite}`, async () => {
    const [clientSide, serverSide] = speaker.pair();
    const server = serveInMemory(serverSide, false);
    let asked = 0;
    const session = speaker.client(() => asked++);
    try {
      await (session as unknown as { connect(t: unknown): Promise<void> }).connect(clientSide);
      await unsafeWrite(row, session, () => asked);
      assert.ok(!server.fixture.requests.some((r) => r.method === "POST"), "nothing was written");
      if (row.unsafeWrite === "refusal") {
        assert.deepEqual(server.fixture.requests, [], "refused before anything was read");
      }
    } finally {
      await session.close();
      await server.close();
    }
  });

  if (row.unsafeWrite === "refusal") {
    Deno.test(`${row.revision} (${row.sdk}) in memory, no --yolo, no elicitation declared: an unsafe write is refused`, async () => {
      const [clientSide, serverSide] = speaker.pair();
      const server = serveInMemory(serverSide, false);
      const session = speaker.client();
      try {
        await (session as unknown as { connect(t: unknown): Promise<void> }).connect(clientSide);
        await unsafeWrite(row, session, () => 0);
        assert.deepEqual(server.fixture.requests, []);
      } finally {
        await session.close();
        await server.close();
      }
    });
  }

  const http = speaker.http;
  assert.equal(http !== undefined, row.transports.includes("HTTP"), row.revision);
  if (!http) continue;
  Deno.test(`${row.revision} (${row.sdk}) over HTTP: every tool, prompt, resource and a completion validate`, async () => {
    await using server = startHttp({ routes: ROUTES });
    const session = speaker.client();
    try {
      await (session as unknown as { connect(t: unknown): Promise<void> }).connect(
        http(server.url),
      );
      await exercise(row, session);
    } finally {
      await session.close();
    }
  });
}

const DOC = new URL("../../docs/compatibility.md", import.meta.url);

Deno.test("docs/compatibility.md shows the matrix the tests above check", async () => {
  const doc = await Deno.readTextFile(DOC);
  const current = withMatrix(doc, renderMatrix());
  if (Deno.env.get("UPDATE_COMPAT_DOC") === "1") {
    if (current !== doc) await Deno.writeTextFile(DOC, current);
    return;
  }
  if (current !== doc) assert.fail(staleFile("docs/compatibility.md", doc, current));
});
