import { z } from "zod";
import { apiPath } from "../bitbucket/path.ts";
import { Repository } from "../bitbucket/entities/repository.ts";
import { nameArg, PagingArgs, RepoArgs } from "./args.ts";
import { defineTool, READ_ONLY } from "./define.ts";
import { listing } from "./listing.ts";
import { pagedOutput } from "./shapes/page.ts";
import { RepositorySummaryOut, repositorySummaryOut } from "./shapes/repository.ts";

/** Finds repositories by name and/or project across the server. */
export const searchRepositories = defineTool({
  name: "search_repositories",
  title: "Search repositories",
  description:
    "Find repositories the token can see, by name (case-insensitive, partial) and/or project key.",
  access: READ_ONLY,
  input: PagingArgs.extend({
    name: nameArg("Part of the repository name").optional(),
    project: nameArg("Project key").optional(),
  }),
  output: pagedOutput("repositories", RepositorySummaryOut),
  handler: listing("repositories", Repository, repositorySummaryOut, ({ name, project }) => ({
    path: "/api/latest/repos",
    query: { name, projectkey: project },
  })),
});

/** Gives the URLs to `git clone` a repository over HTTPS and SSH. */
export const getRepositoryCloneInfo = defineTool({
  name: "get_repository_clone_info",
  title: "Get clone URLs",
  description: "The HTTPS and SSH URLs to git clone a repository.",
  access: READ_ONLY,
  input: RepoArgs,
  output: z.object({
    cloneUrls: z.object({
      https: z.string().optional().describe("HTTP(S) clone URL"),
      ssh: z.string().optional().describe("SSH clone URL"),
    }),
  }),
  async handler({ project, repo }, { bitbucket, signal }) {
    const { body: repository } = await bitbucket.request({
      path: apiPath`/api/latest/projects/${project}/repos/${repo}`,
      schema: Repository,
      signal,
    });
    const links = repository.links?.clone ?? [];
    return {
      cloneUrls: {
        https: links.find((l) => l.name === "http")?.href,
        ssh: links.find((l) => l.name === "ssh")?.href,
      },
    };
  },
});
