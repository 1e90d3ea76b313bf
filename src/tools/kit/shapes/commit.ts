/** A commit as tools return it. */
import { z } from "../../../deps/zod.ts";
import type { Commit } from "../../../bitbucket/entities/commit.ts";
import { cleanText } from "../../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../../bitbucket/text/visible_id.ts";
import { DateOut, isoDate } from "./date.ts";

/** A commit's author or committer. */
const PersonOut = z.object({
  name: z.string(),
  emailAddress: z.string().optional(),
});

/** A commit. */
export const CommitOut = z.object({
  id: z.string().describe("Full commit id"),
  displayId: z.string().describe("Abbreviated id"),
  message: z.string().optional(),
  author: PersonOut.optional(),
  authorTimestamp: DateOut.optional().describe("When it was written"),
  committer: PersonOut.optional(),
  committerTimestamp: DateOut.optional().describe("When it was committed"),
  parents: z.array(z.object({ id: z.string(), displayId: z.string().optional() })).optional(),
});

/** Trims a Bitbucket commit to {@link CommitOut}. */
export function commitOut(commit: z.infer<typeof Commit>): z.infer<typeof CommitOut> {
  const person = (p: typeof commit.author) =>
    p && { name: cleanText(p.name), emailAddress: visibleId(p.emailAddress) };
  return {
    id: commit.id,
    displayId: commit.displayId,
    message: cleanText(commit.message),
    author: person(commit.author),
    authorTimestamp: isoDate(commit.authorTimestamp),
    committer: person(commit.committer),
    committerTimestamp: isoDate(commit.committerTimestamp),
    parents: commit.parents?.map((p) => ({ id: p.id, displayId: p.displayId })),
  };
}
