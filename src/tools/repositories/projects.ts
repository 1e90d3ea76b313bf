/** Listing the projects the token can see. */
import { z } from "../../deps/zod.ts";
import { Project } from "../../bitbucket/entities/repository.ts";
import { defineListTool, nameArg, ProjectOut, projectOut, READ_ONLY } from "../kit/mod.ts";

export const listProjects = defineListTool({
  name: "list_projects",
  reach: "server",
  confine: { item: (project) => ({ project: project.key }), wide: true },
  title: "List projects",
  description: "Projects you can see, optionally by part of the name.",
  access: READ_ONLY,
  input: z.object({ name: nameArg("Part of the name").optional() }),
  key: "projects",
  item: ProjectOut,
  entity: Project,
  map: projectOut,
  request: ({ name }) => ({ path: "/api/latest/projects", query: { name } }),
});
