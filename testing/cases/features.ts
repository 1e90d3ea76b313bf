/**
 * Fixture routes for the resources, prompts and completions (src/resources/,
 * src/prompts/, src/completions/), beside the tools' own domains: the
 * dashboard as Bitbucket filters it by role, and one commit by its
 * abbreviated id. Both answer with recorded fixtures, filtered or picked.
 */
import { readFixture, type Route } from "../fixture_bitbucket.ts";
import { PR_HEAD } from "./commits.ts";
import { AS_CALLER, CALLER, REPO } from "./pull_requests.ts";

const DASHBOARD = "/api/latest/dashboard/pull-requests";

interface DashboardPr {
  author: { user: { name: string } };
  reviewers: { user: { name: string } }[];
}

/** The dashboard fixture's page, keeping only the pull requests `keep` admits (as Bitbucket's role filter does). */
function dashboardWhere(keep: (pr: DashboardPr) => boolean) {
  return () => {
    const page = JSON.parse(readFixture("pull_requests/dashboard.json"));
    const values = (page.values as DashboardPr[]).filter(keep);
    return { ...page, size: values.length, values };
  };
}

/** The dashboard by role: #7 is the caller's own, #42 waits for the caller's review. */
export const DASHBOARD_BY_ROLE: Route[] = [
  {
    method: "GET",
    path: DASHBOARD,
    query: { role: "AUTHOR", state: "OPEN" },
    respond: dashboardWhere((pr) => pr.author.user.name === CALLER),
    headers: AS_CALLER,
  },
  {
    method: "GET",
    path: DASHBOARD,
    query: { role: "REVIEWER", state: "OPEN" },
    respond: dashboardWhere((pr) => pr.reviewers.some((r) => r.user.name === CALLER)),
    headers: AS_CALLER,
  },
];

/** PROJ's repositories: the repository search fixture, all of whose repositories are in PROJ. */
export const PROJECT_REPOS: Route[] = [
  { method: "GET", path: "/api/latest/projects/PROJ/repos", fixture: "repositories/repos.json" },
];

/** The abbreviation of #42's head commit a resource URI names it by. */
export const PR_HEAD_SHORT = PR_HEAD.slice(0, 11);

/** #42's head commit by its abbreviated id: the commit as the pull request's commits list it. */
export const PR_HEAD_COMMIT: Route[] = [{
  method: "GET",
  path: `${REPO}/commits/${PR_HEAD_SHORT}`,
  respond: () => JSON.parse(readFixture("pull_requests/commits.json")).values[0],
}];
