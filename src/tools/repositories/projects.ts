/** Listing the projects the token can see. */
import { z } from "../../deps/zod.ts";
import { Project } from "../../bitbucket/entities/repository.ts";
import { nameArg, PagingArgs } from "../kit/args.ts";
import { defineListTool } from "../kit/list_tool.ts";
import { ProjectOut, projectOut } from "../kit/shapes/repository.ts";

export const listProjects = defineListTool({
  name: "list_projects",
  toolset: "repositories",
  reach: "server",
  confine: { item: (project) => ({ project: project.key }), wide: true },
  title: "List projects",
  description: "Projects you can see, optionally by part of the name.",
  input: z.object({ name: nameArg("Part of the name").optional() }).extend(
    PagingArgs.shape,
  ),
  key: "projects",
  item: ProjectOut,
  entity: Project,
  map: projectOut,
  request: ({ name }) => ({ path: "/api/latest/projects", query: { name } }),
});
