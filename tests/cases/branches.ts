import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";

/** Fixtures and contract entries for src/tools/branches.ts. */
export const branches: DomainCases = {
  routes: [
    { method: "POST", path: `${REPO}/branches`, fixture: "branches/branch-created.json" },
  ],
  toolArguments: {
    create_branch: {
      args: { project: "PROJ", repo: "web", name: "feature/search", start_point: "main" },
      requests: [{
        method: "POST",
        path: `${REPO}/branches`,
        query: {},
        body: { name: "feature/search", startPoint: "main" },
      }],
    },
  },
};
