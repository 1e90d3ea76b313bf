/**
 * The `repositories` toolset: find repositories, projects and users. Its tools, in `tools/list` order; each
 * names this toolset where it is declared.
 */
import { defineToolset, type Toolset } from "../kit/toolset.ts";
import { getRepository, searchRepositories } from "./repositories.ts";
import { listProjects } from "./projects.ts";
import { findUsers } from "./users.ts";

/** The `repositories` toolset. */
export const REPOSITORIES: Toolset = defineToolset({
  name: "repositories",
  description: "find repositories, projects and users",
  tools: [searchRepositories, getRepository, listProjects, findUsers],
});
