/**
 * Resources through a real client, on both eras in memory and over HTTP: the
 * templates listed, each read against the fixture Bitbucket with its mime
 * type and the tool's own content, the caller's pull requests listed, and bad
 * URIs refused (-32602) before any request.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { DASHBOARD_BY_ROLE, PR_HEAD_COMMIT, PR_HEAD_SHORT } from "../../testing/cases/features.ts";
import { commits, PR_HEAD } from "../../testing/cases/commits.ts";
import { PR, pullRequests, REPO } from "../../testing/cases/pull_requests.ts";
import { APP_TS, HEAD, source } from "../../testing/cases/source.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";
import { ESCAPED_META, UNTRUSTED_META } from "../../src/tools/kit/define.ts";
import { connect, firstText, TEST_TOKEN } from "../../testing/harness.ts";
import { connectHttp, type Era, startHttp } from "../support/http_server.ts";

const ERAS: Era[] = ["modern", "legacy"];
const BASE = "bitbucket://projects/PROJ/repos/web";

/** Every route a read below needs. */
const ROUTES: Route[] = [
  ...DASHBOARD_BY_ROLE,
  ...PR_HEAD_COMMIT,
  {
    method: "GET",
    path: `${REPO}/raw/docs/read%20me%20%C3%BC.md`,
    fixture: "source/app.ts.txt",
    headers: { "content-type": "text/plain;charset=UTF-8" },
  },
  ...pullRequests.routes,
  ...source.routes,
  ...commits.routes,
];

/** A read's result as the client got it. */
interface Read {
  ttlMs?: number;
  cacheScope?: string;
  contents: { uri: string; mimeType?: string; text?: string }[];
}

