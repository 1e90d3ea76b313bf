/**
 * The HTTP mode's connection limits against raw sockets on 127.0.0.1: a
 * silent socket, trickled headers, an idle keep-alive connection and a
 * trickled body are each cut at their deadline (and not before it); past the
 * cap a connection gets 503; an answer being streamed is never cut. Deadlines
 * are set short by each test; every wait is bounded, and what is asserted is
 * whether the server closed the socket, never how fast.
 */
import assert from "node:assert/strict";
import {
  type ConnectionHandler,
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  MAX_REQUEST_BODY_BYTES,
  serveConnectionFunction,
  serveConnections,
} from "../../src/server/connections.ts";
import { serveHttp } from "../../src/server/http.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pool on a free port serving `handler` under `limits`, and its address. */
function pool(limits: Partial<ConnectionLimits>, handler: ConnectionHandler) {
  const serve = serveConnectionFunction();
  assert.ok(serve, "this Deno serves one connection at a time");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = serveConnections(listener, serve, handler, {
    ...DEFAULT_CONNECTION_LIMITS,
    ...limits,
  });
  return {
    port: listener.addr.port,
    served,
    async [Symbol.asyncDispose]() {
      await served.close();
    },
  };
}

const hello: ConnectionHandler = () => Promise.resolve(new Response("hello"));

/**
 * Whether the server closed `conn` within `withinMs`: reads (and discards)
 * whatever arrives until end of stream or the bound. `send`, if given, runs
 * alongside (a trickle).
 */
async function closedWithin(conn: Deno.Conn, withinMs: number): Promise<boolean> {
  const buffer = new Uint8Array(4096);
  const bound = sleep(withinMs).then(() => "open" as const);
  for (;;) {
    const read = conn.read(buffer).then((n) => n === null ? "closed" : "data", () => "closed");
    const outcome = await Promise.race([read, bound]);
    if (outcome === "closed") return true;
    if (outcome === "open") return false;
  }
}

/** Writes `text` a few bytes at a time, `gapMs` apart, until done or the socket fails. */
async function trickle(conn: Deno.Conn, text: string, gapMs: number): Promise<void> {
  const bytes = encoder.encode(text);
  for (let i = 0; i < bytes.length; i += 2) {
    try {
      await conn.write(bytes.slice(i, i + 2));
    } catch {
      return;
    }
    await sleep(gapMs);
  }
}

/** Reads one whole HTTP/1.1 answer with a Content-Length (or until close), as text. */
async function readAnswer(conn: Deno.Conn): Promise<string> {
  let text = "";
  const buffer = new Uint8Array(4096);
  for (;;) {
    const head = text.indexOf("\r\n\r\n");
    if (head >= 0) {
      const length = /content-length: (\d+)/i.exec(text.slice(0, head))?.[1];
      if (length !== undefined && text.length >= head + 4 + Number(length)) return text;
    }
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) return text;
    text += decoder.decode(buffer.subarray(0, n));
  }
}

function connect(port: number) {
  return Deno.connect({ hostname: "127.0.0.1", port });
}

Deno.test("connections: a socket that sends nothing is cut at the header deadline, not before", async () => {
  await using server = pool({ headerTimeoutMs: 300 }, hello);
  using conn = await connect(server.port);
  assert.equal(await closedWithin(conn, 100), false, "still open before the deadline");
  assert.equal(await closedWithin(conn, 5_000), true, "cut after it");
});

Deno.test("connections: headers trickled a byte pair at a time are cut at the header deadline", async () => {
  await using server = pool({ headerTimeoutMs: 400, idleTimeoutMs: 60_000 }, hello);
  using conn = await connect(server.port);
  const sending = trickle(
    conn,
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "a".repeat(400),
    50,
  );
  assert.equal(await closedWithin(conn, 5_000), true);
  await sending;
});

Deno.test("connections: without a deadline met, trickled headers finish and are answered", async () => {
  await using server = pool({ headerTimeoutMs: 10_000 }, hello);
  using conn = await connect(server.port);
  await trickle(conn, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 5);
  assert.match(await readAnswer(conn), /^HTTP\/1\.1 200[\s\S]*hello$/);
});

