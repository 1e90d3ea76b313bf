/**
 * A repository's files as Bitbucket lists and describes them: listings, sizes,
 * blame and the last commit per file.
 */
import { z } from "../../deps/zod.ts";
import { Commit } from "./commit.ts";

/** One entry of the files listing: a path relative to the directory listed. */
export const ListedFile = z.string();

/** The answer of `browse/{path}?size=true`: the file's size in bytes. */
export const FileSize = z.object({ size: z.number().int().min(0) });

/** Who last changed a run of lines (`browse?blame`): `lineNumber` is 1-based, the run `spannedLines` long. */
export const BlameRun = z.object({
  author: z.object({
    name: z.string(),
    emailAddress: z.string().optional(),
    displayName: z.string().optional(),
  }),
  authorTimestamp: z.number().int().optional(),
  commitId: z.string().optional(),
  commitHash: z.string().optional(), // The same id, under its older name
  commitDisplayId: z.string().optional(),
  displayCommitHash: z.string().optional(),
  fileName: z.string().optional(),
  lineNumber: z.number().int(),
  spannedLines: z.number().int(),
});

/**
 * The answer of `browse/{path}?blame&noContent`: a page of runs on current
 * servers (`values`; `blame` beside `lines` without noContent), a bare array
 * before 7.0 (BSERV-8482). Read as the runs and whether the file ends there.
 */
export const BlamePage = z.union([
  z.array(BlameRun).transform((runs) => ({ runs, isLastPage: undefined })),
  z.object({ values: z.array(BlameRun), isLastPage: z.boolean().optional() })
    .transform(({ values, isLastPage }) => ({ runs: values, isLastPage })),
  z.object({ blame: z.array(BlameRun), isLastPage: z.boolean().optional() })
    .transform(({ blame, isLastPage }) => ({ runs: blame, isLastPage })),
]);

/**
 * The answer of `last-modified[/{path}]?at=`: each file (relative to the path)
 * with the last commit that changed it, and the commit the walk started at.
 */
export const LastModified = z.object({
  files: z.record(z.string(), Commit),
  latestCommit: Commit.optional(),
});
