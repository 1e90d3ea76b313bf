/**
 * The `repositories` toolset: find repositories, projects and users. Its tools, in `tools/list` order; listing
 * a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import { getRepository, searchRepositories } from "./repositories.ts";
import { listProjects } from "./projects.ts";
import { findUsers } from "./users.ts";

/** The `repositories` toolset. */
export const REPOSITORIES: Toolset = defineToolset({
  name: "repositories",
  description: "find repositories, projects and users",
  tools: [searchRepositories, getRepository, listProjects, findUsers],
});
