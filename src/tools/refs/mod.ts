/**
 * The `refs` toolset: branches, tags and branch permissions. Its tools, in `tools/list` order; listing
 * a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
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

/** The `refs` toolset. */
export const REFS: Toolset = defineToolset({
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
});
