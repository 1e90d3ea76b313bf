/**
 * The `commits` toolset: history and comparisons. Its tools, in `tools/list` order; each
 * names this toolset where it is declared.
 */
import { defineToolset, type Toolset } from "../kit/toolset.ts";
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
