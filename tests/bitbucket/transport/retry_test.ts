import assert from "node:assert/strict";
import { z } from "zod";
import {
  BitbucketClient,
  type BitbucketClientOptions,
} from "../../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../../src/bitbucket/transport/errors.ts";
import { DEFAULT_RETRY, nextDelay, retryAfterMs } from "../../../src/bitbucket/transport/retry.ts";
import { refs } from "../../../testing/cases/refs.ts";
import { type Route, startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import { connect, firstText, TEST_TOKEN } from "../../../testing/harness.ts";

const Any = z.unknown();
const PATH = "/api/latest/x";

/** A client whose waits are recorded, not slept. */
function recordingClient(url: string, extra: Partial<BitbucketClientOptions> = {}) {
  const waits: number[] = [];
  const client = new BitbucketClient({
    baseUrl: new URL(url),
    token: TEST_TOKEN,
    timeoutMs: 5000,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...extra,
  });
  return { client, waits };
}

async function failure(promise: Promise<unknown>): Promise<BitbucketError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof BitbucketError, `expected a BitbucketError, got ${error}`);
  return error;
}

for (const status of [429, 502, 503, 504]) {
  Deno.test(`a GET answered ${status} is tried again and succeeds: the fixture saw 2 attempts`, async () => {
    const fixture = startFixtureBitbucket([
      { method: "GET", path: PATH, status, body: "", once: true },
      { method: "GET", path: PATH, body: { ok: true } },
    ]);
    try {
      const { client } = recordingClient(fixture.url);
      assert.deepEqual((await client.request({ path: PATH, schema: Any })).body, { ok: true });
      assert.equal(fixture.requests.length, 2);
    } finally {
      await fixture.close();
    }
  });
}

for (const status of [400, 401, 403, 404, 409, 500, 501]) {
  Deno.test(`a GET answered ${status} is not tried again`, async () => {
    const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, status, body: "" }]);
    try {
      const { client } = recordingClient(fixture.url);
      await failure(client.request({ path: PATH, schema: Any }));
      assert.equal(fixture.requests.length, 1);
    } finally {
      await fixture.close();
    }
  });
}

Deno.test("a GET that keeps failing is tried 3 times in all, and the error says so", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, status: 503, body: "" }]);
  try {
    const { client, waits } = recordingClient(fixture.url);
    const error = await failure(client.request({ path: PATH, schema: Any }));
    assert.equal(fixture.requests.length, 3);
    assert.equal(waits.length, 2);
    assert.equal(error.kind, "server");
    assert.match(
      error.message,
      /^GET \/api\/latest\/x failed: 503 Service Unavailable: tried 3 times/,
    );
  } finally {
    await fixture.close();
  }
});

for (const method of ["POST", "PUT", "DELETE"] as const) {
  for (const fault of ["503", "dropped connection"] as const) {
    Deno.test(`a ${method} is never tried again, even after a ${fault}`, async () => {
      const route: Route = fault === "503"
        ? { method, path: PATH, status: 503, body: "" }
        : { method, path: PATH, fault: "drop" };
      const fixture = startFixtureBitbucket([route]);
      try {
        const { client } = recordingClient(fixture.url);
        await failure(client.request({ method, path: PATH, schema: Any, body: { a: 1 } }));
        assert.equal(fixture.requests.length, 1, `${method} was sent exactly once`);
      } finally {
        await fixture.close();
      }
    });
  }
}

Deno.test("Retry-After in seconds is waited for exactly", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: PATH, status: 429, body: "", headers: { "retry-after": "2" } },
  ]);
  try {
    const { client, waits } = recordingClient(fixture.url);
    const error = await failure(client.request({ path: PATH, schema: Any }));
    assert.deepEqual(waits, [2000, 2000]);
    assert.equal(fixture.requests.length, 3);
    assert.match(error.message, /429 Too Many Requests: Bitbucket asked to wait 2 s/);
  } finally {
    await fixture.close();
  }
});

Deno.test("Retry-After as an HTTP date is waited for until that time", async () => {
  const fixture = startFixtureBitbucket([{
    method: "GET",
    path: PATH,
    status: 503,
    body: "",
    once: true,
    headers: { "retry-after": new Date(Date.now() + 5000).toUTCString() },
  }, { method: "GET", path: PATH, body: { ok: true } }]);
  try {
    const { client, waits } = recordingClient(fixture.url);
    await client.request({ path: PATH, schema: Any });
    assert.equal(waits.length, 1);
    assert.ok(waits[0]! > 3000 && waits[0]! <= 5000, `waited ${waits[0]} ms`);
  } finally {
    await fixture.close();
  }
});

Deno.test("a Retry-After longer than the 10 s cap is not waited for: one attempt, and the error says how long Bitbucket asked", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: PATH, status: 429, body: "", headers: { "retry-after": "120" } },
  ]);
  try {
    const { client, waits } = recordingClient(fixture.url);
    const error = await failure(client.request({ path: PATH, schema: Any }));
    assert.deepEqual(waits, []);
    assert.equal(fixture.requests.length, 1);
    assert.equal(error.kind, "rate_limited");
    assert.match(
      error.message,
      /Bitbucket asked to wait 120 s \(Retry-After\).*hint: .*rate limiting/,
    );
  } finally {
    await fixture.close();
  }
});

