import { z } from "zod";
import type { BitbucketClient } from "../bitbucket/client.ts";
import {
  BUILD_STATES,
  BuildStats,
  BuildStatus,
  RefMatcher,
  RequiredBuildCondition,
} from "../bitbucket/entities/build.ts";
import { Commit } from "../bitbucket/entities/commit.ts";
import { InsightReport } from "../bitbucket/entities/insights.ts";
import { apiPath } from "../bitbucket/path.ts";
import { collectPages } from "../bitbucket/paging.ts";
import { defineTool } from "./define.ts";
import { CommitIdArg, named, PageTail, PagingArgs, RepoArgs } from "./fragments.ts";

const FULL_COMMIT_ID = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/**
 * The server-wide build-status resources take no repository, so an abbreviated
 * id cannot be resolved: Bitbucket keys statuses by the full id and would
 * silently find none. Such an id is refused rather than answered with nothing.
 */
const FullCommitIdArg = z.string().regex(FULL_COMMIT_ID, {
  message:
    "must be a full commit id (40 hex digits): build statuses are recorded against full ids; get_commit gives the full id of an abbreviated one",
}).describe("Full commit id (40 hex digits)");

/** Just the id of a commit: what expanding an abbreviated id needs. */
const CommitIdOnly = Commit.pick({ id: true });

/**
 * The full id of a commit in a repository. Code Insights needs full ids, and a
 * status stored against an abbreviation would not be found by id, so an
 * abbreviated id is looked up first; a full one is used as it is.
 */
