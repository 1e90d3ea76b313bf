/**
 * The version table of src/bitbucket/features.ts, as a user meets it: on a
 * server just older than a feature needs, every call that needs it is refused
 * with the version and the one it needs, before anything is written (the only
 * request is the version read) and before the person is asked; on the
 * recorded 9.4 server the same calls go through. Every feature newer than the
 * oldest supported version has its calls here.
 */
import assert from "node:assert/strict";
import { type FeatureName, FEATURES, OLDEST_SUPPORTED } from "../../src/bitbucket/features.ts";
import { atLeast, parseVersion } from "../../src/bitbucket/transport/server_version.ts";
import { pullRequests } from "../../testing/cases/pull_requests.ts";
import {
  APPLICATION_PROPERTIES,
  recordedVersion,
  versionRoute,
} from "../../testing/cases/server_version.ts";
import { connect } from "../../testing/harness.ts";
import { ARGS, call } from "../support/pr_calls.ts";

/** The calls that need each feature. */
const CALLS: Record<FeatureName, { tool: string; args: Record<string, unknown> }[]> = {
  insights: [],
  blockerComments: [],
  pendingComments: [],
  repositoryBuilds: [],
  requiredBuilds: [],
  threadResolution: [
    { tool: "update_pr_comment", args: { ...ARGS, comment_id: 310, thread_resolved: true } },
    { tool: "list_pr_comments", args: { ...ARGS, resolved: false } },
  ],
  autoMerge: [
    { tool: "enable_auto_merge", args: ARGS },
    { tool: "disable_auto_merge", args: ARGS },
  ],
  draftPullRequests: [
    {
      tool: "create_pull_request",
      args: { project: "PROJ", repo: "web", from_ref: "feature/login", title: "WIP", draft: true },
    },
    { tool: "update_pull_request", args: { ...ARGS, draft: true } },
  ],
  multilineComments: [
    {
      tool: "add_pr_comment",
      args: {
        ...ARGS,
        text: "Loop instead.",
        path: "src/login/validate.ts",
        line: 9,
        start_line: 4,
      },
    },
  ],
};

/** The last release before `since`: `9.3` → `9.2.99`, `8.9` → `8.8.99`, `9.0` → `8.99.99`. */
function justBefore(since: string): string {
  const v = parseVersion(since)!;
  return v.minor > 0 ? `${v.major}.${v.minor - 1}.99` : `${v.major - 1}.99.99`;
}

Deno.test("every feature newer than the oldest supported version has calls that need it", () => {
  const oldest = parseVersion(OLDEST_SUPPORTED)!;
  const gated = Object.entries(FEATURES)
    .filter(([, f]) => !atLeast(oldest, f.since))
    .map(([name]) => name as FeatureName);
  assert.ok(gated.length > 0);
  for (const name of gated) assert.ok(CALLS[name].length > 0, `${name} has no calls`);
});

for (const [name, feature] of Object.entries(FEATURES)) {
  for (const { tool, args } of CALLS[name as FeatureName]) {
    const older = justBefore(feature.since);
    Deno.test(`${tool} is refused on ${older}, before anything is written or asked: ${feature.what} need ${feature.since}`, async () => {
      let asked = 0;
      await using h = await connect({
        routes: [versionRoute(older), ...pullRequests.routes],
        elicit: () => {
          asked++;
          return { action: "accept", content: { confirm: true } };
        },
      });
      const result = await call(h, tool, args);
      assert.ok(result.isError, result.text);
      assert.match(result.text, /^Cannot /);
      assert.ok(
        result.text.includes(
          `this Bitbucket is ${older}; ${feature.what} need ${feature.since} or later`,
        ),
        result.text,
      );
      assert.deepEqual(h.fixture.requests.map((r) => `${r.method} ${r.path}`), [
        `GET ${APPLICATION_PROPERTIES}`,
      ]);
      assert.equal(asked, 0, "the person is not asked about a call that cannot work");
    });

    Deno.test(`${tool} with ${feature.what} goes through on the recorded ${recordedVersion()}`, async () => {
      await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
      const result = await call(h, tool, args);
      assert.ok(!result.isError, result.text);
      assert.ok(h.fixture.requests.length > 1, "the call reached past the version read");
    });
  }
}

Deno.test("the version is read once per server, however many calls need it", async () => {
  await using h = await connect({ routes: pullRequests.routes, selection: { yolo: true } });
  for (const { tool, args } of [...CALLS.draftPullRequests, ...CALLS.autoMerge]) {
    const result = await call(h, tool, args);
    assert.ok(!result.isError, result.text);
  }
  const reads = h.fixture.requests.filter((r) => r.path === APPLICATION_PROPERTIES);
  assert.equal(reads.length, 1);
});

Deno.test("a server that does not state its version is not refused anything", async () => {
  await using h = await connect({
    routes: [
      { method: "GET", path: APPLICATION_PROPERTIES, body: { displayName: "Bitbucket" } },
      ...pullRequests.routes,
    ],
    selection: { yolo: true },
  });
  const [first] = CALLS.multilineComments;
  const result = await call(h, first!.tool, first!.args);
  assert.ok(!result.isError, result.text);
});
