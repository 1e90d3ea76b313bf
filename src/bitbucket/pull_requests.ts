/**
 * How the pull request tools and resources find what they act on: a pull
 * request's REST path, the pull request as read now, the caller's pull
 * requests across Bitbucket, and where a pull request's diff comes from.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "./transport/client.ts";
import { changedPaths, type DiffSource } from "./diff/read.ts";
import { PullRequest } from "./entities/pull_request.ts";
import { type Collected, collectPages } from "./transport/paging.ts";
import { apiPath } from "./transport/path.ts";
import { BitbucketError } from "./transport/errors.ts";

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

/** What an update sends: every field Bitbucket replaces wholesale, reviewers by username. */
export interface PullRequestUpdate {
  version: number;
  title: string;
  description?: string;
  reviewers: string[];
  toRef: unknown;
  draft?: boolean;
}

/**
 * The usernames Bitbucket refused as reviewers (a 409
 * InvalidPullRequestReviewersException names each in `reviewerErrors`, as
 * renovate reads it), or undefined for any other failure.
 */
export function refusedReviewers(error: unknown): string[] | undefined {
  if (!(error instanceof BitbucketError) || error.kind !== "conflict") return undefined;
  const invalid = error.details.filter((d) =>
    typeof d.exceptionName === "string" &&
    d.exceptionName.endsWith("InvalidPullRequestReviewersException")
  );
  if (invalid.length === 0 || invalid.length !== error.details.length) return undefined;
  const names = invalid.flatMap((d) => Array.isArray(d.reviewerErrors) ? d.reviewerErrors : [])
    .map((e) => (e as Record<string, unknown> | null)?.context)
    .filter((name): name is string => typeof name === "string");
  return names.length > 0 ? names : undefined;
}

/**
 * Updates a pull request. Bitbucket needs the whole reviewer list with every
 * update and refuses all of it when one reviewer is no longer valid (left the
 * company, lost access): when `mayDrop` allows the refused ones (the caller
 * did not ask to change reviewers, and none of them gave a verdict), the update
 * is sent once more without them, and they are returned as dropped.
 */
export async function updatePullRequestFields(
  bitbucket: BitbucketClient,
  path: string,
  update: PullRequestUpdate,
  mayDrop: (refused: string[]) => boolean,
): Promise<{ pr: z.infer<typeof PullRequest>; dropped: string[] }> {
  const put = (reviewers: string[]) =>
    bitbucket.request({
      method: "PUT",
      path,
      schema: PullRequest,
      body: { ...update, reviewers: reviewers.map((name) => ({ user: { name } })) },
    });
  try {
    return { pr: (await put(update.reviewers)).body, dropped: [] };
  } catch (error) {
    const refused = refusedReviewers(error);
    if (refused === undefined || !mayDrop(refused)) throw error;
    const gone = new Set(refused.map((name) => name.toLowerCase()));
    const kept = update.reviewers.filter((name) => !gone.has(name.toLowerCase()));
    return { pr: (await put(kept)).body, dropped: refused };
  }
}
