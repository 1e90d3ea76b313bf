/**
 * The client's one request API and the errors it throws: what a `Reply`
 * holds, that every error says the status and keeps what it wraps as `cause`,
 * `during`, and the advice keys whose words the embedding program supplies.
 */
import { multipartBody } from "../../../src/bitbucket/transport/multipart.ts";
import assert from "node:assert/strict";
import { z } from "zod";
import { NEUTRAL_HINTS } from "../../../src/bitbucket/transport/advice.ts";
import { basePath, restPrefix } from "../../../src/bitbucket/transport/base_path.ts";
import {
  BitbucketClient,
  type BitbucketClientOptions,
} from "../../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../../src/bitbucket/transport/errors.ts";
import { collectPages } from "../../../src/bitbucket/transport/paging.ts";
import { CLI_HINTS } from "../../../src/cli/hints.ts";
import { type Route, startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../../testing/harness.ts";

const PATH = "/api/latest/x";
const Item = z.object({ id: z.number() });

function clientFor(url: string, extra: Partial<BitbucketClientOptions> = {}) {
  return new BitbucketClient({
    baseUrl: new URL(url),
    token: TEST_TOKEN,
    timeoutMs: 2000,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>): Promise<BitbucketError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof BitbucketError, `expected a BitbucketError, got ${error}`);
  return error;
}

/** Runs `body` against a fixture Bitbucket answering exactly `routes`. */
async function withFixture(
  routes: Route[],
  body: (url: string, requests: () => { method: string; body: unknown }[]) => Promise<void>,
) {
  const fixture = startFixtureBitbucket(routes);
  try {
    await body(fixture.url, () => fixture.requests);
  } finally {
    await fixture.close();
  }
}

Deno.test("request: a GET by default, its body parsed with the schema, with the headers and the status", async () => {
  await withFixture([
    { method: "GET", path: PATH, query: { q: "a b" }, body: { id: 7 }, headers: { "X-A": "1" } },
  ], async (url, requests) => {
    const reply = await clientFor(url).request({ path: PATH, query: { q: "a b" }, schema: Item });
    assert.deepEqual(reply.body, { id: 7 });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get("x-a"), "1");
    assert.equal(requests()[0]?.method, "GET");
  });
});

Deno.test("request: a write sends its body as JSON; a 204 parses as null with z.unknown()", async () => {
  await withFixture([{ method: "DELETE", path: PATH, status: 204 }], async (url, requests) => {
    const reply = await clientFor(url).request({
      method: "DELETE",
      path: PATH,
      body: { version: 3 },
      schema: z.unknown(),
    });
    assert.equal(reply.status, 204);
    assert.equal(reply.body, null);
    assert.deepEqual(requests()[0]?.body, { version: 3 });
  });
});

Deno.test("request: a form is sent as multipart/form-data with X-Atlassian-Token, and never retried", async () => {
  await withFixture([
    { method: "PUT", path: PATH, status: 503, once: true, fixture: "errors/server-error.json" },
    { method: "PUT", path: PATH, body: { id: 1 } },
  ], async (url) => {
    // The first PUT is answered 503, any later one 200.
    const client = clientFor(url, { retry: { baseDelayMs: 1 } });
    const form = () =>
      multipartBody([
        { name: "message", value: "Edit" },
        { name: "content", value: "a\nb\r\n", file: { name: "x.txt", type: "text/plain" } },
      ]);
    const error = await failure(
      client.request({ method: "PUT", path: PATH, form: form(), schema: Item }),
    );
    assert.equal(error.status, 503, "a write is sent once, even after a 503");
    const reply = await client.request({ method: "PUT", path: PATH, form: form(), schema: Item });
    assert.deepEqual(reply.body, { id: 1 });
  });
  const seen = startFixtureBitbucket([{ method: "PUT", path: PATH, body: { id: 1 } }]);
  try {
    const form = multipartBody([
      { name: "branch", value: "main" },
      { name: "content", value: "a\nb\r\n", file: { name: "x.txt", type: "text/plain" } },
    ]);
    await clientFor(seen.url).request({ method: "PUT", path: PATH, form, schema: Item });
    const [request] = seen.requests;
    assert.equal(seen.requests.length, 1);
    assert.match(request?.headers["content-type"] ?? "", /^multipart\/form-data; boundary=/);
    assert.equal(request?.headers["x-atlassian-token"], "no-check");
    assert.deepEqual(request?.form, { branch: "main", content: "a\nb\r\n" });
    assert.equal(request?.body, undefined);
  } finally {
    await seen.close();
  }
});

