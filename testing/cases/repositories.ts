/**
 * The repositories domain's contract cases: the fixture routes the repository
 * tools (src/tools/repositories/repositories.ts) are answered from, and each
 * tool's contract arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";

/** Fixtures and contract entries for src/tools/repositories/repositories.ts. */
export const repositories: DomainCases = {
  routes: [
    { method: "GET", path: "/api/latest/repos", fixture: "repositories/repos.json" },
    { method: "GET", path: REPO, fixture: "repositories/repo-web.json" },
    { method: "GET", path: `${REPO}/default-branch`, fixture: "pull_requests/default-branch.json" },
    {
      method: "GET",
      path: "/api/latest/projects/PROJ/repos/nope",
      status: 404,
      fixture: "errors/repository-not-found.json",
    },
  ],
  toolArguments: {
    search_repositories: {
      args: { name: "web", project: "PROJ" },
      requests: [{
        method: "GET",
        path: "/api/latest/repos",
        query: { name: "web", projectkey: "PROJ", start: "0", limit: "25" },
      }],
    },
    get_repository: {
      args: { project: "PROJ", repo: "web" },
      requests: [
        { method: "GET", path: REPO, query: {} },
        { method: "GET", path: `${REPO}/default-branch`, query: {} },
      ],
    },
  },
};
