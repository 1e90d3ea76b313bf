/** Projects and repositories as tools return them. */
import { z } from "../../../deps/zod.ts";
import type { Project, Repository } from "../../../bitbucket/entities/repository.ts";
import { cleanText } from "../../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";

/** A project. */
export const ProjectOut = z.object({
  key: z.string().describe("Project key, as tools take it"),
  id: z.number().int().optional(),
  name: z.string().optional().describe("Display name"),
  description: z.string().optional(),
  public: z.boolean().optional(),
  type: z.string().optional().describe("NORMAL or PERSONAL"),
});

/** Trims a Bitbucket project to {@link ProjectOut}. */
export function projectOut(project: z.infer<typeof Project>): z.infer<typeof ProjectOut> {
  const { key, id, name, description, type } = project;
  return {
    key: visibleId(key),
    id,
    name: cleanText(name),
    description: cleanText(description),
    public: project.public,
    type,
  };
}

/** A repository in a listing: clone links and the default branch are left to get_repository. */
export const RepositorySummaryOut = z.object({
  slug: z.string().describe("Repository slug, as tools take it"),
  id: z.number().int().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  project: ProjectOut,
  scmId: z.string().optional().describe("Version control system, e.g. git"),
  state: z.string().optional().describe(
    "AVAILABLE, INITIALISING, INITIALISATION_FAILED or OFFLINE",
  ),
  public: z.boolean().optional(),
  archived: z.boolean().optional(),
  forkable: z.boolean().optional(),
});

/** Trims a Bitbucket repository to {@link RepositorySummaryOut}. */
export function repositorySummaryOut(
  repo: z.infer<typeof Repository>,
): z.infer<typeof RepositorySummaryOut> {
  const { slug, id, name, description, scmId, state, archived, forkable } = repo;
  const project = projectOut(repo.project);
  return {
    slug: visibleId(slug),
    id,
    name: cleanText(name),
    description: cleanText(description),
    project,
    scmId,
    state,
    public: repo.public,
    archived,
    forkable,
  };
}

/** One repository in full: its summary, default branch, clone URLs and, for a fork, its origin. */
export const RepositoryOut = RepositorySummaryOut.extend({
  defaultBranch: z.string().optional().describe("Absent when the repository has none yet (empty)"),
  cloneUrls: z.object({
    https: z.string().optional().describe("HTTP(S) clone URL"),
    ssh: z.string().optional().describe("SSH clone URL"),
  }),
  origin: z.string().optional().describe("For a fork: the PROJECT/repo it was forked from"),
});

/** A Bitbucket repository and its default branch's name as {@link RepositoryOut}. */
export function repositoryOut(
  repo: z.infer<typeof Repository>,
  defaultBranch: string | undefined,
): z.infer<typeof RepositoryOut> {
  const links = repo.links?.clone ?? [];
  return {
    ...repositorySummaryOut(repo),
    defaultBranch: visibleId(defaultBranch),
    cloneUrls: {
      https: visibleId(links.find((l) => l.name === "http")?.href),
      ssh: visibleId(links.find((l) => l.name === "ssh")?.href),
    },
    origin: repo.origin && visibleId(`${repo.origin.project.key}/${repo.origin.slug}`),
  };
}