Deno.test("request: a JSON body and a form together are refused before anything is sent", async () => {
  await withFixture([], async (url, requests) => {
    await assert.rejects(
      clientFor(url).request({
        method: "PUT",
        path: PATH,
        body: { a: 1 },
        form: multipartBody([]),
        schema: Item,
      }),
      TypeError,
    );
    assert.equal(requests().length, 0);
  });
});

Deno.test("request: a 200 that does not fit the schema says 200, names the field, and keeps the zod error as cause", async () => {
  await withFixture([{ method: "GET", path: PATH, body: { id: "seven" } }], async (url) => {
    const error = await failure(clientFor(url).request({ path: PATH, schema: Item }));
    assert.equal(error.kind, "invalid_response");
    assert.equal(error.status, 200);
    assert.match(
      error.message,
      /^GET \/api\/latest\/x failed: 200 OK: unexpected response shape at id: /,
    );
    assert.ok(error.cause instanceof z.ZodError);
  });
});

Deno.test("request: malformed JSON keeps the parse error as cause", async () => {
  await withFixture([{ method: "GET", path: PATH, body: "{not json" }], async (url) => {
    const error = await failure(clientFor(url).request({ path: PATH, schema: Item }));
    assert.equal(error.status, 200);
    assert.match(error.message, /200 OK: the body is not valid JSON/);
    assert.ok(error.cause instanceof SyntaxError);
  });
});

Deno.test("request: a status error has the status and no cause; a network failure keeps fetch's error", async () => {
  await withFixture([{ method: "GET", path: PATH, status: 404, body: "" }], async (url) => {
    const error = await failure(clientFor(url).request({ path: PATH, schema: Item }));
    assert.equal(error.status, 404);
    assert.equal(error.kind, "not_found");
    assert.equal("cause" in error, false);
  });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const error = await failure(
    clientFor(`http://127.0.0.1:${port}`).request({ path: PATH, schema: Item }),
  );
  assert.equal(error.kind, "network");
  assert.ok(error.cause instanceof Error, "the fetch failure is the cause");
});

