/**
 * The data of a `pull_request_form` view: the model's draft of a new pull
 * request, or of changes to one, for the person to edit and submit. It reads
 * (the pull request edited, the repository's branches, the default reviewers
 * for the branches chosen and the conditions requiring their approval, the
 * server's version) and writes nothing: submitting is the person's press.
 */
import type { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { Branch, MinimalRef } from "../../bitbucket/entities/ref.ts";
import { requireFeature } from "../../bitbucket/features.ts";
import { collectPages } from "../../bitbucket/transport/paging.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { readPullRequest } from "../../bitbucket/pull_requests.ts";
import { refsPath } from "../../bitbucket/refs.ts";
import { cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { reviewStatus } from "../kit/shapes/pull_request.ts";
import { userOut } from "../kit/shapes/user.ts";
import { VIEW_VERSION } from "../kit/apps.ts";
import { defaultsFor } from "./_default_reviewers.ts";
import type { FormView } from "./_view_shape.ts";

/** How many branches (the most recently changed) a form offers to choose from. */
export const FORM_BRANCHES = 100;

/** What the model drafted: every field optional. */
export interface Draft {
  title?: string;
  description?: string;
  from_branch?: string;
  to_branch?: string;
  reviewers?: string[];
  draft?: boolean;
}

type Form = z.infer<typeof FormView>;
type Reviewer = Form["fields"]["reviewers"][number];

/** The repository's most recently changed branches, and which is the default. */
async function readBranches(bitbucket: BitbucketClient, project: string, repo: string) {
  const page = await collectPages(
    bitbucket,
    refsPath(project, repo, "branches"),
    Branch,
    { limit: FORM_BRANCHES },
    { orderBy: "MODIFICATION" },
  );
  const marked = page.values.find((b) => b.isDefault ?? b.default);
  return {
    names: page.values.map((b) => b.displayId),
    defaultBranch: marked?.displayId,
    complete: page.isLastPage,
  };
}

async function readDefaultBranch(bitbucket: BitbucketClient, project: string, repo: string) {
  const { body } = await bitbucket.request({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/default-branch`,
    schema: MinimalRef,
  });
  return body.displayId ?? body.id.replace(/^refs\/heads\//, "");
}

/** `names` as reviewers, each with the verdict `known` gives it. */
function named(names: readonly string[], known: ReadonlyMap<string, Reviewer>): Reviewer[] {
  return names.map((name) => known.get(name.toLowerCase()) ?? { name });
}

/** Reads what the form of `draft` needs, for a new pull request or (`prId`) one to edit. */
export async function formView(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  prId: number | undefined,
  draft: Draft,
  exposed: ReadonlySet<string>,
): Promise<Form> {
  const pr = prId === undefined
    ? undefined
    : (await readPullRequest(bitbucket, project, repo, prId)).pr;
  if (pr && draft.from_branch !== undefined && draft.from_branch !== pr.fromRef.displayId) {
    throw new Error(
      `Cannot show a form for pull request #${prId}: its source branch is ${pr.fromRef.displayId} and cannot change (hint: leave from_branch out)`,
    );
  }
  const branches = exposed.has("list_branches")
    ? await readBranches(bitbucket, project, repo)
    : undefined;
  const toBranch = draft.to_branch ?? pr?.toRef.displayId ?? branches?.defaultBranch ??
    await readDefaultBranch(bitbucket, project, repo);
  const fromBranch = pr?.fromRef.displayId ?? draft.from_branch ?? "";
  const known = new Map<string, Reviewer>(
    (pr?.reviewers ?? []).map((r) => [
      r.user.name.toLowerCase(),
      { ...userOut(r.user), status: reviewStatus(r) },
    ]),
  );
  let reviewers = draft.reviewers ? named(draft.reviewers, known) : [...known.values()];
  // A new pull request gets the default reviewers of its branches, shown for the person to keep or drop.
  const defaults = !pr && fromBranch !== "" && exposed.has("get_default_reviewers")
    ? await defaultsFor(bitbucket, project, repo, fromBranch, toBranch)
    : undefined;
  if (defaults) {
    const listed = new Set(reviewers.map((r) => r.name.toLowerCase()));
    const more = defaults.reviewers.filter((u) => !listed.has(u.name.toLowerCase()));
    reviewers = [
      ...reviewers.map((r) =>
        defaults.reviewers.some((u) => u.name === r.name) ? { ...r, isDefault: true } : r
      ),
      ...more.map((u) => ({ ...u, isDefault: true })),
    ];
  }
  const canDraft = await requireFeature(bitbucket, "draftPullRequests", "draft")
    .then(() => true, () => false);
  return {
    version: VIEW_VERSION,
    kind: "pull_request_form",
    origin: bitbucket.origin,
    project,
    repo,
    pullRequest: pr && {
      id: pr.id,
      version: pr.version,
      state: pr.state,
      author: userOut(pr.author.user),
      link: pr.links?.self?.[0]?.href,
    },
    fields: {
      // The model's words are cleaned too: what the person sees is what is sent.
      title: cleanText(draft.title ?? pr?.title ?? ""),
      description: cleanText(draft.description ?? pr?.description ?? ""),
      fromBranch,
      toBranch,
      reviewers,
      draft: canDraft && (draft.draft ?? pr?.draft ?? false),
    },
    branches,
    defaults,
    canDraft,
    findUsers: exposed.has("find_users"),
  };
}
