import type { DomainCases } from "./types.ts";

/** Fixtures and contract entries for src/tools/projects.ts. */
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
