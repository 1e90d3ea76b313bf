/**
 * Prompts through a real client, on both eras in memory and over HTTP: each
 * listed with its arguments, each got as a short plan naming the tools to
 * call with the pull request as a resource link, none asking Bitbucket
 * anything; bad arguments refused (-32602) naming them; a prompt offered only
 * where the tools it names are.
 */
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { PROMPTS } from "../../src/prompts/prompts.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { connect } from "../../testing/harness.ts";
import { connectHttp, type Era, startHttp } from "../support/http_server.ts";

const ERAS: Era[] = ["modern", "legacy"];
const PR_ARGS = { project: "PROJ", repo: "web", pr_id: "42" };
const PR_URI = "bitbucket://projects/PROJ/repos/web/pull-requests/42";

/** The catalogue's tool names a text mentions, in the order they first appear. */
function toolsNamed(text: string): string[] {
  const names = new Set(CATALOGUE.map((t) => t.name));
  return [...new Set(text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [])].filter((w) => names.has(w));
}

/** The error a call rejected with. */
async function failure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error("the call succeeded");
}

/** Gets every prompt with its arguments and checks what a client shows. */
async function getEvery(client: Client): Promise<void> {
  for (const prompt of PROMPTS) {
    const got = await client.getPrompt({
      name: prompt.name,
      arguments: prompt.aboutPullRequest ? PR_ARGS : {},
    });
    const [plan, link, ...rest] = got.messages;
    assert.deepEqual(rest, [], prompt.name);
    assert.equal(plan?.role, "user");
    assert.equal(plan?.content.type, "text");
    const text = plan?.content.type === "text" ? plan.content.text : "";
    // A short plan, naming exactly the tools the prompt is offered with.
    assert.ok(text.length < 600, `${prompt.name}: ${text.length} characters`);
    assert.deepEqual(toolsNamed(text).sort(), [...prompt.tools].sort(), prompt.name);
    if (prompt.aboutPullRequest) {
      assert.ok(text.includes("pull request #42 of PROJ/web"), prompt.name);
      assert.deepEqual(link?.content, {
        type: "resource_link",
        uri: PR_URI,
        name: "PROJ/web#42",
        title: "Pull request #42 of PROJ/web",
        mimeType: "application/json",
      });
    } else {
      assert.equal(link, undefined, prompt.name);
    }
  }
}

for (const era of ERAS) {
  Deno.test(`prompts, ${era}: listed with their arguments; the list never changes`, async () => {
    await using h = await connect({ era });
    assert.deepEqual(h.client.getServerCapabilities()?.prompts, { listChanged: false });
    const listed = await h.client.listPrompts() as {
      ttlMs?: number;
      cacheScope?: string;
      prompts: {
        name: string;
        title?: string;
        arguments?: { name: string; required?: boolean }[];
      }[];
    };
    assert.deepEqual(
      listed.prompts.map((
        p,
      ) => [p.name, p.title, (p.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`)]),
      [
        ["review_pull_request", "Review a pull request", ["project", "repo", "pr_id"]],
        ["explain_pull_request", "Explain a pull request", ["project", "repo", "pr_id"]],
        ["fix_failing_build", "Fix a failing build", ["project", "repo", "pr_id"]],
        ["triage_my_reviews", "Triage my reviews", []],
      ],
    );
    assert.deepEqual(
      [listed.ttlMs, listed.cacheScope],
      era === "modern" ? [3_600_000, "private"] : [undefined, undefined],
    );
  });

  Deno.test(`prompts, ${era}: each is a plan naming its tools, the pull request linked, Bitbucket not asked`, async () => {
    await using h = await connect({ era });
    await getEvery(h.client);
    assert.deepEqual(h.fixture.requests, []);
  });

  Deno.test(`prompts, ${era}: bad arguments are refused (-32602), naming them, before any request`, async () => {
    await using h = await connect({ era });
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...PR_ARGS, project: ".." }, /project: must be 1-256 characters and not '\.' or '\.\.'/],
      [{ ...PR_ARGS, repo: "r".repeat(257) }, /repo: must be 1-256/],
      [{ ...PR_ARGS, pr_id: "x" }, /pr_id: must be a pull request id: digits, e.g. 42/],
      [{ ...PR_ARGS, pr_id: "4.2" }, /pr_id: must be a pull request id/],
      [{ ...PR_ARGS, pr_id: "0" }, /pr_id: /],
      [{ project: "PROJ", pr_id: "42" }, /repo/],
    ];
    for (const [args, why] of cases) {
      const error = await failure(
        h.client.getPrompt({ name: "review_pull_request", arguments: args }),
      );
      assert.equal(error.code, -32602, JSON.stringify(args));
      assert.match(error.message, why, JSON.stringify(args));
    }
    const unknown = await failure(h.client.getPrompt({ name: "merge_everything", arguments: {} }));
    assert.equal(unknown.code, -32602);
    assert.deepEqual(h.fixture.requests, []);
  });
}

Deno.test("prompts: one is offered only where every tool it names is exposed", async () => {
  {
    // No build tools: no build prompt.
    await using h = await connect({ selection: { toolsets: ["pull_requests"] } });
    const { prompts } = await h.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), [
      "review_pull_request",
      "explain_pull_request",
      "triage_my_reviews",
    ]);
    const error = await failure(
      h.client.getPrompt({ name: "fix_failing_build", arguments: PR_ARGS }),
    );
    assert.equal(error.code, -32602);
  }
  {
    // No pull request tools: no prompt at all, and no prompts capability.
    await using h = await connect({ selection: { toolsets: ["builds", "source"] } });
    const caps = h.client.getServerCapabilities();
    assert.equal(caps?.prompts, undefined);
    assert.deepEqual(caps?.resources, { listChanged: false });
  }
});

for (const era of ERAS) {
  Deno.test(`prompts over HTTP, ${era}: listed and got`, async () => {
    await using h = startHttp();
    const client = await connectHttp(h.url, era, "prompts-SECRET-6666");
    try {
      const { prompts } = await client.listPrompts();
      assert.equal(prompts.length, PROMPTS.length);
      await getEvery(client);
    } finally {
      await client.close();
    }
    assert.deepEqual(h.fixture.requests, []);
  });
}
