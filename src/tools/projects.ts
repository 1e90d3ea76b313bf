import { z } from "zod";
import { Project } from "../bitbucket/entities/repository.ts";
import { collectPages } from "../bitbucket/paging.ts";
import { defineTool } from "./define.ts";
import { named, PageTail, PagingArgs } from "./fragments.ts";

/** Lists the projects the token can see, optionally by name. */
export const listProjects = defineTool({
  name: "list_projects",
  title: "List projects",
  description: "Projects the token can see, optionally filtered by name: key, name, description.",
  readOnly: true,
  safe: true,
  input: z.object({
    name: z.string().min(1).max(256).optional().describe("Part of the project name"),
  }).extend(PagingArgs.shape),
  output: z.object({ projects: z.array(Project) }).extend(PageTail.shape),
  async handler({ name, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      "/api/latest/projects",
      Project,
      { start, limit },
      { name },
      signal,
    );
    return named("projects", page);
  },
});