/** The requests the fixture saw, as `METHOD path query`. */
function seen(h: { fixture: { requests: { method: string; path: string; query: unknown }[] } }) {
  return h.fixture.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`);
}

/** The error a call rejected with: its JSON-RPC code and message. */
async function failure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error("the call succeeded");
}

for (const era of ERAS) {
  Deno.test(`resources, ${era}: templates are listed with their mime types; lists never change`, async () => {
    await using h = await connect({ era });
    const caps = h.client.getServerCapabilities();
    assert.deepEqual(caps?.resources, { listChanged: false });
    assert.deepEqual(caps?.completions, {});
    const listed = await h.client.listResourceTemplates() as {
      ttlMs?: number;
      cacheScope?: string;
      resourceTemplates: { name: string; uriTemplate: string; mimeType?: string }[];
    };
    assert.deepEqual(
      listed.resourceTemplates.map((
        t,
      ) => [t.name, t.uriTemplate.replace(/^.*\{repo\}/, ""), t.mimeType]),
      [
        ["pull_request", "/pull-requests/{id}", "application/json"],
        ["pull_request_diff", "/pull-requests/{id}/diff", "text/x-diff"],
        ["pull_request_threads", "/pull-requests/{id}/threads", "text/markdown"],
        ["file", "/files/{+path}{?at}", "text/plain"],
        ["commit", "/commits/{id}", "application/json"],
      ],
    );
    assert.ok(
      listed.resourceTemplates.every((t) =>
        t.uriTemplate.startsWith("bitbucket://projects/{project}/repos/{repo}/")
      ),
    );
    // 2026-07-28 cache hints: the templates never change while the server runs; legacy has none.
    assert.deepEqual(
      [listed.ttlMs, listed.cacheScope],
      era === "modern" ? [3_600_000, "private"] : [undefined, undefined],
    );
    assert.deepEqual(h.fixture.requests, []);
  });

  Deno.test(`resources, ${era}: a read is marked as Bitbucket's, as a tool result is`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const read = await h.client.readResource({ uri: `${BASE}/pull-requests/42` });
    const tool = await h.client.callTool({
      name: "get_pull_request",
      arguments: { project: "PROJ", repo: "web", pr_id: 42 },
    });
    assert.equal(read._meta?.[UNTRUSTED_META], true);
    assert.deepEqual(read._meta?.[UNTRUSTED_META], tool._meta?.[UNTRUSTED_META]);
  });

  Deno.test(`resources, ${era}: a read shows hidden characters in names escaped, noted as a tool result notes them`, async () => {
    const pr = JSON.parse(Deno.readTextFileSync("fixtures/pull_requests/pr-42.json"));
    const branch = "feature/\u202Elogin\u200B";
    pr.fromRef = { ...pr.fromRef, id: `refs/heads/${branch}`, displayId: branch };
    await using h = await connect({ era, routes: [{ method: "GET", path: PR, body: pr }] });
    const read = await h.client.readResource({ uri: `${BASE}/pull-requests/42` }) as Read & {
      _meta?: Record<string, unknown>;
    };
    const shown = "feature/\\u{202E}login\\u{200B}";
    const { pullRequest } = JSON.parse(read.contents[0]!.text!);
    assert.deepEqual([pullRequest.fromRef.id, pullRequest.fromRef.displayId], [
      `refs/heads/${shown}`,
      shown,
    ]);
    assert.deepEqual(read._meta?.[ESCAPED_META], { ids: [`refs/heads/${shown}`, shown], count: 2 });
  });

  Deno.test(`resources, ${era}: a pull request reads as get_pull_request's payload, as JSON`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const uri = `${BASE}/pull-requests/42`;
    const read = await h.client.readResource({ uri }) as Read;
    assert.deepEqual(read.contents.map((c) => [c.uri, c.mimeType]), [[uri, "application/json"]]);
    assert.deepEqual(seen(h), [`GET ${PR} {}`]);
    const tool = await h.client.callTool({
      name: "get_pull_request",
      arguments: { project: "PROJ", repo: "web", pr_id: 42 },
    });
    assert.deepEqual(JSON.parse(read.contents[0]!.text!), tool.structuredContent);
    assert.equal(
      JSON.parse(read.contents[0]!.text!).pullRequest.title,
      "Validate the login form before submitting",
    );
    assert.deepEqual(
      [read.ttlMs, read.cacheScope],
      era === "modern" ? [30_000, "private"] : [undefined, undefined],
    );
  });

  Deno.test(`resources, ${era}: a pull request's diff reads as get_pr_diff's text, text/x-diff`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const read = await h.client.readResource({ uri: `${BASE}/pull-requests/42/diff` }) as Read;
    assert.equal(read.contents[0]!.mimeType, "text/x-diff");
    assert.deepEqual(seen(h), [`GET ${PR}.diff {}`]);
    const tool = await h.client.callTool({
      name: "get_pr_diff",
      arguments: { project: "PROJ", repo: "web", pr_id: 42 },
    });
    assert.equal(read.contents[0]!.text, firstText(tool));
    assert.match(
      read.contents[0]!.text!,
      /^diff --git src:\/\/docs\/auth\.md dst:\/\/docs\/login\.md\n/,
    );
  });

  Deno.test(`resources, ${era}: a pull request's open threads read as Markdown: who, where, what`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const read = await h.client.readResource({ uri: `${BASE}/pull-requests/42/threads` }) as Read;
    assert.equal(read.contents[0]!.mimeType, "text/markdown");
    assert.deepEqual(seen(h), [`GET ${PR}/activities {"start":"0","limit":"100"}`]);
    const text = read.contents[0]!.text!;
    assert.ok(text.startsWith("# Open threads of pull request #42 in PROJ/web\n"));
    // Open: 309 (inline), 301 (a task), 300, 297 (anchored on its activity); newest first.
    const ids = [...text.matchAll(/\(comment (\d+)\)/g)].map((m) => Number(m[1]));
    assert.deepEqual(ids, [309, 301, 300, 297]);
    assert.ok(text.includes("## Comment on `src/login/validate.ts`, line 3 (new)\n"));
    assert.ok(text.includes("**Alex Smith (asmith)**, 2024-11-28T09:10:00Z (comment 309):"));
    assert.ok(text.includes("## Task on the pull request\n"));
    assert.ok(text.includes("## Comment on `docs/login.md` (from docs/auth.md), line 1 (new)\n"));
    // Resolved (298), a resolved task (296) and a deleted comment (295) are left out.
    assert.ok(!/comment (298|296|295)\)/.test(text));
  });

  Deno.test(`resources, ${era}: a file reads as its text, at the ref's commit, text/plain`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const uri = `${BASE}/files/src/app.ts?at=refs%2Fheads%2Fmain`;
    const read = await h.client.readResource({ uri }) as Read;
    assert.deepEqual(read.contents, [{ uri, mimeType: "text/plain", text: APP_TS }]);
    assert.deepEqual(seen(h), [
      `GET ${REPO}/commits {"until":"refs/heads/main","limit":"1"}`,
      `GET ${REPO}/raw/src/app.ts {"at":"${HEAD}"}`,
    ]);
  });

  Deno.test(`resources, ${era}: a file's path is percent-decoded once and encoded again for Bitbucket`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    // No `at`: the default branch's head.
    const read = await h.client.readResource({
      uri: `${BASE}/files/docs/read%20me%20%C3%BC.md`,
    }) as Read;
    assert.equal(read.contents[0]!.text, APP_TS);
    assert.deepEqual(seen(h), [
      `GET ${REPO}/commits {"limit":"1"}`,
      `GET ${REPO}/raw/docs/read%20me%20%C3%BC.md {"at":"${HEAD}"}`,
    ]);
  });

  Deno.test(`resources, ${era}: a commit reads with its changed paths, as JSON`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const read = await h.client.readResource({ uri: `${BASE}/commits/${PR_HEAD_SHORT}` }) as Read;
    assert.equal(read.contents[0]!.mimeType, "application/json");
    const body = JSON.parse(read.contents[0]!.text!);
    assert.equal(body.commit.id, PR_HEAD);
    assert.deepEqual(body.changes.map((c: { path: string; type: string }) => [c.path, c.type]), [
      ["src/login/form.ts", "MODIFY"],
      ["src/login/validate.ts", "ADD"],
    ]);
    assert.equal(body.isLastPage, true);
    // The changes are asked for by the full id the commit read gave.
    assert.deepEqual(seen(h), [
      `GET ${REPO}/commits/${PR_HEAD_SHORT} {}`,
      `GET ${REPO}/commits/${PR_HEAD}/changes {"withComments":"false","start":"0","limit":"1000"}`,
    ]);
  });

  Deno.test(`resources, ${era}: resources/list shows your pull requests and your review queue`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const listed = await h.client.listResources() as {
      ttlMs?: number;
      resources: {
        uri: string;
        name: string;
        title?: string;
        description?: string;
        mimeType?: string;
      }[];
    };
    assert.deepEqual(
      listed.resources.map((r) => [r.uri, r.name, r.title, r.description, r.mimeType]),
      [
        [
          "bitbucket://projects/PROJ/repos/api/pull-requests/7",
          "PROJ/api#7",
          "#7 Rate-limit the login endpoint",
          "Your pull request in PROJ/api: feature/rate-limit → main",
          "application/json",
        ],
        [
          `${BASE}/pull-requests/42`,
          "PROJ/web#42",
          "#42 Validate the login form before submitting",
          "Waiting for your review in PROJ/web: feature/login → main, by Jane Doe",
          "application/json",
        ],
      ],
    );
    assert.deepEqual(seen(h).sort(), [
      'GET /api/latest/dashboard/pull-requests {"state":"OPEN","role":"AUTHOR","start":"0","limit":"25"}',
      'GET /api/latest/dashboard/pull-requests {"state":"OPEN","role":"REVIEWER","start":"0","limit":"25"}',
    ]);
    assert.equal(listed.ttlMs, era === "modern" ? 30_000 : undefined);
  });
}