async function fullCommitId(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  commitId: string,
  signal: AbortSignal,
): Promise<string> {
  if (FULL_COMMIT_ID.test(commitId)) return commitId.toLowerCase();
  const commit = await bitbucket.get(
    apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commitId}`,
    CommitIdOnly,
    undefined,
    signal,
  );
  return commit.id;
}

/** Lists every build status reported on a commit. */
export const getBuildStatus = defineTool({
  name: "get_build_status",
  title: "Get build statuses",
  description:
    "Every build status on a commit: key, state, name, URL, description, ref, build number, tests, dates.",
  readOnly: true,
  safe: true,
  input: z.object({ commit_id: FullCommitIdArg }).extend(PagingArgs.shape),
  output: z.object({ buildStatuses: z.array(BuildStatus) }).extend(PageTail.shape),
  async handler({ commit_id, limit, start }, { bitbucket, signal }) {
    // Only the deprecated server-wide resource lists every status of a commit: the
    // repository-scoped `.../commits/{commitId}/builds` GET returns one status and requires its key.
    const page = await collectPages(
      bitbucket,
      apiPath`/build-status/latest/commits/${commit_id.toLowerCase()}`,
      BuildStatus,
      { start, limit },
      {},
      signal,
    );
    return named("buildStatuses", page);
  },
});

/** Counts a commit's builds by state. */
export const getBuildSummary = defineTool({
  name: "get_build_summary",
  title: "Get build summary",
  description:
    "How many builds of a commit are successful, failed, in progress, cancelled and unknown.",
  readOnly: true,
  safe: true,
  input: z.object({ commit_id: FullCommitIdArg }),
  output: z.object({
    buildSummary: z.object({
      successful: z.number().int(),
      failed: z.number().int(),
      inProgress: z.number().int(),
      cancelled: z.number().int(),
      unknown: z.number().int(),
    }),
  }),
  async handler({ commit_id }, { bitbucket, signal }) {
    const stats = await bitbucket.get(
      apiPath`/build-status/latest/commits/stats/${commit_id.toLowerCase()}`,
      BuildStats,
      undefined,
      signal,
    );
    return {
      buildSummary: {
        successful: stats.successful ?? 0,
        failed: stats.failed ?? 0,
        inProgress: stats.inProgress ?? 0,
        cancelled: stats.cancelled ?? 0,
        unknown: stats.unknown ?? 0,
      },
    };
  },
});

/** A ref matcher as tools return it: its kind flattened to the kind's id. */
const RefMatcherOut = z.object({
  type: z.string().describe("ANY_REF, BRANCH, PATTERN, MODEL_CATEGORY or MODEL_BRANCH"),
  id: z.string(),
  displayId: z.string(),
});

function refMatcherOut(matcher: z.infer<typeof RefMatcher>): z.infer<typeof RefMatcherOut> {
  return { type: matcher.type.id, id: matcher.id, displayId: matcher.displayId };
}

const RequiredBuildOut = z.object({
  id: z.number().int(),
  buildParentKeys: z.array(z.string()).describe("Build keys that must be green to merge"),
  refMatcher: RefMatcherOut.describe("Target branches the check applies to"),
  exemptRefMatcher: RefMatcherOut.optional().describe("Source branches exempt from the check"),
});

/** Lists the required-builds merge checks of a repository. */
export const listRequiredBuilds = defineTool({
  name: "list_required_builds",
  title: "List required builds",
  description:
    "Required-builds merge checks: which build keys must pass, for which target branches, and which source branches are exempt.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend(PagingArgs.shape),
  output: z.object({ requiredBuilds: z.array(RequiredBuildOut) }).extend(PageTail.shape),
  async handler({ project, repo, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      apiPath`/required-builds/latest/projects/${project}/repos/${repo}/conditions`,
      RequiredBuildCondition,
      { start, limit },
      {},
      signal,
    );
    return named("requiredBuilds", {
      ...page,
      values: page.values.map((c) => ({
        id: c.id,
        buildParentKeys: c.buildParentKeys,
        refMatcher: refMatcherOut(c.refMatcher),
        ...(c.exemptRefMatcher ? { exemptRefMatcher: refMatcherOut(c.exemptRefMatcher) } : {}),
      })),
    });
  },
});

/** Lists the Code Insights reports on a commit. */
export const listCodeInsightsReports = defineTool({
  name: "list_code_insights_reports",
  title: "List Code Insights reports",
  description:
    "Code Insights reports on a commit (analysis, coverage, scans): key, title, result, reporter, link, data.",
  readOnly: true,
  safe: true,
  input: RepoArgs.extend({ commit_id: CommitIdArg }).extend(PagingArgs.shape),
  output: z.object({ reports: z.array(InsightReport) }).extend(PageTail.shape),
  async handler({ project, repo, commit_id, limit, start }, { bitbucket, signal }) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id, signal);
    const page = await collectPages(
      bitbucket,
      apiPath`/insights/latest/projects/${project}/repos/${repo}/commits/${commitId}/reports`,
      InsightReport,
      { start, limit },
      {},
      signal,
    );
    return named("reports", page);
  },
});

const STATE_LIST = BUILD_STATES.join(", ");

/** A build state in any case; the handler upper-cases it. */
const StateArg = z.string().refine(
  (v) => (BUILD_STATES as readonly string[]).includes(v.toUpperCase()),
  { message: `must be one of ${STATE_LIST} (any case)` },
).describe(`${STATE_LIST} (any case)`);

/** Reports a build result on a commit: the status merge checks and reviewers see. */
export const setBuildStatus = defineTool({
  name: "set_build_status",
  title: "Set a build status",
  description: "Store a build status on a commit, replacing one with the same key.",
  readOnly: false,
  safe: false,
  why:
    "it changes the CI signal others rely on: a status can unblock or block merges and misreport a build",
  idempotent: true,
  input: RepoArgs.extend({
    commit_id: CommitIdArg,
    key: z.string().min(1).max(255).describe("Build key, unique per commit, e.g. web-ci"),
    state: StateArg,
    url: z.string().min(1).max(450).describe("The build's page in the CI tool"),
    name: z.string().max(255).optional().describe("Short name of the build"),
    description: z.string().max(2000).optional().describe("What the result means"),
    build_number: z.string().max(255).optional().describe("This run's number, e.g. 42"),
  }),
  output: z.object({
    buildStatus: BuildStatus.pick({
      key: true,
      state: true,
      url: true,
      name: true,
      description: true,
      buildNumber: true,
    }).extend({ commitId: z.string() }).describe("The status as stored"),
  }),
  async handler(
    { project, repo, commit_id, key, state, url, name, description, build_number },
    { bitbucket, signal },
  ) {
    const commitId = await fullCommitId(bitbucket, project, repo, commit_id, signal);
    const status = {
      key,
      state: state.toUpperCase(),
      url,
      name,
      description,
      buildNumber: build_number,
    };
    // The repository-scoped resource (since 7.14) answers 204 with no body, so
    // what is reported back is what was sent and accepted.
    await bitbucket.send(
      "POST",
      apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${commitId}/builds`,
      z.unknown(),
      status,
      signal,
    );
    return { buildStatus: { commitId, ...status } };
  },
});
