import type { Tool } from "./define.ts";
import { getRepositoryCloneInfo, searchRepositories } from "./repositories.ts";
import { createTag, listBranches, listTags, resolveRef } from "./refs.ts";
import { compareRefs, getCommit, listCommits } from "./commits.ts";
import {
  getPrDiff,
  getPrMergeStatus,
  getPullRequest,
  listPrChanges,
  listPrCommits,
  listPullRequests,
} from "./pull_requests.ts";
import {
  addPrComment,
  listPrComments,
  listPrTasks,
  updatePrTask,
} from "./pull_request_comments.ts";
import {
  createPullRequest,
  declinePullRequest,
  disableAutoMerge,
  enableAutoMerge,
  mergePullRequest,
  submitPrReview,
  updatePullRequest,
} from "./pull_request_actions.ts";
import { listProjects } from "./projects.ts";
import { createBranch } from "./branches.ts";
import {
  getBuildStatus,
  getBuildSummary,
  listCodeInsightsReports,
  listRequiredBuilds,
  setBuildStatus,
} from "./builds.ts";
import { getFileContent, listFiles } from "./source.ts";

/** A named group of tools a workflow can ask for with `--toolsets`. */
export interface Toolset {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly Tool[];
}

/**
 * Every tool, by toolset, in the order `tools/list` shows them. Each tool
 * belongs to exactly one toolset. Each write tool's reason for its safety sits
 * in its definition (`why`) and beside it here. Listing needs no credentials.
 */
export const TOOLSETS: readonly Toolset[] = [
  {
    name: "repositories",
    description: "find repositories and projects, clone URLs",
    tools: [searchRepositories, getRepositoryCloneInfo, listProjects],
  },
  {
    name: "refs",
    description: "branches and tags",
    tools: [
      listBranches,
      resolveRef,
      listTags,
      createTag, // safe write: adds a ref, changes nothing existing
      createBranch, // safe write: adds a ref, changes nothing existing
    ],
  },
  {
    name: "commits",
    description: "history and comparisons",
    tools: [listCommits, getCommit, compareRefs],
  },
  {
    name: "pull_requests",
    description: "the review loop: read, comment, review, merge",
    tools: [
      listPullRequests,
      getPullRequest,
      getPrDiff,
      listPrChanges,
      listPrCommits,
      listPrComments,
      listPrTasks,
      getPrMergeStatus,
      createPullRequest, // safe write: opens a new pull request, which can be declined
      updatePullRequest, // safe write: edits only the fields given, each can be set back
      addPrComment, // safe write: adds a comment; a task only holds the merge until resolved
      disableAutoMerge, // safe write: only stops a pending auto-merge
      submitPrReview, // unsafe write: an approval or needs-work feeds the merge checks
      updatePrTask, // unsafe write: resolving a task lifts a merge check
      mergePullRequest, // unsafe write: a merge cannot be undone
      declinePullRequest, // unsafe write: closes the pull request for everyone
      enableAutoMerge, // unsafe write: merges without another look, possibly at once
    ],
  },
  {
    name: "builds",
    description: "build statuses, required builds, Code Insights",
    tools: [
      getBuildStatus,
      getBuildSummary,
      listRequiredBuilds,
      listCodeInsightsReports,
      setBuildStatus, // unsafe write: changes the CI signal merge checks and reviewers rely on
    ],
  },
  {
    name: "source",
    description: "files at any ref",
    tools: [listFiles, getFileContent],
  },
];

/** Every tool, in `tools/list` order. */
export const CATALOGUE: readonly Tool[] = TOOLSETS.flatMap((set) => set.tools);

/** The name of the toolset a tool belongs to (undefined for a tool outside the catalogue). */
export function toolsetOf(tool: Tool): string | undefined {
  return TOOLSETS.find((set) => set.tools.includes(tool))?.name;
}
