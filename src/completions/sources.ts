/**
 * What each kind of argument is completed from: the same Bitbucket listings
 * the tools read (list_projects, the repositories of a project, open pull
 * requests, list_branches and list_tags, list_files, list_commits), one
 * bounded page each. An answer says whether it holds everything there is, so
 * a complete answer for a broader filter can serve a narrower one. Values
 * are offered as results show them (`visibleId`), which the tools take back.
 */
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "../bitbucket/transport/client.ts";
import { Commit } from "../bitbucket/entities/commit.ts";
import { PullRequest } from "../bitbucket/entities/pull_request.ts";
import { Branch, Tag } from "../bitbucket/entities/ref.ts";
import { Project, Repository } from "../bitbucket/entities/repository.ts";
import { ListedFile } from "../bitbucket/entities/source.ts";
import { apiPath } from "../bitbucket/transport/path.ts";
import { filesListing } from "../bitbucket/files.ts";
import { collectPages, type ListingRequest, MAX_LIMIT } from "../bitbucket/transport/paging.ts";
import { refsPath } from "../bitbucket/refs.ts";
import { visibleId } from "../bitbucket/text/visible_id.ts";

/** One value a completion may offer, and the text beside it the typed value may also match. */
export interface Candidate {
  value: string;
  /** A name or title: typing part of it finds the value too. */
  text?: string;
}

/** What one listing gave: its candidates, and whether they are all there are. */
export interface Answer {
  candidates: Candidate[];
  complete: boolean;
}

/**
 * The first `limit` values of the listing `request` names, parsed with
 * `entity`, as an answer: each value a candidate, complete when the listing
 * ended within them.
 */
async function answerOf<E extends z.ZodType>(
  bitbucket: BitbucketClient,
  { path, query }: ListingRequest,
  entity: E,
  limit: number,
  candidate: (value: z.infer<E>) => Candidate,
): Promise<Answer> {
  const page = await collectPages(bitbucket, path, entity, { limit }, query);
  return { candidates: page.values.map(candidate), complete: page.isLastPage };
}

/** How many open pull requests (the newest) a completion looks at. */
export const PULL_REQUESTS_LOOKED_AT = 100;
/** How many commits (the newest of the default branch) a completion looks at. */
export const COMMITS_LOOKED_AT = 100;
/** How many branches and how many tags one filtered listing asks for. */
export const REFS_LOOKED_AT = 100;

/** The projects the caller can see, by key, with their names. */
export function projectCandidates(bitbucket: BitbucketClient): Promise<Answer> {
  const request = { path: "/api/latest/projects" };
  return answerOf(bitbucket, request, Project, MAX_LIMIT, (p) => ({
    value: visibleId(p.key),
    text: p.name,
  }));
}

/** A project's repositories, by slug, with their names. */
export function repoCandidates(bitbucket: BitbucketClient, project: string): Promise<Answer> {
  const request = { path: apiPath`/api/latest/projects/${project}/repos` };
  return answerOf(
    bitbucket,
    request,
    Repository,
    MAX_LIMIT,
    (r) => ({ value: visibleId(r.slug), text: r.name }),
  );
}

/** A repository's open pull requests, newest first, by id, with their titles. */
export function pullRequestCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
): Promise<Answer> {
  const request = {
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
    query: { state: "OPEN" },
  };
  return answerOf(
    bitbucket,
    request,
    PullRequest,
    PULL_REQUESTS_LOOKED_AT,
    (pr) => ({ value: String(pr.id), text: pr.title }),
  );
}

/** The branches, then the tags, whose names contain `filter` (Bitbucket's filter), by name. */
export async function refCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  filter: string,
): Promise<Answer> {
  const query = { filterText: filter === "" ? undefined : filter };
  const paging = { limit: REFS_LOOKED_AT };
  const [branches, tags] = await Promise.all([
    collectPages(bitbucket, refsPath(project, repo, "branches"), Branch, paging, query),
    collectPages(bitbucket, refsPath(project, repo, "tags"), Tag, paging, query),
  ]);
  const names = [...branches.values, ...tags.values].map((ref) => visibleId(ref.displayId));
  return {
    candidates: [...new Set(names)].map((value) => ({ value })),
    complete: branches.isLastPage && tags.isLastPage,
  };
}

/** The files under `dir` (the whole repository when empty; real bytes) at `at`, as paths from the root. */
export function pathCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  at: string | undefined,
  dir: string,
): Promise<Answer> {
  const request = filesListing(project, repo, dir === "" ? undefined : dir, at);
  return answerOf(bitbucket, request, ListedFile, MAX_LIMIT, (file) => ({
    value: visibleId(dir === "" ? file : `${dir}/${file}`),
  }));
}

/** The newest commits of the default branch, by full id, with their messages. */
export function commitCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
): Promise<Answer> {
  const request = { path: apiPath`/api/latest/projects/${project}/repos/${repo}/commits` };
  return answerOf(bitbucket, request, Commit, COMMITS_LOOKED_AT, (c) => ({
    value: c.id,
    text: c.message?.split("\n")[0],
  }));
}
