import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const HEAD = "8d51122def5632836d1cb1026e879069e10a1e13";

/** Fixtures and contract entries for src/tools/commits.ts. */
export const commits: DomainCases = {
  routes: [
    { method: "GET", path: `${REPO}/commits`, fixture: "commits/commits.json" },
    { method: "GET", path: `${REPO}/commits/${HEAD}`, fixture: "commits/commit.json" },
    {
      method: "GET",
      path: `${REPO}/commits/deadbeef`,
      status: 404,
      fixture: "errors/commit-not-found.json",
    },
    { method: "GET", path: `${REPO}/compare/commits`, fixture: "commits/compare.json" },
  ],
  toolArguments: {
    list_commits: {
      args: { project: "PROJ", repo: "web", until: "main", path: "src/app.ts", limit: 3 },
      requests: [{
        method: "GET",
        path: `${REPO}/commits`,
        query: { until: "main", path: "src/app.ts", start: "0", limit: "3" },
      }],
    },
    get_commit: {
      args: { project: "PROJ", repo: "web", commit_id: HEAD },
      requests: [{ method: "GET", path: `${REPO}/commits/${HEAD}`, query: {} }],
    },
    compare_refs: {
      args: { project: "PROJ", repo: "web", from: "main", to: "feature/login" },
      requests: [{
        method: "GET",
        path: `${REPO}/compare/commits`,
        query: { from: "feature/login", to: "main", start: "0", limit: "25" },
      }],
    },
  },
};
