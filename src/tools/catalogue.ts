import type { Tool } from "./define.ts";
import { getRepositoryCloneInfo, searchRepositories } from "./repositories.ts";
import { createTag, listBranches, listTags, resolveRef } from "./refs.ts";
import { compareRefs, getCommit, listCommits } from "./commits.ts";

/**
 * Every tool, in the order `tools/list` shows them, grouped by domain. Each
 * write tool's reason for its safety sits in its definition (`why`). Listing
 * needs no credentials.
 */
export const CATALOGUE: readonly Tool[] = [
  // repositories
  searchRepositories,
  getRepositoryCloneInfo,
  // refs
  listBranches,
  resolveRef,
  listTags,
  createTag, // safe write: adds a ref, changes nothing existing
  // commits
  listCommits,
  getCommit,
  compareRefs,
];
