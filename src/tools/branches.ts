import { z } from "zod";
import { Branch } from "../bitbucket/entities/ref.ts";
import { apiPath } from "../bitbucket/path.ts";
import { defineTool } from "./define.ts";
import { RepoArgs } from "./fragments.ts";

/** A branch as create_branch returns it (made once, not per call). */
const CreatedBranch = Branch.pick({ id: true, displayId: true, latestCommit: true });

/** Creates a branch at a branch, tag or commit. */
export const createBranch = defineTool({
  name: "create_branch",
  title: "Create a branch",
  description: "Create a branch from a branch, tag or commit.",
  readOnly: false,
  safe: true,
  why: "adds a new ref; nothing existing is changed, and an existing branch name is refused",
  input: RepoArgs.extend({
    name: z.string().min(1).max(1024).describe("New branch name, e.g. feature/login"),
    start_point: z.string().min(1).max(1024).describe("Branch, tag or commit id to start from"),
  }),
  output: z.object({ branch: CreatedBranch }),
  async handler({ project, repo, name, start_point }, { bitbucket, signal }) {
    // The core branches POST (createBranchForRepository, REPO_WRITE), like create_tag's
    // tags POST: its startPoint takes any ref or commit, where the spec limits
    // branch-utils' startPoint to a commit id.
    const branch = await bitbucket.send(
      "POST",
      apiPath`/api/latest/projects/${project}/repos/${repo}/branches`,
      CreatedBranch,
      { name, startPoint: start_point },
      signal,
    );
    return { branch };
  },
});
