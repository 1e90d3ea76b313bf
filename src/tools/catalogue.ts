import type { Tool } from "./define.ts";
import { getRepository, searchRepositories } from "./repositories.ts";
import {
  createBranch,
  createTag,
  deleteBranch,
  deleteTag,
  listBranches,
  listTags,
  resolveRef,
} from "./refs.ts";
import { listBranchRestrictions } from "./branch_restrictions.ts";
import { findUsers } from "./users.ts";
import {
  compareRefs,
  getCommit,
  getCommitDiff,
  getCompareDiff,
  listCommitChanges,
  listCommitPullRequests,
  listCommits,
} from "./commits.ts";
import {
  getPrDiff,
  getPrMergeStatus,
  getPullRequest,
  listPrActivity,
  listPrChanges,
  listPrCommits,
  listPullRequests,
} from "./pull_requests.ts";
import { addPrComment, listPrComments, listPrTasks } from "./pull_request_comments.ts";
import {
  applyPrSuggestion,
  deletePrComment,
  updatePrComment,
} from "./pull_request_comment_edits.ts";
import { discardPrReview, getPrReview, submitPrReview } from "./pull_request_review.ts";
import { getDefaultReviewers } from "./pull_request_reviewers.ts";
import {
  createPullRequest,
  declinePullRequest,
  disableAutoMerge,
  enableAutoMerge,
  mergePullRequest,
  reopenPullRequest,
  updatePullRequest,
} from "./pull_request_actions.ts";
import { listProjects } from "./projects.ts";
import {
  getBuildStatus,
  getBuildSummary,
  listCodeInsightsAnnotations,
  listCodeInsightsReports,
  listRequiredBuilds,
  setBuildStatus,
} from "./builds.ts";
import { getFileContent, listFiles } from "./source.ts";
import { searchCode } from "./search.ts";
import { getFileBlame, getFileHistory, listLastModified } from "./file_history.ts";
import { commitFile } from "./commit_file.ts";

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
