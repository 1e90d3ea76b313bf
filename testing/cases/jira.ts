/**
 * The Jira domain's contract cases: the fixture routes the Jira tools
 * (src/tools/jira/) are answered from, through Bitbucket's Jira integration,
 * and each tool's contract arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

/** Where pull request #42's linked Jira issues are asked for. */
export const PR_ISSUES = "/jira/latest/projects/PROJ/repos/web/pull-requests/42/issues";

/** Fixtures and contract entries for src/tools/jira/jira.ts. */
export const jira: DomainCases = {
  routes: [
    { method: "GET", path: PR_ISSUES, fixture: "jira/pr-42-issues.json" },
    {
      method: "GET",
      path: "/jira/latest/issues/WEB-17/commits",
      fixture: "jira/issue-commits.json",
    },
  ],
  toolArguments: {
    list_pr_jira_issues: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: PR_ISSUES, query: {} }],
    },
    list_jira_issue_commits: {
      args: { issue_key: "WEB-17", limit: 10 },
      requests: [{
        method: "GET",
        path: "/jira/latest/issues/WEB-17/commits",
        query: { maxChanges: "1", start: "0", limit: "10" },
      }],
    },
  },
};

/**
 * A server without the Jira integration: its paths are served by no plugin,
 * so Bitbucket answers them with its HTML "page not found".
 */
export const NO_JIRA_ROUTES = [
  { path: PR_ISSUES, fixture: "errors/no-rest-resource.html" },
  { path: "/jira/latest/issues/WEB-17/commits", fixture: "errors/no-rest-resource.html" },
].map((r) => ({
  method: "GET" as const,
  status: 404,
  headers: { "content-type": "text/html;charset=UTF-8" },
  ...r,
}));