Deno.test("connections: a kept-alive connection is answered, then cut at the idle deadline", async () => {
  await using server = pool({ idleTimeoutMs: 300 }, hello);
  using conn = await connect(server.port);
  for (let i = 0; i < 2; i++) {
    await conn.write(encoder.encode("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    assert.match(await readAnswer(conn), /^HTTP\/1\.1 200[\s\S]*hello$/, `request ${i + 1}`);
  }
  assert.equal(await closedWithin(conn, 100), false, "kept alive a while");
  assert.equal(await closedWithin(conn, 5_000), true, "then cut");
});

Deno.test("connections: a body trickled past the body deadline is cut, and the handler never gets it whole", async () => {
  const bodies: string[] = [];
  const reading: ConnectionHandler = (_request, _completed, body) => {
    bodies.push(new TextDecoder().decode(body));
    return Promise.resolve(new Response("read"));
  };
  await using server = pool({ bodyTimeoutMs: 300 }, reading);
  using conn = await connect(server.port);
  await conn.write(
    encoder.encode("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200\r\n\r\n"),
  );
  const sending = trickle(conn, "x".repeat(200), 50);
  assert.equal(await closedWithin(conn, 5_000), true);
  await sending;
  await sleep(50);
  assert.deepEqual(bodies, [], "the handler was never called");
});

Deno.test("connections: a body sent in time is read whole, then a slow answer is not cut", async () => {
  const reading: ConnectionHandler = async (_request, _completed, body) => {
    const text = new TextDecoder().decode(body);
    await sleep(400); // longer than the body deadline: the body was read, so it no longer runs
    return new Response(`got ${text.length}`);
  };
  await using server = pool({ bodyTimeoutMs: 200 }, reading);
  const answer = await fetch(`http://127.0.0.1:${server.port}/`, {
    method: "POST",
    body: "y".repeat(100),
  });
  assert.equal(await answer.text(), "got 100");
});

Deno.test("connections: a body over the size cap is answered 413 without being read", async () => {
  let called = false;
  await using server = pool({}, () => {
    called = true;
    return Promise.resolve(new Response("read"));
  });
  using conn = await connect(server.port);
  await conn.write(
    encoder.encode(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${MAX_REQUEST_BODY_BYTES + 1}\r\n\r\n`,
    ),
  );
  assert.match(await readAnswer(conn), /^HTTP\/1\.1 413 /);
  assert.equal(called, false);
});

Deno.test("connections: past the cap a connection gets 503 with Retry-After; a cut one frees its place", async () => {
  await using server = pool({ maxConnections: 2, headerTimeoutMs: 300 }, hello);
  using first = await connect(server.port);
  using second = await connect(server.port);
  await sleep(50);
  using third = await connect(server.port);
  const refused = await readAnswer(third);
  assert.match(refused, /^HTTP\/1\.1 503 [\s\S]*Retry-After: 1/i);
  assert.equal(await closedWithin(first, 5_000), true);
  assert.equal(await closedWithin(second, 5_000), true);
  const answer = await fetch(`http://127.0.0.1:${server.port}/`);
  assert.equal(await answer.text(), "hello");
});

Deno.test("connections: a streamed answer longer than the idle deadline is sent whole", async () => {
  const streaming: ConnectionHandler = () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await sleep(100);
        if (sent++ === 8) return controller.close();
        controller.enqueue(encoder.encode(`data: ${sent}\n\n`));
      },
    });
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "text/event-stream" } }),
    );
  };
  await using server = pool({ idleTimeoutMs: 200, headerTimeoutMs: 200 }, streaming);
  const answer = await fetch(`http://127.0.0.1:${server.port}/`);
  const events = (await answer.text()).trim().split("\n\n");
  assert.deepEqual(events, [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `data: ${n}`));
});

Deno.test("connections: the HTTP mode serves under the limits it is given, and /healthz answers beside idle sockets", async () => {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, headerTimeoutMs: 300, maxConnections: 3 };
  await using server = serveHttp({
    tools: [],
    config: {
      baseUrl: new URL("http://127.0.0.1:9/"),
      token: TEST_TOKEN,
      timeoutMs: 1000,
    } as Parameters<typeof serveHttp>[0]["config"],
    address: { hostname: "127.0.0.1", port: 0 },
    limits,
  });
  assert.deepEqual(server.limits, limits);
  const port = Number(server.url.port);
  using idle = await connect(port);
  using idle2 = await connect(port);
  const health = await fetch(new URL("/healthz", server.url));
  assert.equal(health.status, 200);
  assert.equal((await health.json()).status, "ok");
  assert.equal(await closedWithin(idle, 5_000), true, "the idle socket is cut");
  assert.equal(await closedWithin(idle2, 5_000), true);
});
