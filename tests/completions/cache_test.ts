/**
 * src/completions/cache.ts: answers are reused until they expire, the cache
 * stays within its bound, a failed answer is not kept, and a caller is known
 * by a salted hash of their token (never the token) or by the one client a
 * stdio server holds. Time is driven by the test, never waited for.
 */
import assert from "node:assert/strict";
import type { ServerContext } from "@modelcontextprotocol/server";
import { ANSWER_TTL_MS, AnswerCache, callerKey } from "../../src/completions/cache.ts";

/** A clock the test moves. */
function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => now += ms };
}

/** A counter of how often an answer was asked for. */
function asker() {
  let asked = 0;
  return {
    get asked() {
      return asked;
    },
    ask: (value: string) => () => {
      asked++;
      return Promise.resolve(value);
    },
  };
}

Deno.test("completion cache: an answer is reused for 30 s, then asked for again", async () => {
  const time = clock();
  const cache = new AnswerCache({ now: time.now });
  const a = asker();
  assert.equal(await cache.through("k", a.ask("one")), "one");
  time.advance(ANSWER_TTL_MS - 1);
  assert.equal(await cache.through("k", a.ask("two")), "one");
  assert.equal(a.asked, 1);
  time.advance(1);
  assert.equal(cache.peek("k"), undefined);
  assert.equal(await cache.through("k", a.ask("three")), "three");
  assert.equal(a.asked, 2);
  assert.equal(ANSWER_TTL_MS, 30_000);
});

Deno.test("completion cache: it holds at most its bound, dropping expired answers, then the oldest", async () => {
  const time = clock();
  const cache = new AnswerCache({ now: time.now, maxEntries: 3, ttlMs: 100 });
  const a = asker();
  await cache.through("old", a.ask("x"));
  time.advance(100); // "old" has expired
  await cache.through("b", a.ask("b"));
  await cache.through("c", a.ask("c"));
  await cache.through("d", a.ask("d"));
  assert.equal(cache.size, 3);
  assert.equal(cache.peek("old"), undefined);
  await cache.through("e", a.ask("e"));
  assert.equal(cache.size, 3);
  assert.equal(cache.peek("b"), undefined, "the oldest went");
  assert.equal(await cache.peek("e"), "e");
});

Deno.test("completion cache: a failed answer is not kept, so the next keystroke asks again", async () => {
  const cache = new AnswerCache();
  await assert.rejects(cache.through("k", () => Promise.reject(new Error("Bitbucket down"))));
  assert.equal(cache.peek("k"), undefined);
  assert.equal(await cache.through("k", () => Promise.resolve("up")), "up");
});

/** A request context as the SDK gives it over HTTP: the request's token in `authInfo`. */
function overHttp(token: string, clientId = "bitbucket-mcp:caller-token"): ServerContext {
  return { http: { authInfo: { token, clientId, scopes: [] } } } as unknown as ServerContext;
}

Deno.test("caller keys: one per token (hashed, never the token), one per stdio client", async () => {
  const client = {};
  const a = await callerKey(overHttp("token-A-SECRET"), {});
  assert.equal(
    await callerKey(overHttp("token-A-SECRET"), {}),
    a,
    "a new client per call, the same caller",
  );
  assert.notEqual(await callerKey(overHttp("token-B-SECRET"), {}), a);
  assert.notEqual(await callerKey(overHttp("token-A-SECRET", "server-wide"), {}), a);
  assert.match(a, /^token:[0-9a-f]{64}$/);
  assert.ok(!a.includes("SECRET"));
  const stdio = {} as ServerContext;
  const key = await callerKey(stdio, client);
  assert.equal(await callerKey(stdio, client), key);
  assert.notEqual(await callerKey(stdio, {}), key);
});
