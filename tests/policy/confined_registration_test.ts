/**
 * Code search under a confinement (src/policy/confined_registration.ts): a
 * scope word in the query is refused before anything reaches Bitbucket, and
 * a hit outside the confinement never reaches the caller.
 */
import assert from "node:assert/strict";
import { Confinement } from "../../src/policy/confinement.ts";
import { SEARCH, search } from "../../testing/cases/search.ts";
import { connect } from "../../testing/harness.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";

const PROJ = new Confinement(["PROJ"], []);
const WEB = new Confinement([], [{ project: "PROJ", repo: "web" }]);

interface Result {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Queries that each widen a confined search with a scope word, in every place and case. */
const WIDENING = [
  "project:OTHER secret",
  "secret OR project:OTHER",
  "secret AND repo:secret-repo",
  "secret NOT project:PROJ",
  "secret (project:OTHER)",
  "secret OR (foo AND repo:secret-repo)",
  "(secret) project:OTHER",
  '"project:OTHER" secret',
  "secret -repo:web",
  "PROJECT:OTHER secret",
  "secret Repo:secret-repo",
  "secret\tproject:OTHER",
  "secret\nrepo:x",
  "secret project :OTHER",
  "secret project\\:OTHER",
  "secret,project:OTHER",
];

Deno.test("confined code search: a project: or repo: word anywhere in the query is refused with no request", async () => {
  for (const confinement of [PROJ, WEB]) {
    await using h = await connect({ routes: search.routes, confinement });
    for (const query of WIDENING) {
      const result = await h.client.callTool({
        name: "search_code",
        arguments: { query },
      }) as Result;
      assert.equal(result.isError, true, `${confinement.describe()}: ${JSON.stringify(query)}`);
      const text = result.content[0]?.text ?? "";
      assert.match(text, /(project|repo): word in the query/, text);
      assert.match(text, new RegExp(`confinement to ${confinement.describe()}`), text);
      assert.match(text, /hint: leave it out and use the project\/repo arguments/, text);
    }
    assert.deepEqual(h.fixture.requests, [], confinement.describe());
  }
});

Deno.test("confined code search: words that only contain project or repo still search", async () => {
  await using h = await connect({ routes: search.routes, confinement: PROJ });
  for (const query of ["greet", "myrepo:x", "subproject:y", "project repo"]) {
    const result = await h.client.callTool({
      name: "search_code",
      arguments: { query },
    }) as Result;
    assert.ok(!result.isError, `${query}: ${JSON.stringify(result)}`);
  }
  assert.deepEqual(
    h.fixture.requests.map((r) => (r.body as { query: string }).query),
    [
      "project:PROJ greet",
      "project:PROJ myrepo:x",
      "project:PROJ subproject:y",
      "project:PROJ project repo",
    ],
  );
});

/** A search answer with a hit in PROJ/web and one in OTHER/secret-repo. */
async function answerWithOutsideHit(): Promise<Route> {
  const answer = JSON.parse(await Deno.readTextFile("fixtures/search/code-greet.json"));
  const inside = answer.code.values[0];
  const outside = structuredClone(inside);
  outside.repository.slug = "secret-repo";
  outside.repository.project.key = "OTHER";
  outside.file = "secrets.env";
  answer.code.values = [inside, outside];
  answer.code.count = 2;
  return { method: "POST", path: SEARCH, body: answer };
}

Deno.test("confined code search: a hit outside the confinement is dropped from the result", async () => {
  for (const confinement of [PROJ, WEB]) {
    await using h = await connect({ routes: [await answerWithOutsideHit()], confinement });
    const result = await h.client.callTool({
      name: "search_code",
      arguments: { query: "greet" },
    }) as Result;
    assert.ok(!result.isError, JSON.stringify(result));
    const hits = result.structuredContent?.results as { repository: string }[];
    assert.deepEqual(hits.map((hit) => hit.repository), ["PROJ/web"]);
    assert.equal(result.structuredContent?.count, undefined, "no total counting the dropped hit");
    const text = result.content[0]?.text ?? "";
    assert.doesNotMatch(text, /OTHER|secret-repo|secrets\.env/);
  }
});

Deno.test("unconfined code search: scope words pass through to Bitbucket, every hit shown", async () => {
  await using h = await connect({ routes: [await answerWithOutsideHit()] });
  const result = await h.client.callTool({
    name: "search_code",
    arguments: { query: "secret OR project:OTHER" },
  }) as Result;
  assert.ok(!result.isError, JSON.stringify(result));
  assert.equal((h.fixture.requests[0]?.body as { query: string }).query, "secret OR project:OTHER");
  const hits = result.structuredContent?.results as { repository: string }[];
  assert.deepEqual(hits.map((hit) => hit.repository), ["PROJ/web", "OTHER/secret-repo"]);
});
