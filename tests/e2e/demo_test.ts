/**
 * `deno task demo`, run as a newcomer runs it: no Bitbucket, no token. The
 * scripted session must succeed call by call, print each call and name each
 * payload, and read pull request #42's head commit from an earlier answer.
 */
import assert from "node:assert/strict";
import { parseFlags } from "../../src/cli/flags.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { PR_42_HEAD } from "../../testing/cases/builds.ts";
import { FORM_SCREENSHOT, VIEW_SCREENSHOT } from "../../testing/demo_script.ts";

Deno.test("demo: deno task demo plays the scripted session against the sandbox; every call succeeds and names its payload", async () => {
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: ["task", "demo"],
    cwd: new URL("../../", import.meta.url).pathname,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.equal(code, 0, out + new TextDecoder().decode(stderr));
  // The demo serves the default selection: the default set, views included (it draws them).
  const listed = selectTools(CATALOGUE, parseFlags([])).length;
  assert.match(
    out,
    new RegExp(`^Connected over stdio to bitbucket-mcp \\S+: ${listed} tools listed\\.$`, "m"),
  );
  const calls = [...out.matchAll(/^ {3}→ (\w+) (\{.*\})$/gm)].map((m) => [m[1], JSON.parse(m[2]!)]);
  assert.deepEqual(calls, [
    ["list_pull_requests", { project: "PROJ", repo: "web", state: "open" }],
    ["get_pull_request", { project: "PROJ", repo: "web", pr_id: 42 }],
    ["get_pr_diff", { project: "PROJ", repo: "web", pr_id: 42 }],
    ["get_pr_merge_status", { project: "PROJ", repo: "web", pr_id: 42 }],
    ["get_build_status", { commit_id: PR_42_HEAD }],
    ["show", { kind: "pull_request", project: "PROJ", repo: "web", pr_id: 42 }],
    ["show", {
      kind: "pull_request_form",
      project: "PROJ",
      repo: "web",
      title: "Fix the login typo",
      description: "One word was wrong on the login page.",
      from_branch: "hotfix/typo",
    }],
  ]);
  const payloads = [...out.matchAll(/^ {3}← payload: (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(payloads, [
    "pullRequests, isLastPage",
    "pullRequest",
    "diff, truncated",
    "mergeStatus",
    "buildStatuses, isLastPage",
    "shown, view",
    "shown, view",
  ]);
  assert.match(out, /title: "Validate the login form before submitting"/);
  assert.match(out, /│ diff --git /);
  assert.match(out, /summaryMessage: "Requires all tasks to be resolved"/);
  assert.match(out, /ref: "refs\/heads\/feature\/login"/);
  // The view is drawn (the demo's client declares MCP Apps), and the demo says where its picture is.
  assert.match(out, /shown: true/);
  assert.ok(out.includes(VIEW_SCREENSHOT), "the screenshot's path is printed");
  // The form is drawn and nothing is written: the demo says so, and where its picture is.
  assert.match(out, /kind: "pull_request_form"/);
  assert.ok(out.includes(FORM_SCREENSHOT), "the form's screenshot's path is printed");
  assert.doesNotMatch(out, /\(Bitbucket: (?:POST|PUT|DELETE) /, "the session wrote nothing");
  assert.match(out, new RegExp(`^✓ ${calls.length} calls succeeded in `, "m"));
  assert.doesNotMatch(out, /✗/);
});
