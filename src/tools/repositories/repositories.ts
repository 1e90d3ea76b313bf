/** Finding repositories across the server, and reading one. */
import { z } from "../../deps/zod.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { Repository } from "../../bitbucket/entities/repository.ts";
import { MinimalRef } from "../../bitbucket/entities/ref.ts";
import { BitbucketError, rethrowDuring } from "../../bitbucket/transport/errors.ts";
import {
  defineListTool,
  defineTool,
  inRepository,
  nameArg,
  READ_ONLY,
  RepoArgs,
  RepositoryOut,
  repositoryOut,
  RepositorySummaryOut,
  repositorySummaryOut,
} from "../kit/mod.ts";

export const searchRepositories = defineListTool({
  name: "search_repositories",
  defaultFor: "find",
  reach: "server",
  confine: { item: inRepository, wide: true },
  title: "Search repositories",
  description: "Repositories by part of their name and/or by project.",
  access: READ_ONLY,
  input: z.object({
    name: nameArg("Part of the name").optional(),
    project: nameArg().optional(),
  }),
  key: "repositories",
  item: RepositorySummaryOut,
  entity: Repository,
  map: repositorySummaryOut,
  request: ({ name, project }) => ({
    path: "/api/latest/repos",
    query: { name, projectkey: project },
  }),
});

export const getRepository = defineTool({
  name: "get_repository",
  defaultFor: "find",
  reach: "repository",
  title: "Get a repository",
  description: "A repository: default branch, description, flags, clone URLs, fork origin.",
  access: READ_ONLY,
  input: RepoArgs,
  output: z.object({ repository: RepositoryOut }),
  async handler({ project, repo }, { bitbucket }) {
    const path = apiPath`/api/latest/projects/${project}/repos/${repo}`;
    const { body: repository } = await bitbucket.request({ path, schema: Repository });
    // The repository resource does not say its default branch (the spec marks it write-only).
    const defaultBranch = await bitbucket.request({
      path: `${path}/default-branch`,
      schema: MinimalRef,
    }).then(
      ({ body }) => body.displayId ?? body.id,
      (error) => {
        // The repository exists (it was just read), so a 404 means it has no default branch yet.
        if (error instanceof BitbucketError && error.kind === "not_found") return undefined;
        return rethrowDuring(`read the default branch of ${project}/${repo}`)(error);
      },
    );
    return { repository: repositoryOut(repository, defaultBranch) };
  },
});