/** URIs that name no resource, and what the refusal says. */
const BAD_URIS: [string, RegExp][] = [
  [
    "https://bitbucket.example.com/projects/PROJ/repos/web",
    /does not start with bitbucket:\/\/projects\//,
  ],
  [
    `${BASE}/files/src/../../../../etc/passwd`,
    /the path: must be .*no empty, '\.' or '\.\.' segments/,
  ],
  [`${BASE}/files/src/%2E%2E/secret`, /the path: must be .*'\.\.'/],
  [`${BASE}/files/src//app.ts`, /the path: must be/],
  [`${BASE}/files/`, /the path: must be/],
  [
    "bitbucket://projects/../repos/web/pull-requests/42",
    /project: must be 1-256 characters and not '\.' or '\.\.'/,
  ],
  [`bitbucket://projects/${"P".repeat(257)}/repos/web/pull-requests/42`, /project: must be 1-256/],
  ["bitbucket://projects/PR%ZZ/repos/web/pull-requests/42", /project is not percent-encoded UTF-8/],
  [
    "bitbucket://projects/PROJ/repos/%ED%A0%80/pull-requests/42",
    /repo is not percent-encoded UTF-8/,
  ],
  [`${BASE}/pull-requests/abc`, /positive integer/],
  [`${BASE}/pull-requests/0`, /the pull request id: /],
  [
    `${BASE}/pull-requests/42/merge`,
    /pull-requests\/\{id\}\/diff or pull-requests\/\{id\}\/threads/,
  ],
  [`${BASE}/pull-requests/42?at=main`, /only a file's URI takes a query/],
  [`${BASE}/files/src/app.ts?ref=main`, /one query parameter, at/],
  [`${BASE}/files/src/app.ts?at=main&at=dev`, /one query parameter, at/],
  [`${BASE}/files/src/app.ts?at=`, /at: /],
  [`${BASE}/files/src/app.ts#L3`, /a fragment/],
  [`${BASE}/commits/not-hex`, /the commit id: must be a full or abbreviated hexadecimal commit id/],
  [`${BASE}/tags/v1.0.0`, /after the repository comes/],
  ["bitbucket://projects/PROJ/web/pull-requests/42", /names no repository/],
];

for (const era of ERAS) {
  Deno.test(`resources, ${era}: a bad URI is refused (-32602), saying why, and nothing reaches Bitbucket`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    for (const [uri, why] of BAD_URIS) {
      const error = await failure(h.client.readResource({ uri }));
      assert.equal(error.code, -32602, uri);
      assert.match(error.message, why, uri);
      assert.ok(error.message.includes("(hint: resources/templates/list"), uri);
    }
    assert.deepEqual(h.fixture.requests, []);
  });

  Deno.test(`resources, ${era}: what Bitbucket does not have is "resource not found", with its answer`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const uri = `${BASE}/pull-requests/999`;
    const error = await failure(h.client.readResource({ uri })) as {
      code: number;
      message: string;
      data?: unknown;
    };
    assert.equal(error.code, -32602);
    assert.match(
      error.message,
      /^Cannot read "bitbucket:\/\/projects\/PROJ\/repos\/web\/pull-requests\/999": .*404.*Pull request 999 does not exist/,
    );
    assert.deepEqual(error.data, { uri });
  });

  Deno.test(`resources, ${era}: a binary file is refused with get_file_content's reason`, async () => {
    await using h = await connect({ era, routes: ROUTES });
    const error = await failure(h.client.readResource({ uri: `${BASE}/files/assets/logo.png` }));
    assert.match(error.message, /it is a binary file, or text not in UTF-8/);
    assert.ok(!error.message.includes(TEST_TOKEN));
  });
}

