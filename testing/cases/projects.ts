/**
 * The projects domain's contract cases: the fixture routes list_projects
 * (src/tools/repositories/projects.ts) is answered from, and its contract
 * arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

/** Fixtures and contract entries for src/tools/repositories/projects.ts. */
export const projects: DomainCases = {
  routes: [
    {
      method: "GET",
      path: "/api/latest/projects",
      query: { start: "2" },
      fixture: "projects/projects-page2.json",
    },
    { method: "GET", path: "/api/latest/projects", fixture: "projects/projects.json" },
  ],
  toolArguments: {
    list_projects: {
      args: { name: "o", limit: 2 },
      requests: [{
        method: "GET",
        path: "/api/latest/projects",
        query: { name: "o", start: "0", limit: "2" },
      }],
    },
  },
};
