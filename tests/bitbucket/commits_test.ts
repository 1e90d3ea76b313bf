import assert from "node:assert/strict";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../src/bitbucket/transport/errors.ts";
import { commitAt } from "../../src/bitbucket/commits.ts";
import { HEAD, source } from "../../testing/cases/source.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";

const COMMITS = "/api/latest/projects/PROJ/repos/web/commits";

/** Runs `body` with a client that talks to a fixture answering `routes`. */
async function withContext(
  routes: Parameters<typeof startFixtureBitbucket>[0],
  body: (
    ctx: Parameters<typeof commitAt>[0],
    requests: () => { path: string; query: Record<string, string> }[],
  ) => Promise<void>,
) {
  const fixture = startFixtureBitbucket(routes);
  try {
    const bitbucket = new BitbucketClient({
      baseUrl: new URL(fixture.url),
      token: TEST_TOKEN,
      timeoutMs: 2000,
    });
    await body(bitbucket, () => fixture.requests);
  } finally {
    await fixture.close();
  }
}

Deno.test("commitAt resolves a ref, or the default branch, to its newest commit", async () => {
  await withContext(source.routes, async (ctx, requests) => {
    assert.equal(await commitAt(ctx, "PROJ", "web", "main", "read"), HEAD);
    assert.equal(await commitAt(ctx, "PROJ", "web", undefined, "read"), HEAD);
    assert.deepEqual(requests().map((r) => [r.path, r.query]), [
      [COMMITS, { until: "main", limit: "1" }],
      [COMMITS, { limit: "1" }],
    ]);
  });
});

Deno.test("commitAt takes a full commit id as it is, without asking Bitbucket", async () => {
  await withContext([], async (ctx, requests) => {
    const sha256 = "a".repeat(64);
    assert.equal(await commitAt(ctx, "PROJ", "web", HEAD, "read"), HEAD);
    assert.equal(await commitAt(ctx, "PROJ", "web", sha256, "read"), sha256);
    assert.equal(requests().length, 0);
  });
});

Deno.test("commitAt of an unknown ref fails saying what was being done", async () => {
  await withContext([{
    method: "GET",
    path: COMMITS,
    status: 404,
    fixture: "errors/commit-not-found.json",
  }], async (ctx) => {
    const error = await commitAt(ctx, "PROJ", "web", "deadbeef", "read x").catch((e) => e);
    assert.ok(error instanceof BitbucketError);
    assert.equal(error.kind, "not_found");
    assert.match(
      error.message,
      /^Cannot read x: GET .*commits\?until=deadbeef&limit=1 failed: 404/,
    );
  });
});
