import type { Tool } from "./define.ts";
import { getRepositoryCloneInfo, searchRepositories } from "./repositories.ts";
import { createBranch, createTag, listBranches, listTags, resolveRef } from "./refs.ts";
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
 * belongs to exactly one toolset; each write says why it has its access in
 * its own definition (`access.why`), which `tools` and the README show.
 * Listing needs no credentials. The README's tables and `--help` are made
 * from this list (`deno task docs`).
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
      createTag,
      createBranch,
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
      createPullRequest,
      updatePullRequest,
      addPrComment,
      disableAutoMerge,
      submitPrReview,
      updatePrTask,
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
      setBuildStatus,
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
