/**
 * The data of a `pull_requests` view: a repository's pull requests as
 * list_pull_requests reads them, each with its head commit's build counts
 * while get_build_summary is exposed.
 */
import type { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { BuildStats } from "../../bitbucket/entities/build.ts";
import { PullRequest } from "../../bitbucket/entities/pull_request.ts";
import { collectPages } from "../../bitbucket/transport/paging.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { pullRequestSummary, VIEW_VERSION } from "../kit/mod.ts";
import type { PullRequestsView } from "./_view_shape.ts";

/** How many pull requests a list view shows. */
export const LIST_LIMIT = 25;

/** Reads the pull requests of `project`/`repo` in `state` (OPEN, MERGED, DECLINED or ALL). */
export async function pullRequestsView(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  state: string,
  exposed: ReadonlySet<string>,
): Promise<z.infer<typeof PullRequestsView>> {
  const page = await collectPages(
    bitbucket,
    apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
    PullRequest,
    { limit: LIST_LIMIT },
    { state },
  );
  const withBuilds = exposed.has("get_build_summary");
  const pullRequests = await Promise.all(page.values.map(async (pr) => {
    const summary = pullRequestSummary(pr);
    const head = pr.fromRef.latestCommit;
    return withBuilds && head
      ? { ...summary, builds: await buildCounts(bitbucket, head) }
      : summary;
  }));
  return {
    version: VIEW_VERSION,
    kind: "pull_requests",
    origin: bitbucket.origin,
    project,
    repo,
    state,
    pullRequests,
    isLastPage: page.isLastPage,
  };
}

/** The head commit's build counts; none when Bitbucket cannot say (the row then shows none). */
async function buildCounts(bitbucket: BitbucketClient, commit: string) {
  try {
    const { body } = await bitbucket.request({
      path: apiPath`/build-status/latest/commits/stats/${commit.toLowerCase()}`,
      schema: BuildStats,
    });
    return {
      successful: body.successful ?? 0,
      failed: body.failed ?? 0,
      inProgress: body.inProgress ?? 0,
    };
  } catch {
    return undefined;
  }
}
