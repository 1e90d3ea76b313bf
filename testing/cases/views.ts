/**
 * The views domain's contract cases: `show` and `refresh_view`
 * (src/tools/views/) read through the pull request and build readers, so
 * they run against those domains' routes, for a client that declares MCP
 * Apps (for any other client they fetch nothing); `submit_pr_form`, the
 * form's submit, writes as create_pull_request does. The domain's own route
 * is the default-reviewer conditions a form reads.
 */
import { builds, PR_42_HEAD } from "./builds.ts";
import { PR, pullRequests, REPO, WEB } from "./pull_requests.ts";
import type { DomainCases } from "./types.ts";

/** The arguments of pull request #42's views. */
export const PR_42_VIEW = { project: "PROJ", repo: "web", pr_id: 42 };

/** The repository's default-reviewer conditions (their required approvals). */
export const CONDITIONS = "/default-reviewers/latest/projects/PROJ/repos/web/conditions";

const own = [
  {
    method: "GET" as const,
    path: CONDITIONS,
    fixture: "pull_requests/default-reviewer-conditions.json",
  },
];

/** What a view reads: the pull request and build domains' routes, and the conditions. */
export const VIEW_ROUTES = [...own, ...pullRequests.routes, ...builds.routes];

/** Contract entries for the view tools. */
export const views: DomainCases = {
  routes: own,
  toolArguments: {
    show: {
      args: { kind: "pull_request", ...PR_42_VIEW },
      apps: true,
      routes: VIEW_ROUTES,
      requests: [
        { method: "GET", path: PR },
        { method: "GET", path: `/build-status/latest/commits/${PR_42_HEAD}` },
        { method: "GET", path: `${PR}/merge` },
        { method: "GET", path: `${PR}/blocker-comments` },
        { method: "GET", path: `${PR}/changes` },
      ],
    },
    refresh_view: {
      args: { kind: "diff", ...PR_42_VIEW },
      apps: true,
      routes: VIEW_ROUTES,
      requests: [
        { method: "GET", path: PR },
        { method: "GET", path: `${PR}.diff` },
        { method: "GET", path: `${PR}/activities` },
      ],
    },
    submit_pr_form: {
      args: {
        project: "PROJ",
        repo: "web",
        action: "create",
        title: "Sign-up page",
        description: "Adds a sign-up page.",
        from_branch: "feature/signup",
        to_branch: "main",
        reviewers: ["asmith"],
      },
      apps: true,
      routes: VIEW_ROUTES,
      requests: [{
        method: "POST",
        path: `${REPO}/pull-requests`,
        body: {
          title: "Sign-up page",
          description: "Adds a sign-up page.",
          fromRef: { id: "refs/heads/feature/signup", repository: WEB },
          toRef: { id: "refs/heads/main", repository: WEB },
          reviewers: [{ user: { name: "asmith" } }],
        },
      }],
    },
  },
};
