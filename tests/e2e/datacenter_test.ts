/**
 * The real server against a real Bitbucket Data Center (Atlassian's container,
 * started by .github/workflows/datacenter.yml for 8.19, 9.4 and the newest
 * 10.x). Each test seeds what it needs through REST as the administrator, then
 * drives `deno run main.ts`, with the permissions the README grants and the
 * reviewer's HTTP access token, through a real MCP client over stdio, and
 * checks what a user would see: in the tools' payloads, and in Bitbucket
 * itself. Where BITBUCKET_E2E_URL is unset (no container runtime or network,
 * as in the ordinary test task) every test is listed as ignored, saying why,
 * but one: that the workflow runs this file with what it reads.
 */
import assert from "node:assert/strict";
import { FEATURES } from "../../src/bitbucket/features.ts";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { firstText } from "../../testing/harness.ts";
import { MAIN, runMain } from "../../testing/spawn.ts";
import {
  ADDED_LINES,
  atLeast,
  BASE_BRANCH,
  BRANCH_LINES,
  DATACENTER_VARS,
  DataCenterRest,
  type DataCenterTarget,
  datacenterTarget,
  type DataCenterVersion,
  FILE,
  fileText,
  lineOf,
  NO_DATACENTER,
  openPullRequest,
  prRestPath,
  seed,
  type Seeded,
  type StoredComment,
  versionOf,
} from "../support/datacenter.ts";

const target = datacenterTarget();
const admin = target && new DataCenterRest(target.url, target.user, target.password);
/** Read once, before the tests are declared: which of them apply depends on it. */
const version = admin && await versionOf(admin);

/** The grant the README gives a user's server: this Bitbucket's host, three variables. */
function userGrant(url: string): string[] {
  return [
    `--allow-net=${new URL(url).host}`,
    "--allow-env=BITBUCKET_URL,BITBUCKET_TOKEN,BITBUCKET_USERNAME",
  ];
}

let seeding: Promise<Seeded> | undefined;
/** One run's project, repository and reviewer, seeded by the first test that needs them. */
function seeded(t: DataCenterTarget): Promise<Seeded> {
  seeding ??= seed(t);
  return seeding;
}

/** What a test gets: the Bitbucket, its administrator, its version and the run's seed. */
interface Context {
  target: DataCenterTarget;
  admin: DataCenterRest;
  version: DataCenterVersion;
  seeded: Seeded;
}

/** A version a test is for; `why` words the ignore reason for the others. */
interface Needs {
  holds: (v: DataCenterVersion) => boolean;
  why: (v: DataCenterVersion) => string;
}

/**
 * Declares a test that runs only against a Data Center (and only on the
 * versions `needs` allows), and is otherwise listed as ignored with the reason
 * in its name.
 */
function datacenterTest(name: string, body: (c: Context) => Promise<void>, needs?: Needs): void {
  let reason = "";
  if (target === undefined || admin === undefined || version === undefined) {
    reason = NO_DATACENTER;
  } else if (needs !== undefined && !needs.holds(version)) {
    reason = `(ignored: ${needs.why(version)})`;
  }
  Deno.test({
    name: `datacenter: ${name}${reason === "" ? "" : ` ${reason}`}`,
    ignore: reason !== "",
    fn: async () =>
      body({ target: target!, admin: admin!, version: version!, seeded: await seeded(target!) }),
  });
}

/** Multi-line (range) comments and suggestions on a range: Bitbucket 9.3 and later. */
const RANGES: Needs = {
  holds: (v) => atLeast(v, 9, 3),
  why: (v) => `this Bitbucket is ${v.text}; comments on a range need 9.3 or later`,
};
const BEFORE_RANGES: Needs = {
  holds: (v) => !atLeast(v, 9, 3),
  why: (v) =>
    `this Bitbucket is ${v.text}, which stores comments on a range; the refusal is for versions before 9.3`,
};

/** The real server over stdio, as the reviewer runs it, and a call that fails on an error result. */
interface Served extends AsyncDisposable {
  client: Client;
  call<T>(name: string, args: Record<string, unknown>): Promise<T>;
}

