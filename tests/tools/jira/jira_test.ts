import assert from "node:assert/strict";
import { jira, NO_JIRA_ROUTES } from "../../../testing/cases/jira.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { Confinement } from "../../../src/policy/confinement.ts";

Deno.test("list_pr_jira_issues gives the keys and links of the issues a pull request's commits name", async () => {
  await using h = await connect({ routes: jira.routes });
  const result = await h.client.callTool({
    name: "list_pr_jira_issues",
    arguments: { project: "PROJ", repo: "web", pr_id: 42 },
  });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, {
    issues: [
      { key: "WEB-17", url: "https://jira.example.com/browse/WEB-17" },
      { key: "WEB-23", url: "https://jira.example.com/browse/WEB-23" },
    ],
  });
});

Deno.test("list_jira_issue_commits gives each linked commit with the repository it is in", async () => {
  await using h = await connect({ routes: jira.routes });
  const result = await h.client.callTool({
    name: "list_jira_issue_commits",
    arguments: { issue_key: "WEB-17" },
  });
  const out = result.structuredContent as {
    commits: { displayId: string; repository: string; authorTimestamp: string }[];
    isLastPage: boolean;
  };
  assert.deepEqual(
    out.commits.map((c) => [c.displayId, c.repository]),
    [["a3c7e0f4b9d", "PROJ/web"], ["9f8e7d6c5b4", "PROJ/api"]],
  );
  assert.equal(out.commits[0]!.authorTimestamp, "2024-11-29T11:33:20Z");
  assert.equal(out.isLastPage, true);
});

Deno.test("list_jira_issue_commits under --repo OPS/infra returns that repository's commits alone, counting the others", async () => {
  const answer = JSON.parse(await Deno.readTextFile("fixtures/jira/issue-commits.json"));
  const infra = structuredClone(answer.values[0]);
  infra.toCommit.id = "0123456789abcdef0123456789abcdef01234567";
  infra.toCommit.displayId = "0123456789a";
  infra.toCommit.message = "WEB-17 Open port 443 on the load balancer";
  infra.toCommit.author = { name: "Grace Hopper", emailAddress: "grace@example.com" };
  infra.toCommit.committer = infra.toCommit.author;
  infra.repository.slug = "infra";
  infra.repository.project.key = "OPS";
  answer.values.push(infra);
  const elsewhere = answer.values.filter((c: typeof infra) => c !== infra);
  assert.ok(elsewhere.length > 0, "the fixture has commits in other repositories");
  await using h = await connect({
    routes: [{ method: "GET", path: "/jira/latest/issues/WEB-17/commits", body: answer }],
    confinement: new Confinement([], [{ project: "OPS", repo: "infra" }]),
  });
  const result = await h.client.callTool({
    name: "list_jira_issue_commits",
    arguments: { issue_key: "WEB-17" },
  });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const out = result.structuredContent as {
    commits: { id: string; repository: string; message: string }[];
    outsideConfinement?: number;
  };
  assert.deepEqual(out.commits.map((c) => [c.id, c.repository]), [[
    infra.toCommit.id,
    "OPS/infra",
  ]]);
  assert.equal(out.outsideConfinement, elsewhere.length);
  const text = firstText(result);
  for (const commit of elsewhere) {
    const where = `${commit.repository.project.key}/${commit.repository.slug}`;
    assert.ok(!text.includes(where), `${where} reached the model`);
    assert.ok(
      !text.includes(commit.toCommit.message),
      `${commit.toCommit.message} reached the model`,
    );
    assert.ok(
      !text.includes(commit.toCommit.author.name),
      `${commit.toCommit.author.name} reached it`,
    );
  }
});

for (
  const [name, args] of [
    ["list_pr_jira_issues", { project: "PROJ", repo: "web", pr_id: 42 }],
    ["list_jira_issue_commits", { issue_key: "WEB-17" }],
  ] as const
) {
  Deno.test(`${name} on a server without the Jira integration says so`, async () => {
    await using h = await connect({ routes: NO_JIRA_ROUTES });
    const result = await h.client.callTool({ name, arguments: args });
    assert.equal(result.isError, true);
    const text = firstText(result);
    assert.match(
      text,
      /^Cannot list the (Jira issues of pull request #42 in PROJ\/web|commits of Jira issue WEB-17): /,
    );
    assert.match(text, /404/);
    assert.match(
      text,
      /hint: the Jira integration is not installed on this Bitbucket or not linked to a Jira site/,
    );
  });
}

Deno.test("list_pr_jira_issues of a missing pull request blames the pull request, not the integration", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: "/jira/latest/projects/PROJ/repos/web/pull-requests/999/issues",
      status: 404,
      fixture: "errors/pull-request-not-found.json",
    }],
  });
  const result = await h.client.callTool({
    name: "list_pr_jira_issues",
    arguments: { project: "PROJ", repo: "web", pr_id: 999 },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /Pull request 999 does not exist/);
  assert.doesNotMatch(firstText(result), /Jira integration/);
});
