/**
 * The `commits` toolset: history and comparisons. Its tools, in `tools/list` order; listing
 * a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import {
  compareRefs,
  getCommit,
  getCommitDiff,
  getCompareDiff,
  listCommitChanges,
  listCommitPullRequests,
  listCommits,
} from "./commits.ts";
import { addCommitComment, listCommitComments } from "./comments.ts";

/** The `commits` toolset. */
export const COMMITS: Toolset = defineToolset({
  name: "commits",
  description: "history and comparisons",
  tools: [
    listCommits,
    getCommit,
    getCommitDiff,
    listCommitChanges,
    listCommitPullRequests,
    listCommitComments,
    compareRefs,
    getCompareDiff,
    addCommitComment,
  ],
});
