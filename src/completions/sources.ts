/**
 * What each kind of argument is completed from: the same Bitbucket listings
 * the tools read (list_projects, the repositories of a project, open pull
 * requests, list_branches and list_tags, list_files, list_commits), one
 * bounded page each. An answer says whether it holds everything there is, so
 * a complete answer for a broader filter can serve a narrower one.
 */
import type { BitbucketClient } from "../bitbucket/client.ts";
import { Commit } from "../bitbucket/entities/commit.ts";
import { PullRequest } from "../bitbucket/entities/pull_request.ts";
import { Branch, Tag } from "../bitbucket/entities/ref.ts";
import { Project, Repository } from "../bitbucket/entities/repository.ts";
import { ListedFile } from "../bitbucket/entities/source.ts";
import { apiPath } from "../bitbucket/path.ts";
import { type Collected, collectPages, MAX_LIMIT } from "../bitbucket/paging.ts";
import { refsPath } from "../tools/refs/refs.ts";
import { filesListing } from "../tools/source/files.ts";

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

/** A gathered listing as an answer: each value a candidate, complete when it was the last page. */
function answerOf<T>(page: Collected<T>, candidate: (value: T) => Candidate): Answer {
  return { candidates: page.values.map(candidate), complete: page.isLastPage };
}

/** How many open pull requests (the newest) a completion looks at. */
export const PULL_REQUESTS_LOOKED_AT = 100;
/** How many commits (the newest of the default branch) a completion looks at. */
export const COMMITS_LOOKED_AT = 100;
/** How many branches and how many tags one filtered listing asks for. */
export const REFS_LOOKED_AT = 100;

/** The projects the caller can see, by key, with their names. */
export async function projectCandidates(
  bitbucket: BitbucketClient,
  signal: AbortSignal,
): Promise<Answer> {
  const page = await collectPages(
    bitbucket,
    "/api/latest/projects",
    Project,
    { limit: MAX_LIMIT },
    {},
    signal,
  );
  return answerOf(page, (p) => ({ value: p.key, text: p.name }));
}

/** A project's repositories, by slug, with their names. */
export async function repoCandidates(
  bitbucket: BitbucketClient,
  project: string,
  signal: AbortSignal,
): Promise<Answer> {
  const path = apiPath`/api/latest/projects/${project}/repos`;
  const page = await collectPages(bitbucket, path, Repository, { limit: MAX_LIMIT }, {}, signal);
  return answerOf(page, (r) => ({ value: r.slug, text: r.name }));
}

/** A repository's open pull requests, newest first, by id, with their titles. */
export async function pullRequestCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  signal: AbortSignal,
): Promise<Answer> {
  const page = await collectPages(
    bitbucket,
    apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
    PullRequest,
    { limit: PULL_REQUESTS_LOOKED_AT },
    { state: "OPEN" },
    signal,
  );
  return answerOf(page, (pr) => ({ value: String(pr.id), text: pr.title }));
}

/** The branches, then the tags, whose names contain `filter` (Bitbucket's filter), by name. */
export async function refCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  filter: string,
  signal: AbortSignal,
): Promise<Answer> {
  const query = { filterText: filter === "" ? undefined : filter };
  const paging = { limit: REFS_LOOKED_AT };
  const [branches, tags] = await Promise.all([
    collectPages(bitbucket, refsPath(project, repo, "branches"), Branch, paging, query, signal),
    collectPages(bitbucket, refsPath(project, repo, "tags"), Tag, paging, query, signal),
  ]);
  const names = [...branches.values, ...tags.values].map((ref) => ref.displayId);
  return {
    candidates: [...new Set(names)].map((value) => ({ value })),
    complete: branches.isLastPage && tags.isLastPage,
  };
}

/** The files under `dir` (the whole repository when empty) at `at`, as paths from the root. */
export async function pathCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  at: string | undefined,
  dir: string,
  signal: AbortSignal,
): Promise<Answer> {
  const { path, query } = filesListing(project, repo, dir === "" ? undefined : dir, at);
  const page = await collectPages(bitbucket, path, ListedFile, { limit: MAX_LIMIT }, query, signal);
  return answerOf(page, (file) => ({ value: dir === "" ? file : `${dir}/${file}` }));
}

/** The newest commits of the default branch, by full id, with their messages. */
export async function commitCandidates(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  signal: AbortSignal,
): Promise<Answer> {
  const page = await collectPages(
    bitbucket,
    apiPath`/api/latest/projects/${project}/repos/${repo}/commits`,
    Commit,
    { limit: COMMITS_LOOKED_AT },
    {},
    signal,
  );
  return answerOf(page, (c) => ({ value: c.id, text: c.message?.split("\n")[0] }));
}