/** Spawns `deno run main.ts --yolo` with the user's grant and the reviewer's token, and connects. */
async function serve(c: Context): Promise<Served> {
  const env: Record<string, string> = {
    BITBUCKET_URL: c.target.url,
    BITBUCKET_TOKEN: c.seeded.reviewer.token,
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "",
    NO_COLOR: "1",
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  const transport = new StdioClientTransport({
    command: "deno",
    // --yolo: the unsafe writes (approve, merge, build status, apply) run without asking;
    // --toolsets all: set_build_status and apply_pr_suggestion are outside the default set.
    args: ["run", "--no-prompt", ...userGrant(c.target.url), MAIN, "--yolo", "--toolsets", "all"],
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "datacenter-e2e", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    async call<T>(name: string, args: Record<string, unknown>): Promise<T> {
      const result = await client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name}: ${firstText(result)}\n${stderr}`);
      return result.structuredContent as T;
    },
    async [Symbol.asyncDispose]() {
      await client.close();
      assert.ok(!stderr.includes(c.seeded.reviewer.token), "the token never reaches stderr");
    },
  };
}

/** A pattern matching `text` literally. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

type Comment = {
  id: number;
  text: string;
  state?: string;
  anchor?: { path: string; line?: number; startLine?: number; startLineType?: string };
};
type PullRequest = {
  id: number;
  title: string;
  state: string;
  reviewers: { name: string; status: string }[];
  fromRef: { displayId: string; latestCommit?: string };
  toRef: { displayId: string };
};

datacenterTest(
  "`check` passes every line, naming this Bitbucket's version and the token's user",
  async (c) => {
    const out = await runMain(userGrant(c.target.url), ["check"], {
      BITBUCKET_URL: c.target.url,
      BITBUCKET_TOKEN: c.seeded.reviewer.token,
    });
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.doesNotMatch(out.stdout, /^✗/m);
    assert.match(
      out.stdout,
      new RegExp(`^✓ bitbucket +Bitbucket Data Center ${literally(c.version.text)}\\b`, "m"),
    );
    assert.match(
      out.stdout,
      new RegExp(`^✓ token +authenticated as ${literally(c.seeded.reviewer.name)} `, "m"),
    );
  },
);

datacenterTest(
  "a comment on a range is stored with its multi-line marker and the span it covers",
  async (c) => {
    const { project, repo } = c.seeded;
    const pr = await openPullRequest(c.target, c.seeded, "feature/range", "Comment on a range");
    await using mcp = await serve(c);
    const start = lineOf("const trimmed");
    const end = lineOf("return `Goodbye");
    const text = "These three lines could be one.";
    const { comment } = await mcp.call<{ comment: Comment }>("add_pr_comment", {
      project,
      repo,
      pr_id: pr.id,
      path: FILE,
      start_line: start,
      line: end,
      text,
    });
    assert.deepEqual(
      [comment.anchor?.path, comment.anchor?.startLine, comment.anchor?.line],
      [FILE, start, end],
    );
    const stored = await c.admin.send<StoredComment>(
      "GET",
      prRestPath(c.seeded, pr.id, `/comments/${comment.id}`),
    );
    assert.equal(stored.text, text);
    assert.equal(stored.anchor?.line, end);
    assert.deepEqual(stored.anchor?.multilineMarker, { startLine: start, startLineType: "ADDED" });
    assert.deepEqual(
      [stored.anchor?.multilineSpan?.dstSpanStart, stored.anchor?.multilineSpan?.dstSpanEnd],
      [start, end],
    );
  },
  RANGES,
);

datacenterTest(
  "a comment on a range is refused by the server before it reaches Bitbucket, and one on a line is not",
  async (c) => {
    const { project, repo } = c.seeded;
    const pr = await openPullRequest(c.target, c.seeded, "feature/range", "Comment on a range");
    await using mcp = await serve(c);
    const on = { project, repo, pr_id: pr.id, path: FILE };
    const refused = await mcp.client.callTool({
      name: "add_pr_comment",
      arguments: {
        ...on,
        start_line: lineOf("const trimmed"),
        line: lineOf("return `Goodbye"),
        text: "These three lines could be one.",
      },
    });
    assert.equal(
      refused.isError,
      true,
      `Bitbucket ${c.version.text} was sent the range, and keeps only its last line: ${
        firstText(refused)
      }`,
    );
    const { what, since } = FEATURES.multilineComments;
    assert.ok(
      firstText(refused).includes(
        `this Bitbucket is ${c.version.text}; ${what} need ${since} or later`,
      ),
      firstText(refused),
    );
    const single = "This line could go.";
    await mcp.call("add_pr_comment", { ...on, line: lineOf("const trimmed"), text: single });
    const onFile = await c.admin.send<{ values: StoredComment[] }>(
      "GET",
      prRestPath(c.seeded, pr.id, "/comments"),
      undefined,
      { path: FILE },
    );
    assert.deepEqual(onFile.values.map((comment) => comment.text), [single]);
  },
  BEFORE_RANGES,
);

datacenterTest(
  "a suggestion on a range, applied, commits the suggested lines to the source branch",
  async (c) => {
    const { project, repo } = c.seeded;
    const pr = await openPullRequest(
      c.target,
      c.seeded,
      "feature/suggestion",
      "Apply a suggestion",
    );
    await using mcp = await serve(c);
    const start = lineOf("const trimmed");
    const end = lineOf("const shown");
    const replacement = '  const shown = name.trim() || "friend";';
    const { comment } = await mcp.call<{ comment: Comment }>("add_pr_comment", {
      project,
      repo,
      pr_id: pr.id,
      path: FILE,
      start_line: start,
      line: end,
      text: ["One line is enough:", "```suggestion", replacement, "```"].join("\n"),
    });
    const { commit } = await mcp.call<
      { commit: { id?: string; branch: string; previous?: string } }
    >(
      "apply_pr_suggestion",
      { project, repo, pr_id: pr.id, comment_id: comment.id },
    );
    assert.equal(commit.previous, pr.head);
    assert.equal(commit.branch, pr.branch);
    assert.ok(commit.id !== undefined && commit.id !== pr.head, "the source branch moved on");
    const expected = [...BRANCH_LINES.slice(0, start - 1), replacement, ...BRANCH_LINES.slice(end)];
    const content = await c.admin.raw(project, repo, FILE, `refs/heads/${pr.branch}`);
    assert.deepEqual(content.trimEnd().split("\n"), expected);
    const { pullRequest } = await mcp.call<{ pullRequest: PullRequest }>("get_pull_request", {
      project,
      repo,
      pr_id: pr.id,
    });
    assert.equal(pullRequest.fromRef.latestCommit, commit.id);
  },
  RANGES,
);

// Last: it merges into the base branch, which the other tests branch off as seeded.
datacenterTest(
  "the review loop: list, read, diff, a draft published with an approval, a build status, merge status, merge",
  async (c) => {
    const { project, repo, reviewer } = c.seeded;
    const pr = await openPullRequest(c.target, c.seeded, "feature/review-loop", "Say goodbye too");
    const at = { project, repo, pr_id: pr.id };
    await using mcp = await serve(c);

    const { pullRequests } = await mcp.call<{ pullRequests: PullRequest[] }>(
      "list_pull_requests",
      { project, repo },
    );
    assert.equal(pullRequests.find((p) => p.id === pr.id)?.title, pr.title);

    const { pullRequest } = await mcp.call<{ pullRequest: PullRequest }>("get_pull_request", at);
    assert.equal(pullRequest.state, "OPEN");
    assert.equal(pullRequest.fromRef.latestCommit, pr.head);
    assert.equal(pullRequest.toRef.displayId, BASE_BRANCH);
    assert.deepEqual(pullRequest.reviewers.map((r) => [r.name, r.status]), [
      [reviewer.name, "UNAPPROVED"],
    ]);

    const { diff } = await mcp.call<{ diff: string }>("get_pr_diff", at);
    const diffLines = diff.split("\n");
    for (const line of ADDED_LINES) {
      assert.ok(diffLines.includes(`+${line}`), `the diff adds ${JSON.stringify(line)}:\n${diff}`);
    }

    // A draft: the reviewer's alone until the review is submitted.
    const draftLine = lineOf("return `Goodbye");
    const draftText = "Say which name was used when it was blank?";
    const { comment: draft } = await mcp.call<{ comment: Comment }>("add_pr_comment", {
      ...at,
      path: FILE,
      line: draftLine,
      text: draftText,
      pending: true,
    });
    assert.equal(draft.state, "PENDING");
    assert.equal(draft.anchor?.line, draftLine);
    const pending = await mcp.call<{ comments: Comment[] }>("get_pr_review", at);
    assert.deepEqual(pending.comments.map((d) => [d.id, d.text]), [[draft.id, draftText]]);

    const review = await mcp.call<{
      participant: { name: string; status: string };
      published: number[];
    }>("submit_pr_review", { ...at, action: "APPROVE" });
    assert.deepEqual(review.published, [draft.id]);
    assert.equal(review.participant.status, "APPROVED");
    const published = await c.admin.send<StoredComment>(
      "GET",
      prRestPath(c.seeded, pr.id, `/comments/${draft.id}`),
    );
    assert.deepEqual([published.state, published.text], ["OPEN", draftText]);
    assert.deepEqual((await mcp.call<{ comments: Comment[] }>("get_pr_review", at)).comments, []);
    const approved = await mcp.call<{ pullRequest: PullRequest }>("get_pull_request", at);
    assert.deepEqual(approved.pullRequest.reviewers.map((r) => [r.name, r.status]), [
      [reviewer.name, "APPROVED"],
    ]);

    const build = {
      key: "bitbucket-mcp-e2e",
      state: "SUCCESSFUL",
      url: "https://ci.example.com/bitbucket-mcp/e2e",
      name: "End-to-end",
    };
    await mcp.call("set_build_status", { project, repo, commit_id: pr.head, ...build });
    const { buildStatuses } = await mcp.call<{
      buildStatuses: { key: string; state: string; url?: string; name?: string }[];
    }>("get_build_status", { commit_id: pr.head });
    const reported = buildStatuses.find((s) => s.key === build.key);
    assert.deepEqual(
      [reported?.state, reported?.url, reported?.name],
      [build.state, build.url, build.name],
    );

    const { mergeStatus } = await mcp.call<{
      mergeStatus: { canMerge?: boolean; conflicted: boolean; vetoes: unknown[] };
    }>("get_pr_merge_status", at);
    assert.deepEqual(
      [mergeStatus.canMerge, mergeStatus.conflicted, mergeStatus.vetoes],
      [true, false, []],
    );

    const merged = await mcp.call<{ pullRequest: PullRequest }>("merge_pull_request", at);
    assert.equal(merged.pullRequest.state, "MERGED");
    const onBase = await c.admin.raw(project, repo, FILE, `refs/heads/${BASE_BRANCH}`);
    assert.equal(onBase, fileText(BRANCH_LINES), "the base branch has the pull request's change");
  },
);

/** A repository file's text. */
function repoFile(path: string): Promise<string> {
  return Deno.readTextFile(new URL(`../../${path}`, import.meta.url));
}

Deno.test("datacenter: the workflow runs this file for 8.19, 9.4 and a 10.x with every variable it reads, on 127.0.0.1, before any release", async () => {
  const workflow = await repoFile(".github/workflows/datacenter.yml");
  const matrix = /^\s*bitbucket: \[(.*)\]$/m.exec(workflow)?.[1]?.split(",")
    .map((tag) => tag.trim().replaceAll('"', ""));
  assert.ok(matrix, "datacenter.yml has a bitbucket matrix");
  assert.ok(matrix.includes("8.19") && matrix.includes("9.4"), matrix.join(" "));
  assert.ok(matrix.some((tag) => /^10\.\d+$/.test(tag)), `a 10.x line: ${matrix.join(" ")}`);
  assert.match(workflow, /^\s*run: deno task datacenter "\$\{\{ matrix\.bitbucket \}\}"$/m);
  for (const trigger of ["workflow_call", "workflow_dispatch", "schedule"]) {
    assert.match(workflow, new RegExp(`^  ${trigger}:`, "m"), `datacenter.yml runs on ${trigger}`);
  }

  const { tasks } = JSON.parse(await repoFile("deno.json"));
  assert.equal(tasks.datacenter, "bash scripts/datacenter.sh");
  const script = await repoFile("scripts/datacenter.sh");
  const suite = script.slice(script.lastIndexOf("\nBITBUCKET_E2E_URL="));
  for (const name of Object.values(DATACENTER_VARS)) {
    assert.match(suite, new RegExp(`\\b${name}=`), `the script passes ${name} to the suite`);
  }
  const url = /^url="([^"]*)"$/m.exec(script)?.[1];
  assert.equal(url?.replace(/:\$\{port\}$/, ""), "http://127.0.0.1", "Bitbucket is on loopback");
  assert.match(script, /-p "127\.0\.0\.1:\$\{port\}:7990"/, "published on loopback only");
  assert.match(
    suite,
    /deno test --allow-net=127\.0\.0\.1 [^\n]*\\\n\s*tests\/e2e\/datacenter_test\.ts\n/,
  );

  const release = await repoFile(".github/workflows/release.yml");
  assert.match(release, /^ {2}datacenter:\n {4}uses: \.\/\.github\/workflows\/datacenter\.yml$/m);
  assert.match(release, /^ {2}release:\n {4}needs: datacenter$/m);
});
