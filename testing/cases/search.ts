/**
 * The code search domain's contract cases: the fixture routes search_code
 * (src/tools/source/search_code.ts) is answered from, and its contract
 * arguments with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

/** Where Bitbucket's code search answers (outside `/api`). */
export const SEARCH = "/search/latest/search";

/** Fixtures and contract entries for src/tools/source/search_code.ts. */
export const search: DomainCases = {
  routes: [
    { method: "POST", path: SEARCH, fixture: "search/code-greet.json" },
  ],
  toolArguments: {
    search_code: {
      args: { query: "greet", project: "PROJ", repo: "web" },
      requests: [{
        method: "POST",
        path: SEARCH,
        query: {},
        body: {
          query: "project:PROJ repo:web greet",
          entities: { code: { start: 0, limit: 25 } },
          limits: { primary: 25, secondary: 10 },
        },
      }],
    },
  },
};