Deno.test("the waits of one request add up to at most 15 s", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: PATH, status: 503, body: "", headers: { "retry-after": "8" } },
  ]);
  try {
    const { client, waits } = recordingClient(fixture.url, { timeoutMs: 60_000 });
    await failure(client.request({ path: PATH, schema: Any }));
    assert.deepEqual(waits, [8000], "a second 8 s wait would pass 15 s in all");
    assert.equal(fixture.requests.length, 2);
  } finally {
    await fixture.close();
  }
});

Deno.test("no wait runs past --timeout: a Retry-After beyond the deadline ends the request", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: PATH, status: 503, body: "", headers: { "retry-after": "3" } },
  ]);
  try {
    const { client, waits } = recordingClient(fixture.url, { timeoutMs: 2000 });
    const error = await failure(client.request({ path: PATH, schema: Any }));
    assert.deepEqual(waits, []);
    assert.equal(fixture.requests.length, 1);
    assert.equal(error.status, 503);
  } finally {
    await fixture.close();
  }
});

Deno.test("without Retry-After the backoff is 0.5 s then 1 s, each shortened by at most a quarter", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, status: 502, body: "" }]);
  try {
    const { client, waits } = recordingClient(fixture.url);
    await failure(client.request({ path: PATH, schema: Any }));
    assert.equal(waits.length, 2);
    assert.ok(waits[0]! >= 375 && waits[0]! <= 500, `first wait ${waits[0]}`);
    assert.ok(waits[1]! >= 750 && waits[1]! <= 1000, `second wait ${waits[1]}`);
  } finally {
    await fixture.close();
  }
});

Deno.test("cancelling during a wait between attempts ends the request at once", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, status: 503, body: "" }]);
  const controller = new AbortController();
  try {
    const client = new BitbucketClient({
      baseUrl: new URL(fixture.url),
      token: TEST_TOKEN,
      timeoutMs: 60_000,
      retry: { baseDelayMs: 30_000, maxDelayMs: 60_000, maxTotalDelayMs: 60_000 },
    });
    const pending = client.request({ path: PATH, schema: Any, signal: controller.signal });
    await fixture.until(() => fixture.requests.length === 1);
    controller.abort();
    const error = await failure(pending);
    assert.match(error.message, /cancelled by the client/);
    assert.equal(fixture.requests.length, 1);
  } finally {
    await fixture.close();
  }
});

Deno.test("a connection dropped mid-answer is tried again for a GET (3 attempts), and the error names the dropped connection", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, fault: "drop" }]);
  try {
    const { client } = recordingClient(fixture.url);
    const error = await failure(client.request({ path: PATH, schema: Any }));
    assert.equal(fixture.requests.length, 3);
    assert.equal(error.kind, "network");
    assert.match(error.message, /connection to http:\/\/127\.0\.0\.1:\d+ dropped.*tried 3 times/);
  } finally {
    await fixture.close();
  }
});

Deno.test("a connection closed before any answer is tried again for a GET, but not for a POST", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      await conn.read(new Uint8Array(4096)).catch(() => null);
      conn.close();
    }
  })();
  try {
    const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
    const { client } = recordingClient(url);
    const error = await failure(client.request({ path: PATH, schema: Any }));
    assert.equal(connections, 3);
    assert.match(error.message, /dropped.*tried 3 times/);
    await failure(client.request({ method: "POST", path: PATH, schema: Any, body: {} }));
    assert.equal(connections, 4, "the POST was sent once");
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("through a tool: list_branches rides out one 503 and answers normally", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: "/api/latest/projects/PROJ/repos/web/branches",
      status: 503,
      body: "",
      once: true,
    }, ...refs.routes],
  });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web", limit: 3 },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.equal(h.fixture.requests.length, 2);
});

Deno.test("retryAfterMs reads delay-seconds and HTTP dates, and nothing else", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(retryAfterMs("120", now), 120_000);
  assert.equal(retryAfterMs(" 0 ", now), 0);
  assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now), 30_000);
  assert.equal(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now), 0, "a past date means now");
  assert.equal(retryAfterMs(null, now), undefined);
  assert.equal(retryAfterMs("soon", now), undefined);
  assert.equal(retryAfterMs("-5", now), undefined);
});

Deno.test("nextDelay: 3 attempts, backoff doubling, no wait over 10 s, 15 s in all", () => {
  assert.deepEqual(DEFAULT_RETRY, {
    attempts: 3,
    baseDelayMs: 500,
    maxDelayMs: 10_000,
    maxTotalDelayMs: 15_000,
  });
  assert.equal(nextDelay(DEFAULT_RETRY, 1, 0, undefined, 0), 500);
  assert.equal(nextDelay(DEFAULT_RETRY, 2, 500, undefined, 0), 1000);
  assert.equal(nextDelay(DEFAULT_RETRY, 3, 1500, undefined, 0), undefined);
  assert.equal(nextDelay(DEFAULT_RETRY, 1, 0, 10_000), 10_000);
  assert.equal(nextDelay(DEFAULT_RETRY, 1, 0, 10_001), undefined);
  assert.equal(nextDelay(DEFAULT_RETRY, 2, 10_000, 5_001), undefined);
});
