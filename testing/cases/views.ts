/**
 * The views domain's contract cases: `show` and `refresh_view`
 * (src/tools/views/) read through the pull request and build readers, so
 * they run against those domains' routes, for a client that declares MCP
 * Apps (for any other client they fetch nothing).
 */
import { builds, PR_42_HEAD } from "./builds.ts";
import { PR, pullRequests } from "./pull_requests.ts";
import type { DomainCases } from "./types.ts";

/** The arguments of pull request #42's views. */
export const PR_42_VIEW = { project: "PROJ", repo: "web", pr_id: 42 };

/** What a view reads: the pull request and build domains' routes (the views domain has none). */
const VIEW_ROUTES = [...pullRequests.routes, ...builds.routes];

/** Contract entries for the view tools. */
export const views: DomainCases = {
  routes: [],
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
  },
};
