/**
 * The `pull_requests` toolset: the review loop: read, comment, review, merge. Its tools, in `tools/list` order; listing
 * a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import {
  getPrDiff,
  getPrMergeStatus,
  getPullRequest,
  listPrActivity,
  listPrChanges,
  listPrCommits,
  listPullRequests,
} from "./pull_requests.ts";
import { addPrComment, listPrComments, listPrTasks } from "./comments.ts";
import { applyPrSuggestion, deletePrComment, updatePrComment } from "./comment_edits.ts";
import { discardPrReview, getPrReview, submitPrReview } from "./review.ts";
import { getDefaultReviewers } from "./reviewers.ts";
import { listPullRequestSuggestions } from "./suggestions.ts";
import {
  createPullRequest,
  declinePullRequest,
  disableAutoMerge,
  enableAutoMerge,
  mergePullRequest,
  reopenPullRequest,
  updatePullRequest,
} from "./lifecycle.ts";
import { rebasePullRequest } from "./rebase.ts";

/** The `pull_requests` toolset. */
export const PULL_REQUESTS: Toolset = defineToolset({
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
    listPullRequestSuggestions,
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
    rebasePullRequest,
    mergePullRequest,
    declinePullRequest,
    enableAutoMerge,
  ],
});
