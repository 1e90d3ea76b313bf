/**
 * What Bitbucket says about itself and its caller, for the `check` command:
 * the routes a good token's check is answered from.
 */
import { AS_CALLER } from "./pull_requests.ts";
import type { DomainCases } from "./types.ts";
import { versionRoute } from "./server_version.ts";

export { APPLICATION_PROPERTIES } from "./server_version.ts";
/** A resource only an authenticated user may read: `check` learns the caller from its X-AUSERNAME. */
export const RECENT_REPOS = "/api/latest/profile/recent/repos";

/**
 * Fixtures for the `check` command's requests. It has no tools, so it adds no
 * contract entries.
 */
export const system: DomainCases = {
  routes: [
    versionRoute(),
    {
      method: "GET",
      path: RECENT_REPOS,
      fixture: "system/recent-repos.json",
      headers: AS_CALLER,
    },
  ],
  toolArguments: {},
};
