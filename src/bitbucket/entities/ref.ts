/** Branches and tags, as Bitbucket sends them. */
import { z } from "../../deps/zod.ts";

/** A branch (RestBranch). Servers send `isDefault`; the spec names it `default`: both are read. */
export const Branch = z.object({
  id: z.string(), // Fully qualified name, e.g. refs/heads/main
  displayId: z.string(),
  type: z.string().optional(),
  latestCommit: z.string().optional(),
  isDefault: z.boolean().optional(),
  default: z.boolean().optional(),
});

/** A tag (RestTag): `latestCommit` is the tagged commit, `hash` the tag object of an annotated tag. */
export const Tag = z.object({
  id: z.string(), // Fully qualified name, e.g. refs/tags/v1.0
  displayId: z.string(),
  type: z.string().optional(),
  latestCommit: z.string().optional(),
  hash: z.string().nullish(),
});

/** A ref by name (RestMinimalRef), as embedded in other entities. */
export const MinimalRef = z.object({
  id: z.string(),
  displayId: z.string().optional(),
  type: z.string().optional(), // BRANCH or TAG
});
