/**
 * How the pull request tools and resources find what they act on: a pull
 * request's REST path, the pull request as read now, the caller's pull
 * requests across Bitbucket, and where a pull request's diff comes from.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "./client.ts";
import { changedPaths, type DiffSource } from "./diff/read.ts";
import { PullRequest } from "./entities/pull_request.ts";
import { type Collected, collectPages } from "./paging.ts";
import { apiPath } from "./path.ts";

/** The REST path of a pull request; `rest` is appended as trusted literal text. */
export function prPath(project: string, repo: string, id: number, rest = ""): string {
  return apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests/${id}` + rest;
}

/** Reads a pull request, with the response headers (`X-AUSERNAME` names the caller). */
export async function readPullRequest(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
): Promise<{ pr: z.infer<typeof PullRequest>; headers: Headers }> {
  const reply = await bitbucket.request({ path: prPath(project, repo, id), schema: PullRequest });
  return { pr: reply.body, headers: reply.headers };
}

/**
 * The caller's pull requests across Bitbucket, from the dashboard: the one
 * reading of it, for list_pull_requests and the resources listing alike.
 */
export function dashboardPullRequests(
  bitbucket: BitbucketClient,
  filter: { state?: string; role?: string },
  paging: { start?: number; limit: number },
): Promise<Collected<z.infer<typeof PullRequest>>> {
  const path = "/api/latest/dashboard/pull-requests";
  return collectPages(bitbucket, path, PullRequest, paging, filter);
}

/**
 * Where a pull request's diff comes from, for `readCappedDiff`: get_pr_diff
 * and the pull request's diff resource read it the same way.
 */
export function prDiffSource(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  contextLines: number | undefined,
): DiffSource {
  return {
    read: (maxBytes) =>
      bitbucket.getBytes({
        path: prPath(project, repo, id, ".diff"),
        maxBytes,
        query: { contextLines },
      }),
    changedPaths: () => changedPaths(bitbucket, prPath(project, repo, id, "/changes"), {}),
    what: `pull request #${id} of ${project}/${repo}`,
    subject: "the pull request",
    hint: "list_pr_changes lists the changed paths",
  };
}
