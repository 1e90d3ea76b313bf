/** Branches and tags as tools return them, their names made visible (`visibleId`). */
import { z } from "../../../deps/zod.ts";
import type { Branch, Tag } from "../../../bitbucket/entities/ref.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";

/** A ref by its names and the commit it points at. */
export const RefTipOut = z.object({
  id: z.string().describe("Fully qualified name, e.g. refs/heads/main"),
  displayId: z.string(),
  latestCommit: z.string().optional(),
});

/** Trims a branch or tag to {@link RefTipOut}. */
export function refTipOut(ref: z.infer<typeof Branch>): z.infer<typeof RefTipOut> {
  return {
    id: visibleId(ref.id),
    displayId: visibleId(ref.displayId),
    latestCommit: ref.latestCommit,
  };
}

/** A branch; whether it is the default is always stated. */
export const BranchOut = RefTipOut.extend({ isDefault: z.boolean() });

/** Trims a branch to {@link BranchOut}: servers say `isDefault`, the spec `default`. */
export function branchOut(branch: z.infer<typeof Branch>): z.infer<typeof BranchOut> {
  return { ...refTipOut(branch), isDefault: branch.isDefault ?? branch.default ?? false };
}

/** A tag: `latestCommit` is the tagged commit, `hash` the tag object of an annotated tag. */
export const TagOut = RefTipOut.extend({
  id: z.string().describe("Fully qualified name, e.g. refs/tags/v1.0"),
  type: z.string().optional(),
  hash: z.string().optional().describe("Tag object of an annotated tag"),
});

/** Trims a tag to {@link TagOut}; a lightweight tag's null `hash` is left out. */
export function tagOut(tag: z.infer<typeof Tag>): z.infer<typeof TagOut> {
  return { ...refTipOut(tag), type: tag.type, hash: tag.hash ?? undefined };
}
