/**
 * The users domain's contract cases: the fixture routes find_users
 * (src/tools/repositories/users.ts) is answered from, and its contract
 * arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

/** Fixtures and contract entries for src/tools/repositories/users.ts. */
export const users: DomainCases = {
  routes: [
    { method: "GET", path: "/api/latest/users", fixture: "users/users.json" },
  ],
  toolArguments: {
    find_users: {
      args: { filter: "smith" },
      requests: [{
        method: "GET",
        path: "/api/latest/users",
        query: { filter: "smith", start: "0", limit: "25" },
      }],
    },
  },
};
