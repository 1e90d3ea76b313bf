import assert from "node:assert/strict";
import { collectWhenIdle, fullCollector } from "../../src/server/idle_collector.ts";

Deno.test("this Deno gives the idle collector V8's full collector, and it frees garbage", async () => {
  const gc = fullCollector();
  assert.equal(typeof gc, "function");
  let garbage: unknown[] = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `value ${i}` }));
  const dropped = new WeakRef(garbage);
  const before = Deno.memoryUsage().heapUsed;
  garbage = [];
  // A WeakRef keeps its target through the job that made it: collect in a later one.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc!();
  assert.ok(Deno.memoryUsage().heapUsed < before, "heap shrinks after a full collection");
  assert.equal(dropped.deref(), undefined, "the collection freed the dropped array itself");
});

/** A fetch that answers when told to, so a test decides when requests end. */
function controllableFetch() {
  const pending: (() => void)[] = [];
  const fetchLike =
    (() =>
      new Promise<Response>((resolve) =>
        pending.push(() => resolve(new Response("{}")))
      )) as typeof fetch;
  return { fetchLike, finishOne: () => pending.shift()?.() };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("the collector runs once after requests go quiet, never while one is in flight", async () => {
  let collections = 0;
  const { fetchLike, finishOne } = controllableFetch();
  const wrapped = collectWhenIdle(fetchLike, 30, () => collections++);
  const first = wrapped("http://127.0.0.1/");
  const second = wrapped("http://127.0.0.1/");
  finishOne();
  await first;
  await tick(60);
  assert.equal(collections, 0, "a request is still in flight");
  finishOne();
  await second;
  await tick(60);
  assert.equal(collections, 1, "one collection once all requests ended and the quiet time passed");
  await tick(60);
  assert.equal(collections, 1, "and no more while idle");
});

Deno.test("a new request before the quiet time ends postpones the collection", async () => {
  let collections = 0;
  const { fetchLike, finishOne } = controllableFetch();
  const wrapped = collectWhenIdle(fetchLike, 50, () => collections++);
  const first = wrapped("http://127.0.0.1/");
  finishOne();
  await first;
  await tick(20);
  const second = wrapped("http://127.0.0.1/");
  finishOne();
  await second;
  await tick(35);
  assert.equal(collections, 0, "the second request restarted the quiet time");
  await tick(40);
  assert.equal(collections, 1);
});
