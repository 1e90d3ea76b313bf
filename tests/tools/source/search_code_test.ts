import assert from "node:assert/strict";
import { plainHitText } from "../../../src/tools/source/search_code.ts";
import { SEARCH, search } from "../../../testing/cases/search.ts";
import type { Route } from "../../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../../testing/harness.ts";

type Results = {
  results: {
    repository: string;
    path: string;
    hitCount?: number;
    lines: { line: number; text: string }[];
  }[];
  count?: number;
  isLastPage: boolean;
  nextPageStart?: number;
};

const answering = (fixture: string): Route[] => [{ method: "POST", path: SEARCH, fixture }];

Deno.test("search_code in one repository puts the scope in the query and gives the matching lines as plain text", async () => {
  await using h = await connect({ routes: search.routes });
  const result = await h.client.callTool({
    name: "search_code",
    arguments: { query: "greet", project: "PROJ", repo: "web" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    results: [{
      repository: "PROJ/web",
      path: "src/app.ts",
      hitCount: 1,
      lines: [{ line: 4, text: "export function greet(name: string): string {" }],
    }],
    count: 1,
    isLastPage: true,
  });
  const [request] = h.fixture.requests;
  assert.deepEqual([request?.method, request?.path], ["POST", SEARCH]);
  assert.deepEqual(request?.body, {
    query: "project:PROJ repo:web greet",
    entities: { code: { start: 0, limit: 25 } },
    limits: { primary: 25, secondary: 10 },
  });
  assert.equal(request?.headers["content-type"], "application/json");
});

Deno.test("search_code across Bitbucket pages on, keeps every hit group, and decodes HTML escapes", async () => {
  await using h = await connect({ routes: answering("search/code-paged.json") });
  const result = await h.client.callTool({
    name: "search_code",
    arguments: { query: "format", limit: 2, start: 0 },
  });
  const out = result.structuredContent as Results;
  assert.deepEqual(out.results.map((r) => [r.repository, r.path, r.hitCount]), [
    ["PROJ/web", "src/lib/format.ts", 1],
    ["PROJ/web-api", "src/render.ts", 2],
  ]);
  assert.deepEqual(out.results[1]?.lines, [
    { line: 7, text: 'import { format } from "./format";' },
    { line: 19, text: "  if (a < b && format(a) !== b) {" },
  ]);
  assert.deepEqual([out.count, out.isLastPage, out.nextPageStart], [314, false, 2]);
  assert.deepEqual(h.fixture.requests[0]?.body, {
    query: "format",
    entities: { code: { start: 0, limit: 2 } },
    limits: { primary: 2, secondary: 10 },
  });
});

Deno.test("search_code in a project scopes the query to it", async () => {
  await using h = await connect({ routes: search.routes });
  await h.client.callTool({
    name: "search_code",
    arguments: { query: "greet", project: "PROJ", start: 25 },
  });
  const body = h.fixture.requests[0]?.body as { query: string; entities: unknown };
  assert.equal(body.query, "project:PROJ greet");
  assert.deepEqual(body.entities, { code: { start: 25, limit: 25 } });
});

Deno.test("search_code that finds nothing is an empty, last page", async () => {
  await using h = await connect({ routes: answering("search/code-none.json") });
  const result = await h.client.callTool({ name: "search_code", arguments: { query: "nothing" } });
  assert.deepEqual(result.structuredContent, { results: [], count: 0, isLastPage: true });
});

const refused = [
  { what: "repo without project", args: { repo: "web" }, message: /project: required with repo/ },
  {
    what: "a project key that would add search terms",
    args: { project: "PROJ lang:java" },
    message: /project: must be a project key or repository slug/,
  },
  { what: "a limit over 100", args: { limit: 101 }, message: /limit/ },
];
for (const c of refused) {
  Deno.test(`search_code refuses ${c.what} before any request`, async () => {
    await using h = await connect({ routes: search.routes });
    const result = await h.client.callTool({
      name: "search_code",
      arguments: { query: "greet", ...c.args },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}

const unavailable: [string, Route][] = [
  ["no search endpoint (404, an HTML page)", {
    method: "POST",
    path: SEARCH,
    status: 404,
    body: "<html><body><h1>404 Not Found</h1></body></html>",
    headers: { "content-type": "text/html;charset=UTF-8" },
  }],
  ["search switched off (503)", {
    method: "POST",
    path: SEARCH,
    status: 503,
    fixture: "errors/server-error.json",
  }],
  ["an answer without code results", {
    method: "POST",
    path: SEARCH,
    body: { scope: { type: "GLOBAL" } },
  }],
];
for (const [what, route] of unavailable) {
  Deno.test(`search_code on a Bitbucket with ${what} is an error saying there is no code search`, async () => {
    await using h = await connect({ routes: [route] });
    const result = await h.client.callTool({ name: "search_code", arguments: { query: "greet" } });
    assert.equal(result.isError, true);
    const text = firstText(result);
    assert.match(text, /^Cannot search code for "greet": /);
    assert.match(
      text,
      /hint: this Bitbucket has no code search .* list_files and .* get_file_content/,
    );
    assert.equal(h.fixture.requests.length, 1, "a POST is never retried");
  });
}

Deno.test("search_code reports any other failure as it is", async () => {
  await using h = await connect({
    routes: [{ method: "POST", path: SEARCH, status: 401, fixture: "errors/unauthorized.json" }],
  });
  const result = await h.client.callTool({
    name: "search_code",
    arguments: { query: "greet", project: "PROJ" },
  });
  const text = firstText(result);
  assert.match(
    text,
    /^Cannot search code for "greet" in PROJ: POST \/search\/latest\/search failed: 401/,
  );
  assert.doesNotMatch(text, /no code search/);
});

const plain: [string, string][] = [
  ["public class <em>PaymentIntent</em>", "public class PaymentIntent"],
  [
    "&#x2F;** a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39; &apos;e&apos;",
    "/** a <b> & \"c\" 'd' 'e'",
  ],
  ["&lt;em&gt;literal&lt;/em&gt;", "<em>literal</em>"],
  ["&#x1F600; &#9731;", "😀 ☃"],
  ["&#x110000; stays", "&#x110000; stays"],
];
for (const [text, expected] of plain) {
  Deno.test(`plainHitText: ${JSON.stringify(text)}`, () =>
    assert.equal(plainHitText(text), expected));
}
