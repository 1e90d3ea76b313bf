/**
 * Which Bitbucket Data Center version each feature the tools use needs: the
 * one table of it. A real server below a feature's version takes the request
 * all the same and ignores the fields it does not know (a draft flag, a
 * thread resolution, a multi-line anchor), so a call that needs the feature
 * asks {@link requireFeature} first and is refused, before anything is sent,
 * on an older server. Oldest supported: {@link OLDEST_SUPPORTED}, the oldest
 * version peers test against. Each row's source is in `fixtures/README.md`.
 */
import type { BitbucketClient } from "./transport/client.ts";
import { atLeast, type ServerVersion } from "./transport/server_version.ts";

/** The oldest Data Center version the server is built and tested for. */
export const OLDEST_SUPPORTED = "7.21";

/** One feature: what it is called in a refusal, the version it arrived in, and the toolset it limits. */
export interface Feature {
  /** Plural noun phrase, as in "X need 9.3 or later". */
  readonly what: string;
  readonly since: string;
  /** The toolset whose tools lose it on an older server (as `check` reports it). */
  readonly toolset: string;
  /** The REST resources or fields it consists of. */
  readonly uses: string;
  /** Where the version comes from (details in fixtures/README.md). */
  readonly source: string;
}

/**
 * Every version-gated feature the tools use, oldest first. Those older than
 * {@link OLDEST_SUPPORTED} are here for the record (and for `check` on an
 * unsupported server); the tools gate the newer ones.
 */
export const FEATURES = {
  insights: {
    what: "Code Insights reports",
    since: "5.15",
    toolset: "builds",
    uses: "/rest/insights/latest/…/reports",
    source: "Atlassian's Code Insights documentation (Bitbucket Server 5.15)",
  },
  blockerComments: {
    what: "tasks as blocker comments",
    since: "7.2",
    toolset: "pull_requests",
    uses: "…/pull-requests/{id}/blocker-comments",
    source: "9.4 OpenAPI: the old /tasks deprecated in 7.2; git-spice",
  },
  pendingComments: {
    what: "draft comments and reviews",
    since: "7.7",
    toolset: "pull_requests",
    uses: "a comment's state PENDING, …/pull-requests/{id}/review",
    source: "git-spice pull request #1415; verified on 8.9.4 and 9.3 by two peers",
  },
  repositoryBuilds: {
    what: "build statuses stored per repository",
    since: "7.14",
    toolset: "builds",
    uses: "/rest/api/latest/…/commits/{id}/builds?key=",
    source: "9.4 OpenAPI (Since 7.14)",
  },
  requiredBuilds: {
    what: "required builds",
    since: "7.14",
    toolset: "builds",
    uses: "/rest/required-builds/latest/…/conditions",
    source: "released with the per-repository builds (7.14); documented from 8.3 on",
  },
  threadResolution: {
    what: "resolved comment threads",
    since: "8.9",
    toolset: "pull_requests",
    uses: "a comment's threadResolved",
    source: "pavel-kalmykov/bitbucket-server-mcp end-to-end suite (7.21 to 10.2)",
  },
  autoMerge: {
    what: "auto-merge",
    since: "8.15",
    toolset: "pull_requests",
    uses: "POST …/merge with autoMerge, …/auto-merge",
    source: "renovate's Bitbucket Server platform (refuses below 8.15.0)",
  },
  draftPullRequests: {
    what: "draft pull requests",
    since: "8.18",
    toolset: "pull_requests",
    uses: "a pull request's draft",
    source: "Atlassian's REST API changelog (Data Center 8.18)",
  },
  multilineComments: {
    what: "multi-line comments and suggestions",
    since: "9.3",
    toolset: "pull_requests",
    uses: "an anchor's multilineMarker and multilineSpan",
    source: "BSERV-12219; verified on 9.3.2 (b1ff/atlassian-dc-mcp pull request #43)",
  },
} as const satisfies Record<string, Feature>;

/** A feature's name in {@link FEATURES}. */
export type FeatureName = keyof typeof FEATURES;

/** The features `version` lacks, oldest first. */
export function missingFeatures(version: ServerVersion): Feature[] {
  return Object.values(FEATURES).filter((f) => !atLeast(version, f.since));
}

/**
 * Refuses, before anything is sent, `action` on a server older than
 * `feature` needs: `Cannot <action>: this Bitbucket is 8.19.1; draft pull
 * requests need 8.18 or later`. A server that does not say its version is
 * given the benefit of the doubt.
 */
export async function requireFeature(
  bitbucket: BitbucketClient,
  feature: FeatureName,
  action: string,
): Promise<void> {
  const version = await bitbucket.serverVersion();
  const { what, since } = FEATURES[feature];
  if (version !== undefined && !atLeast(version, since)) {
    throw new Error(
      `Cannot ${action}: this Bitbucket is ${version.text}; ${what} need ${since} or later (hint: ask its administrator to upgrade, or do without it)`,
    );
  }
}
