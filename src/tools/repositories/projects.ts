import { z } from "../../deps/zod.ts";
import { Project } from "../../bitbucket/entities/repository.ts";
import { nameArg, PagingArgs } from "../kit/args.ts";
import { defineTool, READ_ONLY } from "../kit/define.ts";
import { listing } from "../kit/list_tool.ts";
import { pagedOutput } from "../kit/shapes/page.ts";
import { ProjectOut, projectOut } from "../kit/shapes/repository.ts";

/** Lists the projects the token can see, optionally by name. */
export const listProjects = defineTool({
  name: "list_projects",
  toolset: "repositories",
  title: "List projects",
  description: "Projects you can see, optionally by part of the name.",
  access: READ_ONLY,
  input: z.object({ name: nameArg("Part of the name").optional() }).extend(
    PagingArgs.shape,
  ),
  output: pagedOutput("projects", ProjectOut),
  handler: listing("projects", Project, projectOut, ({ name }) => ({
    path: "/api/latest/projects",
    query: { name },
  })),
});
