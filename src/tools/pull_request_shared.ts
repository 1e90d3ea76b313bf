/**
 * What the pull request tools share: id and choice arguments, the lean shapes
 * a pull request is returned in, and how the caller's username is learned.
 */
import { z } from "zod";
import { type BitbucketClient, parseEntity } from "../bitbucket/client.ts";
import {
  type Participant,
  PullRequest,
  type PullRequestRef,
} from "../bitbucket/entities/pull_request.ts";
import type { ApplicationUser } from "../bitbucket/entities/user.ts";
import { apiPath } from "../bitbucket/path.ts";
import { RepoArgs } from "./fragments.ts";

/**
 * A positive integer id. A string of digits is refused, not coerced: the
 * message says how to pass it, and the SDK prefixes it with the argument name.
 */
export function idArg(description: string) {
  return z.number({
    error: (issue) =>
      issue.input === undefined
        ? "required: a positive integer"
        : `must be a positive integer given as a JSON number, e.g. 42 (not the string "42")`,
  }).int().positive().describe(description);
}

/**
 * One of a fixed set of words, accepted in any case (and with `-` or spaces for
 * `_`) and normalised by `normalise`. An unknown word is refused with the
 * permitted values; they are listed in the description, not as a JSON enum.
 */
export function oneOf<const T extends readonly string[]>(
  values: T,
  description: string,
  normalise: (raw: string) => string = (raw) => raw.trim().toUpperCase().replace(/[-\s]+/g, "_"),
) {
  return z.string().max(64).transform((raw, ctx): T[number] => {
    const value = normalise(raw);
    if ((values as readonly string[]).includes(value)) return value as T[number];
    ctx.addIssue({
      code: "custom",
      message: `must be one of ${values.join(", ")} (any case), not ${JSON.stringify(raw)}`,
    });
    return z.NEVER;
  }).describe(`${description}: ${values.join(", ")}`);
}

/** The arguments that name one pull request. */
export const PrArgs = RepoArgs.extend({ pr_id: idArg("Pull request id") });

/** The REST path of a pull request; `rest` is appended as trusted literal text. */
export function prPath(project: string, repo: string, id: number, rest = ""): string {
  return apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests/${id}` + rest;
}

/** A branch name as a fully qualified ref: `main` becomes `refs/heads/main`; `refs/...` is kept. */
export function qualifyBranch(name: string): string {
  return name.startsWith("refs/") ? name : `refs/heads/${name}`;
}

/** A person as tools return them. */
export const UserOut = z.object({
  name: z.string().describe("Username"),
  displayName: z.string().optional(),
});

/** Trims a Bitbucket user to {@link UserOut}. */
export function userOut(user: z.infer<typeof ApplicationUser>): z.infer<typeof UserOut> {
  return { name: user.name, displayName: user.displayName };
}

const ReviewerOut = UserOut.extend({
  status: z.string().describe("APPROVED, NEEDS_WORK or UNAPPROVED"),
});

const RefOut = z.object({
  id: z.string().describe("Fully qualified ref"),
  displayId: z.string(),
  latestCommit: z.string().optional(),
  repository: z.string().describe("PROJECT/repo"),
});

/** A pull request as tools return it. Dates are milliseconds since the epoch. */
export const PullRequestOut = z.object({
  id: z.number().int(),
  version: z.number().int().describe("Pass to writes that take a version"),
  title: z.string(),
  description: z.string().optional(),
  state: z.string().describe("OPEN, MERGED or DECLINED"),
  draft: z.boolean(),
  author: UserOut,
  reviewers: z.array(ReviewerOut),
  fromRef: RefOut,
  toRef: RefOut,
  createdDate: z.number().int(),
  updatedDate: z.number().int().optional(),
  closedDate: z.number().int().optional(),
  link: z.string().optional().describe("Web page of the pull request"),
});

/** A pull request in a listing: everything but the description. */
export const PullRequestSummary = PullRequestOut.omit({ description: true });

/** A participant's review status, derived from `approved` on servers that omit it. */
function reviewStatus(p: z.infer<typeof Participant>): string {
  return p.status ?? (p.approved ? "APPROVED" : "UNAPPROVED");
}

function refOut(ref: z.infer<typeof PullRequestRef>): z.infer<typeof RefOut> {
  return {
    id: ref.id,
    displayId: ref.displayId,
    latestCommit: ref.latestCommit,
    repository: `${ref.repository.project.key}/${ref.repository.slug}`,
  };
}

/** Trims a Bitbucket pull request to {@link PullRequestOut}. */
export function pullRequestOut(pr: z.infer<typeof PullRequest>): z.infer<typeof PullRequestOut> {
  return {
    id: pr.id,
    version: pr.version,
    title: pr.title,
    description: pr.description,
    state: pr.state,
    draft: pr.draft ?? false,
    author: userOut(pr.author.user),
    reviewers: pr.reviewers.map((r) => ({ ...userOut(r.user), status: reviewStatus(r) })),
    fromRef: refOut(pr.fromRef),
    toRef: refOut(pr.toRef),
    createdDate: pr.createdDate,
    updatedDate: pr.updatedDate,
    closedDate: pr.closedDate,
    link: pr.links?.self?.[0]?.href,
  };
}

/** Trims a Bitbucket pull request to {@link PullRequestSummary}. */
export function pullRequestSummary(
  pr: z.infer<typeof PullRequest>,
): z.infer<typeof PullRequestSummary> {
  const { description: _, ...summary } = pullRequestOut(pr);
  return summary;
}

/**
 * The username the token acts as. Bitbucket names the authenticated user in
 * the `X-AUSERNAME` header of every authenticated response, so a GET the tool
 * makes anyway tells us who the caller is without asking for it separately.
 */
export function callerName(headers: Headers, request: string): string {
  const name = headers.get("X-AUSERNAME");
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
  const path = prPath(project, repo, id);
  const response = await bitbucket.request({ method: "GET", path, signal });
  return { pr: parseEntity(PullRequest, response.body, "GET", path), headers: response.headers };
}
