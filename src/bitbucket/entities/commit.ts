/** Commits and the people on them, as Bitbucket sends them. */
import { z } from "../../deps/zod.ts";

/** A commit's author or committer (RestPerson). */
export const Person = z.object({
  name: z.string(),
  emailAddress: z.string().optional(),
});

/** A commit by id only (RestMinimalCommit), e.g. a parent. */
export const MinimalCommit = z.object({
  id: z.string(),
  displayId: z.string().optional(),
});

/** A commit (RestCommit). Timestamps are milliseconds since the epoch. */
export const Commit = z.object({
  id: z.string(),
  displayId: z.string(),
  message: z.string().optional(),
  author: Person.optional(),
  authorTimestamp: z.number().int().optional(),
  committer: Person.optional(),
  committerTimestamp: z.number().int().optional(),
  parents: z.array(MinimalCommit).optional(),
});
