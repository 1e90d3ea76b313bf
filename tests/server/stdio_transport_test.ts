import assert from "node:assert/strict";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { RawStdioSession, stdioServerParams, type Wire } from "../support/stdio_server.ts";
import { StdioLineTransport } from "../../src/server/stdio_transport.ts";

const INITIALIZE: Wire & { id: number } = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};

const listTags = (id: number): Wire & { id: number } => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "list_tags", arguments: { project: "PROJ", repo: "web" } },
});

/** Opens a session with the 2025 handshake done. */
async function opened(fixtureUrl: string): Promise<RawStdioSession> {
  const session = new RawStdioSession(stdioServerParams(fixtureUrl, ["--toolsets", "all"]));
  await session.request(INITIALIZE);
  await session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return session;
}

/** Every stdout line, parsed; a line that is not a JSON-RPC 2.0 message fails the test. */
function wireMessages(session: RawStdioSession): Wire[] {
  return session.stdoutLines.map((line) => {
    const message = JSON.parse(line) as Wire;
    assert.equal(message.jsonrpc, "2.0", `not JSON-RPC on stdout: ${line.slice(0, 200)}`);
    return message;
  });
}

function errorCode(message: Wire | undefined): number | undefined {
  return (message?.error as { code?: number } | undefined)?.code;
}

Deno.test("stdio: malformed JSON, a non-JSON-RPC message, an unknown method and a 5 MiB line each get a JSON-RPC error, and the server keeps serving", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const session = await opened(fixture.url);
  try {
    await session.sendRaw('{"jsonrpc": "2.0", "id": 2, "method": \n');
    await session.sendRaw('{"jsonrpc":"2.0","id":"three","method":42}\n');
    const unknown = await session.request({ jsonrpc: "2.0", id: 4, method: "no/such/method" });
    assert.equal(errorCode(unknown), -32601, "an unknown method is 'method not found'");
    await session.sendRaw("x".repeat(5 * 1024 * 1024) + "\n");
    const after = await session.request(listTags(5));
    assert.equal(
      (after.result as { structuredContent: { tags: { displayId: string }[] } }).structuredContent
        .tags[0]?.displayId,
      "v1.0.0",
      "the server still serves after bad input",
    );

    const messages = wireMessages(session);
    const nullIdErrors = messages.filter((m) => m.id === null).map(errorCode);
    assert.deepEqual(
      nullIdErrors,
      [-32700, -32600],
      "a parse error, then the over-long line, answered with id null",
    );
    assert.equal(errorCode(messages.find((m) => m.id === "three")), -32600);
  } finally {
    const { code } = await session.close();
    await fixture.close();
    assert.equal(code, 0);
  }
});

Deno.test("stdio: a 1 MiB tool argument is refused by the tool, naming the argument, and the server keeps serving", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const session = await opened(fixture.url);
  try {
    const answer = await session.request({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "create_tag",
        arguments: {
          project: "PROJ",
          repo: "web",
          name: "v9",
          start_point: "main",
          message: "m".repeat(1024 * 1024),
        },
      },
    });
    const result = answer.result as { isError?: boolean; content: { text: string }[] };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /message/);
    assert.equal(fixture.requests.length, 0, "nothing reached Bitbucket");
    const after = await session.request(listTags(3));
    assert.equal(
      (after.result as { structuredContent: { tags: { displayId: string }[] } }).structuredContent
        .tags[0]?.displayId,
      "v1.0.0",
      "the next call is answered",
    );
    wireMessages(session);
  } finally {
    await session.close();
    await fixture.close();
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`stdio: ${signal} exits cleanly with status 0, with nothing but JSON-RPC on stdout`, async () => {
    const fixture = startFixtureBitbucket(refs.routes);
    const session = await opened(fixture.url);
    try {
      await session.request(listTags(2));
      const { code, stderr } = await session.kill(signal);
      assert.equal(code, 0, stderr);
      assert.equal(wireMessages(session).length, 2);
    } finally {
      await fixture.close();
    }
  });
}

Deno.test("stdio: end of stdin while a call is in flight exits with status 0 and aborts the Bitbucket request", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: "/api/latest/projects/PROJ/repos/web/tags", delayMs: 10_000 },
  ]);
  const session = await opened(fixture.url);
  try {
    await session.send(listTags(2));
    await fixture.until(() => fixture.requests.length === 1);
    const { code, stderr } = await session.close();
    assert.equal(code, 0, stderr);
    await fixture.until(() => fixture.requests[0]!.aborted);
    wireMessages(session);
  } finally {
    await fixture.close();
  }
});

/** A stdin that holds `lines` and then ends, and a stdout that records each line written, slowly. */
function pipedSession(lines: readonly unknown[], endGraceMs?: number) {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n")));
      controller.close();
    },
  });
  const written: string[] = [];
  const output = {
    async write(bytes: Uint8Array) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written.push(new TextDecoder().decode(bytes));
      return bytes.length;
    },
  };
  const transport = new StdioLineTransport({ input, output, endGraceMs });
  return { transport, written };
}

Deno.test("stdio: requests piped in with stdin closed at once are all answered and written before the end", async () => {
  const { transport, written } = pipedSession([listTags(7), listTags(8)]);
  transport.onmessage = (message) => {
    const { id } = message as { id: number };
    setTimeout(() => transport.send({ jsonrpc: "2.0", id, result: {} }), 30);
  };
  await transport.start();
  await transport.ended;
  assert.deepEqual(written.map((line) => JSON.parse(line).id), [7, 8]);
});

Deno.test("stdio: after the end of stdin a request still unanswered is given up once the grace has passed", async () => {
  const { transport, written } = pipedSession([listTags(9)], 50);
  let read = 0;
  transport.onmessage = () => read++;
  await transport.start();
  await transport.ended;
  assert.equal(read, 1, "the request was read");
  assert.deepEqual(written, []);
  await assert.rejects(
    () => transport.send({ jsonrpc: "2.0", id: 9, result: {} }),
    /the stdio transport is closed/,
  );
});