Deno.test("request: the deadline and a cancel keep the abort reason as cause", async () => {
  await withFixture([{ method: "GET", path: PATH, body: {}, delayMs: 1000 }], async (url) => {
    const late = await failure(
      clientFor(url, { timeoutMs: 50 }).request({ path: PATH, schema: Item }),
    );
    assert.equal(late.kind, "timeout");
    assert.equal(late.advice, "raise_timeout");
    assert.ok(late.cause instanceof DOMException);
    const controller = new AbortController();
    const reason = new Error("the caller went away");
    const pending = clientFor(url).request({ path: PATH, schema: Item, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    const cancelled = await failure(pending);
    assert.match(cancelled.message, /cancelled by the client/);
    assert.equal(cancelled.cause, reason);
  });
});

Deno.test("getBytes takes one options object", async () => {
  await withFixture([
    { method: "GET", path: PATH, query: { at: "main" }, body: "0123456789" },
  ], async (url) => {
    const read = await clientFor(url).getBytes({ path: PATH, maxBytes: 4, query: { at: "main" } });
    assert.equal(new TextDecoder().decode(read.bytes), "0123");
    assert.equal(read.complete, false);
    assert.equal(read.status, 200);
  });
});

Deno.test("collectPages walks the pages through request", async () => {
  await withFixture([
    {
      method: "GET",
      path: PATH,
      query: { start: "0" },
      body: { values: [{ id: 1 }], isLastPage: false, nextPageStart: 1 },
    },
    {
      method: "GET",
      path: PATH,
      query: { start: "1" },
      body: { values: [{ id: 2 }], isLastPage: true },
    },
  ], async (url) => {
    const got = await collectPages(clientFor(url), PATH, Item, { limit: 5 });
    assert.deepEqual(got, { values: [{ id: 1 }, { id: 2 }], isLastPage: true });
  });
});

Deno.test("during: the same failure said of what the caller was doing, with the original as cause", async () => {
  await withFixture([{
    method: "GET",
    path: PATH,
    status: 404,
    body: { errors: [{ message: "No such file", exceptionName: "NoSuchPathException" }] },
  }], async (url) => {
    const original = await failure(clientFor(url).request({ path: PATH, schema: Item }));
    const error = original.during(`read "src/x.ts" at the default branch in PROJ/web`);
    assert.ok(error instanceof BitbucketError);
    assert.equal(
      error.message,
      `Cannot read "src/x.ts" at the default branch in PROJ/web: ${original.message}`,
    );
    assert.match(
      error.message,
      /^Cannot read "src\/x\.ts" at the default branch in PROJ\/web: GET \/api\/latest\/x failed: 404 Not Found: No such file/,
    );
    assert.equal(error.cause, original);
    for (const key of ["kind", "status", "method", "path", "transient", "retryAfterMs"] as const) {
      assert.equal(error[key], original[key], key);
    }
    assert.deepEqual(error.details, original.details);
    assert.equal(error.afterAttempts(2).message.startsWith("Cannot read"), true);
    assert.equal(
      error.during("show the file").message,
      `Cannot show the file: ${error.message}`,
      "during nests",
    );
  });
});

Deno.test("during with a hint: the caller's fix in place of the kind's, the rest unchanged", async () => {
  await withFixture([{
    method: "PUT",
    path: PATH,
    status: 409,
    body: { errors: [{ message: "Changed" }] },
  }], async (url) => {
    const original = await failure(
      clientFor(url).request({ method: "PUT", path: PATH, body: {}, schema: Item }),
    );
    assert.match(original.message, /\(hint: the resource changed or already exists;/);
    const error = original.during("commit x", "read the file again");
    assert.equal(
      error.message,
      "Cannot commit x: PUT /api/latest/x failed: 409 Conflict: Changed (hint: read the file again)",
    );
    assert.equal(error.kind, "conflict");
    assert.equal(error.cause, original);
  });
});

Deno.test("advice: without hints the client's words name no flag and no variable; with the CLI's, they are the CLI's", async () => {
  const routes: Route[] = [
    { method: "GET", path: "/api/latest/denied", status: 401, body: "" },
    { method: "GET", path: "/api/latest/page", body: "<html><title>Log in</title></html>" },
    { method: "GET", path: "/api/latest/empty", status: 204 },
    { method: "GET", path: "/api/latest/big", body: { padding: "p".repeat(2048) } },
    {
      method: "GET",
      path: "/api/latest/away",
      status: 302,
      headers: { location: "https://elsewhere.example.com/" },
    },
    {
      method: "GET",
      path: "/api/latest/outside",
      status: 302,
      headers: { location: "/jira/" },
    },
  ];
  const expected = {
    "/api/latest/denied": "renew_token",
    "/api/latest/page": "check_not_web_page",
    "/api/latest/empty": "check_not_proxy",
    "/api/latest/big": "raise_response_cap",
    "/api/latest/away": "check_base_url",
    "/api/latest/outside": "check_context_path",
  } as const;
  await withFixture(routes, async (url) => {
    for (const hints of [undefined, CLI_HINTS]) {
      const client = clientFor(url, { hints, maxResponseBytes: 1024 });
      for (const [path, advice] of Object.entries(expected)) {
        const error = await failure(client.request({ path, schema: Item }));
        assert.equal(error.advice, advice, path);
        const words = (hints ?? NEUTRAL_HINTS)[advice];
        assert.ok(error.message.includes(words), `${path}: ${error.message} has "${words}"`);
        if (!hints) assert.doesNotMatch(error.message, /--[a-z]|BITBUCKET_|DENO_/, path);
      }
    }
  });
});

Deno.test("basePath and restPrefix: a root install and a context path, trailing slashes trimmed", () => {
  assert.equal(basePath(new URL("https://b.example.com/")), "");
  assert.equal(basePath(new URL("https://example.com/bitbucket//")), "/bitbucket");
  assert.equal(restPrefix(new URL("https://b.example.com")), "/rest");
  assert.equal(restPrefix(new URL("https://example.com/bitbucket/")), "/bitbucket/rest");
});
