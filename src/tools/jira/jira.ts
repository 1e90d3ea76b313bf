/**
 * The Jira issues linked to pull requests and commits, through Bitbucket's
 * Jira integration (`/rest/jira/latest`). A server without the integration
 * answers 404 on these paths, which is said in plain words.
 */
import { z } from "../../deps/zod.ts";
import { Changeset, JiraIssue } from "../../bitbucket/entities/jira.ts";
import { BitbucketError, rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import {
  CommitOut,
  commitOut,
  defineListTool,
  defineTool,
  inRepository,
  PrArgs,
  READ_ONLY,
  segmentArg,
} from "../kit/mod.ts";

/** The fix for a 404 that names no missing entity: these paths exist only with the integration. */
export const NO_JIRA_HINT =
  "the Jira integration is not installed on this Bitbucket or not linked to a Jira site; an admin links one under Administration > Jira integration";

/**
 * A `.catch` saying what was asked. A 404 that names no Bitbucket exception
 * (a missing pull request names one) came from no plugin: the integration.
 */
function duringJira(action: string) {
  return (error: unknown): never => {
    const bare = error instanceof BitbucketError && error.kind === "not_found" &&
      !error.details.some((d) => d.exceptionName);
    return rethrowDuring(action, bare ? { not_found: NO_JIRA_HINT } : {})(error);
  };
}

/** A linked Jira issue. */
const JiraIssueOut = z.object({
  key: z.string(),
  url: z.string().optional().describe("The issue in Jira"),
});

export const listPrJiraIssues = defineTool({
  name: "list_pr_jira_issues",
  reach: "repository",
  title: "List a pull request's Jira issues",
  description: "Jira issues linked to a pull request's commits.",
  access: READ_ONLY,
  input: PrArgs,
  output: z.object({ issues: z.array(JiraIssueOut) }),
  async handler({ project, repo, pr_id }, { bitbucket }) {
    const { body } = await bitbucket.request({
      path: apiPath`/jira/latest/projects/${project}/repos/${repo}/pull-requests/${pr_id}/issues`,
      schema: z.array(JiraIssue),
    }).catch(duringJira(`list the Jira issues of pull request #${pr_id} in ${project}/${repo}`));
    return { issues: body.map((i) => ({ key: visibleId(i.key), url: visibleId(i.url) })) };
  },
});

/** A commit linked to an issue, and where it is. */
const IssueCommitOut = CommitOut.extend({
  repository: z.string().describe("PROJECT/slug"),
});

export const listJiraIssueCommits = defineListTool({
  name: "list_jira_issue_commits",
  reach: "server",
  confine: { item: (c) => inRepository(c.repository), wide: true },
  title: "List a Jira issue's commits",
  description: "Commits that mention a Jira issue, in every repository.",
  access: READ_ONLY,
  input: z.object({ issue_key: segmentArg() }),
  key: "commits",
  item: IssueCommitOut,
  entity: Changeset,
  map: (c) => ({
    ...commitOut(c.toCommit),
    repository: visibleId(`${c.repository.project.key}/${c.repository.slug}`),
  }),
  request: ({ issue_key }) => ({
    path: apiPath`/jira/latest/issues/${issue_key}/commits`,
    // The changes of each commit are not returned: asking for one keeps the answer small.
    query: { maxChanges: 1 },
    rethrow: duringJira(`list the commits of Jira issue ${issue_key}`),
  }),
});