/** Lists, reads and refuses over HTTP with `client`. */
async function overHttp(client: Client): Promise<void> {
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.equal(resourceTemplates.length, 5);
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.name), ["PROJ/api#7", "PROJ/web#42"]);
  const read = await client.readResource({ uri: `${BASE}/pull-requests/42/diff` });
  assert.equal(read.contents[0]?.mimeType, "text/x-diff");
  const bad = await failure(client.readResource({ uri: `${BASE}/files/a/../b` }));
  assert.equal(bad.code, -32602);
}

for (const era of ERAS) {
  Deno.test(`resources over HTTP, ${era}: listed and read with the caller's token; a bad URI asks nothing`, async () => {
    await using h = startHttp({ routes: ROUTES });
    const token = `resources-${era}-SECRET-5555`;
    const client = await connectHttp(h.url, era, token);
    try {
      await overHttp(client);
    } finally {
      await client.close();
    }
    assert.deepEqual(seen(h).sort(), [
      'GET /api/latest/dashboard/pull-requests {"state":"OPEN","role":"AUTHOR","start":"0","limit":"25"}',
      'GET /api/latest/dashboard/pull-requests {"state":"OPEN","role":"REVIEWER","start":"0","limit":"25"}',
      `GET ${PR}.diff {}`,
    ]);
    assert.ok(h.fixture.requests.every((r) => r.headers.authorization === `Bearer ${token}`));
  });
}
