import { z } from "zod";
import { apiPath } from "../bitbucket/path.ts";
import { collectPages } from "../bitbucket/paging.ts";
import { Repository } from "../bitbucket/entities/repository.ts";
import { defineTool } from "./define.ts";
import { named, PageTail, PagingArgs, RepoArgs } from "./fragments.ts";

/** A repository in a listing: clone links are left to get_repository_clone_info. */
const RepositorySummary = Repository.omit({ links: true });

/** Finds repositories by name and/or project across the server. */
export const searchRepositories = defineTool({
  name: "search_repositories",
  title: "Search repositories",
  description:
    "Find repositories the token can see, by name (case-insensitive, partial) and/or project key.",
  readOnly: true,
  safe: true,
  input: PagingArgs.extend({
    name: z.string().min(1).max(256).optional().describe("Part of the repository name"),
    project: z.string().min(1).max(256).optional().describe("Project key"),
  }),
  output: z.object({ repositories: z.array(RepositorySummary) }).extend(PageTail.shape),
  async handler({ name, project, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      "/api/latest/repos",
      RepositorySummary,
      {
        start,
        limit,
      },
      { name, projectkey: project },
      signal,
    );
    return named("repositories", page);
  },
});

/** Gives the URLs to `git clone` a repository over HTTPS and SSH. */
export const getRepositoryCloneInfo = defineTool({
  name: "get_repository_clone_info",
  title: "Get clone URLs",
  description: "The HTTPS and SSH URLs to git clone a repository.",
  readOnly: true,
  safe: true,
  input: RepoArgs,
  output: z.object({
    cloneUrls: z.object({
      https: z.string().optional().describe("HTTP(S) clone URL"),
      ssh: z.string().optional().describe("SSH clone URL"),
    }),
  }),
  async handler({ project, repo }, { bitbucket, signal }) {
    const repository = await bitbucket.get(
      apiPath`/api/latest/projects/${project}/repos/${repo}`,
      Repository,
      undefined,
      signal,
    );
    const links = repository.links?.clone ?? [];
    return {
      cloneUrls: {
        https: links.find((l) => l.name === "http")?.href,
        ssh: links.find((l) => l.name === "ssh")?.href,
      },
    };
  },
});
