import type { Tool } from "./kit/define.ts";
import { getRepository, searchRepositories } from "./repositories/repositories.ts";
import {
  createBranch,
  createTag,
  deleteBranch,
  deleteTag,
  listBranches,
  listTags,
  resolveRef,
} from "./refs/refs.ts";
import { listBranchRestrictions } from "./refs/branch_restrictions.ts";
import { findUsers } from "./repositories/users.ts";
import {
  compareRefs,
  getCommit,
  getCommitDiff,
  getCompareDiff,
  listCommitChanges,
  listCommitPullRequests,
  listCommits,
} from "./commits/commits.ts";
import {
  getPrDiff,
  getPrMergeStatus,
  getPullRequest,
  listPrActivity,
  listPrChanges,
  listPrCommits,
  listPullRequests,
} from "./pull_requests/pull_requests.ts";
import { addPrComment, listPrComments, listPrTasks } from "./pull_requests/comments.ts";
import {
  applyPrSuggestion,
  deletePrComment,
  updatePrComment,
} from "./pull_requests/comment_edits.ts";
import { discardPrReview, getPrReview, submitPrReview } from "./pull_requests/review.ts";
import { getDefaultReviewers } from "./pull_requests/reviewers.ts";
import {
  createPullRequest,
  declinePullRequest,
  disableAutoMerge,
  enableAutoMerge,
  mergePullRequest,
  reopenPullRequest,
  updatePullRequest,
} from "./pull_requests/lifecycle.ts";
import { listProjects } from "./repositories/projects.ts";
import {
  getBuildStatus,
  getBuildSummary,
  listCodeInsightsAnnotations,
  listCodeInsightsReports,
  listRequiredBuilds,
  setBuildStatus,
} from "./builds/builds.ts";
import { getFileContent, listFiles } from "./source/files.ts";
import { searchCode } from "./source/search_code.ts";
import { getFileBlame, getFileHistory, listLastModified } from "./source/history.ts";
import { commitFile } from "./source/commit_file.ts";

/** A named group of tools a workflow can ask for with `--toolsets`. */
export interface Toolset {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly Tool[];
}

/**
 * Every tool, by toolset, in the order `tools/list` shows them. Each tool
 * belongs to exactly one toolset; each write says why it has its access in
 * its own definition (`access.why`), which `tools` and the README show.
 * Listing needs no credentials. The README's tables and `--help` are made
 * from this list (`deno task docs`).
 */
export const TOOLSETS: readonly Toolset[] = [
  {
    name: "repositories",
    description: "find repositories, projects and users",
    tools: [searchRepositories, getRepository, listProjects, findUsers],
  },
  {
    name: "refs",
    description: "branches, tags and branch permissions",
    tools: [
      listBranches,
      resolveRef,
      listTags,
      listBranchRestrictions,
      createTag,
      createBranch,
      deleteBranch,
      deleteTag,
    ],
  },
  {
    name: "commits",
    description: "history and comparisons",
    tools: [
      listCommits,
      getCommit,
      getCommitDiff,
      listCommitChanges,
      listCommitPullRequests,
      compareRefs,
      getCompareDiff,
    ],
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
      listPrActivity,
      listPrComments,
      listPrTasks,
      getPrReview,
      getPrMergeStatus,
      getDefaultReviewers,
      createPullRequest,
      updatePullRequest,
      reopenPullRequest,
      addPrComment,
      updatePrComment,
      disableAutoMerge,
      submitPrReview,
      discardPrReview,
      deletePrComment,
      applyPrSuggestion,
      mergePullRequest,
      declinePullRequest,
      enableAutoMerge,
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
      listCodeInsightsAnnotations,
      setBuildStatus,
    ],
  },
  {
    name: "source",
    description: "files at any ref: read, search, blame, history, commit",
    tools: [
      listFiles,
      getFileContent,
      searchCode,
      getFileBlame,
      getFileHistory,
      listLastModified,
      commitFile,
    ],
  },
];

/** Every tool, in `tools/list` order. */
export const CATALOGUE: readonly Tool[] = TOOLSETS.flatMap((set) => set.tools);

/** The name of the toolset a tool belongs to (undefined for a tool outside the catalogue). */
export function toolsetOf(tool: Tool): string | undefined {
  return TOOLSETS.find((set) => set.tools.includes(tool))?.name;
}
