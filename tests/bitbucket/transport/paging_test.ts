/**
 * src/bitbucket/paging.ts against listings as real servers page them: a
 * resource that ignores `start` (not paged, like a pull request's changes)
 * is cut where the caller is, and a `nextPageStart` that does not move on
 * ends the walk instead of reading the same page again.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";
import { collectPages } from "../../../src/bitbucket/transport/paging.ts";
import { type Route, startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";

const ITEMS = Array.from({ length: 7 }, (_, i) => ({ id: i }));
const Item = z.object({ id: z.number() });

async function collect(route: Route, paging: { start?: number; limit: number }) {
  const fixture = startFixtureBitbucket([route]);
  try {
    const client = new BitbucketClient({
      baseUrl: new URL(fixture.url),
      token: "t",
      timeoutMs: 5000,
    });
    const out = await collectPages(client, "/api/latest/things", Item, paging);
    return { out, requests: fixture.requests.length };
  } finally {
    await fixture.close();
  }
}

Deno.test("a listing that ignores start is read from where it answers and cut where the caller is", async () => {
  const notPaged: Route = {
    method: "GET",
    path: "/api/latest/things",
    respond: (seen) => {
      const limit = Number(seen.query.limit);
      const values = ITEMS.slice(0, limit);
      return { values, start: 0, size: values.length, limit, isLastPage: limit >= ITEMS.length };
    },
  };
  const middle = await collect(notPaged, { start: 2, limit: 3 });
  assert.deepEqual(middle.out.values.map((v) => v.id), [2, 3, 4]);
  assert.equal(middle.out.isLastPage, false);
  assert.equal(middle.out.nextPageStart, 5);
  const end = await collect(notPaged, { start: 5, limit: 25 });
  assert.deepEqual(end.out.values.map((v) => v.id), [5, 6]);
  assert.equal(end.out.isLastPage, true);
});

Deno.test("a nextPageStart that does not move on ends the walk, nothing read twice", async () => {
  const stuck: Route = {
    method: "GET",
    path: "/api/latest/things",
    respond: (seen) => ({
      values: ITEMS.slice(0, 2),
      start: Number(seen.query.start),
      isLastPage: false,
      nextPageStart: Number(seen.query.start),
    }),
  };
  const { out, requests } = await collect(stuck, { limit: 25 });
  assert.deepEqual(out.values.map((v) => v.id), [0, 1]);
  assert.equal(out.isLastPage, true);
  assert.equal(requests, 1);
});
