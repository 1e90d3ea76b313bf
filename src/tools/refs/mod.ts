/**
 * The `refs` toolset: branches, tags and branch permissions. Its tools, in `tools/list` order; each
 * names this toolset where it is declared.
 */
import { defineToolset, type Toolset } from "../kit/toolset.ts";
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
