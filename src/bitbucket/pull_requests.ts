/**
 * How the pull request tools find what they act on: a pull request's REST
 * path, branch names as refs, the pull request as read now, and who the
 * caller is.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "./client.ts";
import { authenticatedUser } from "./caller.ts";
import { PullRequest } from "./entities/pull_request.ts";
import { apiPath } from "./path.ts";

/** The REST path of a pull request; `rest` is appended as trusted literal text. */
export function prPath(project: string, repo: string, id: number, rest = ""): string {
  return apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests/${id}` + rest;
}

/** A branch name as a fully qualified ref: `main` becomes `refs/heads/main`; `refs/...` is kept. */
export function qualifyBranch(name: string): string {
  return name.startsWith("refs/") ? name : `refs/heads/${name}`;
}

/**
 * The username the token acts as, from an answer Bitbucket gave it (a GET the
 * tool makes anyway), so no separate request asks who the caller is.
 */
export function callerName(headers: Headers, request: string): string {
  const name = authenticatedUser(headers);
  if (!name) {
    throw new Error(
      `Cannot tell which user the token belongs to: Bitbucket named no user (X-AUSERNAME header) on ${request} (hint: the request was answered anonymously; set BITBUCKET_TOKEN to a user's token)`,
    );
  }
  return name;
}

/** Reads a pull request, with the response headers (see {@link callerName}). */
export async function readPullRequest(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  signal: AbortSignal,
): Promise<{ pr: z.infer<typeof PullRequest>; headers: Headers }> {
  const reply = await bitbucket.request({
    path: prPath(project, repo, id),
    schema: PullRequest,
    signal,
  });
  return { pr: reply.body, headers: reply.headers };
}
