/**
 * How the pull request tools and resources find what they act on: a pull
 * request's REST path, the pull request as read now, the caller's pull
 * requests across Bitbucket, and where a pull request's diff comes from.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "./transport/client.ts";
import { changedPaths, type DiffSource } from "./diff/read.ts";
import { PullRequest } from "./entities/pull_request.ts";
import { MinimalRef } from "./entities/ref.ts";
import { type Collected, collectPages } from "./transport/paging.ts";
import { apiPath } from "./transport/path.ts";
import { BitbucketError } from "./transport/errors.ts";
import { qualifyBranch } from "./refs.ts";

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

/** Reviewers as Bitbucket takes them, from their usernames. */
const reviewersBody = (names: string[]) => names.map((name) => ({ user: { name } }));

/** The ref a new pull request targets: the branch named, qualified, or the repository's default branch. */
export async function targetRef(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  branch: string | undefined,
): Promise<string> {
  if (branch !== undefined) return qualifyBranch(branch);
  const path = apiPath`/api/latest/projects/${project}/repos/${repo}/default-branch`;
  return (await bitbucket.request({ path, schema: MinimalRef })).body.id;
}

/** What opening a pull request sends: both refs qualified, reviewers by username. */
export interface NewPullRequest {
  title: string;
  description?: string;
  draft?: boolean;
  fromRef: string;
  toRef: string;
  reviewers: string[];
}

/** Opens a pull request between two branches of one repository. */
export async function openPullRequest(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  fields: NewPullRequest,
): Promise<z.infer<typeof PullRequest>> {
  const { title, description, draft, fromRef, toRef, reviewers } = fields;
  const repository = { slug: repo, project: { key: project } };
  const { body } = await bitbucket.request({
    method: "POST",
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
    schema: PullRequest,
    body: {
      title,
      description,
      draft,
      fromRef: { id: fromRef, repository },
      toRef: { id: toRef, repository },
      reviewers: reviewers.length === 0 ? undefined : reviewersBody(reviewers),
    },
  });
  return body;
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

/** The fields a form or a tool may change; what it leaves out is sent as read. */
export interface PullRequestChanges {
  title?: string;
  description?: string;
  reviewers?: string[];
  /** A branch name, qualified as `refs/heads/…` when it is not a ref already. */
  toBranch?: string;
  draft?: boolean;
}

/**
 * The update that changes only `changes` on `pr` as read at `version`:
 * Bitbucket replaces every field wholesale (an absent reviewers list removes
 * every reviewer), so each field not changing is sent as it was read.
 */
export function updateOf(
  pr: z.infer<typeof PullRequest>,
  version: number,
  changes: PullRequestChanges,
): PullRequestUpdate {
  return {
    version,
    title: changes.title ?? pr.title,
    description: changes.description ?? pr.description,
    reviewers: changes.reviewers ?? pr.reviewers.map((r) => r.user.name),
    toRef: {
      id: changes.toBranch === undefined ? pr.toRef.id : qualifyBranch(changes.toBranch),
      repository: pr.toRef.repository,
    },
    draft: changes.draft ?? pr.draft,
  };
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
      body: { ...update, reviewers: reviewersBody(reviewers) },
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
