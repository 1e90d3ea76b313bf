/** Projects and repositories, as Bitbucket sends them. */
import { z } from "../../deps/zod.ts";

/** A project (RestProject), as embedded in repositories or listed on its own. */
export const Project = z.object({
  key: z.string(),
  id: z.number().int().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  public: z.boolean().optional(),
  type: z.string().optional(), // NORMAL or PERSONAL
});

/** A named link (`links.clone[]`): `name` is `http` or `ssh` for clone links. */
export const NamedLink = z.object({ href: z.string(), name: z.string().optional() });

/** The `links` object Bitbucket attaches to repositories. */
export const RepositoryLinks = z.object({
  clone: z.array(NamedLink).optional(),
  self: z.array(z.object({ href: z.string() })).optional(),
});

/** A repository (RestRepository), trimmed to what an agent uses. */
export const Repository = z.object({
  slug: z.string(),
  id: z.number().int().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  project: Project,
  scmId: z.string().optional(),
  state: z.string().optional(),
  public: z.boolean().optional(),
  archived: z.boolean().optional(),
  forkable: z.boolean().optional(),
  links: RepositoryLinks.optional(),
  /** The repository a fork was made from; absent for one that is no fork. */
  origin: z.object({ slug: z.string(), project: z.object({ key: z.string() }) }).optional(),
});
