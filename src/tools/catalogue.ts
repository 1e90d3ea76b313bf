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

/**
 * Every tool, in the order `tools/list` shows them, grouped by domain. Each
 * write tool's reason for its safety sits in its definition (`why`). Listing
 * needs no credentials.
 */
export const CATALOGUE: readonly Tool[] = [
  // repositories
  searchRepositories,
  getRepositoryCloneInfo,
  // projects
  listProjects,
  // refs
  listBranches,
  resolveRef,
  listTags,
  createTag, // safe write: adds a ref, changes nothing existing
  // branches
  createBranch, // safe write: adds a ref, changes nothing existing
  // commits
  listCommits,
  getCommit,
  compareRefs,
  // pull requests
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
  // builds
  getBuildStatus,
  getBuildSummary,
  listRequiredBuilds,
  listCodeInsightsReports,
  setBuildStatus, // unsafe write: changes the CI signal merge checks and reviewers rely on
  // source
  listFiles,
  getFileContent,
];
