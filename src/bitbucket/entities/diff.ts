/**
 * Bitbucket's JSON diff (commits/{id}/diff, compare/diff): files, hunks,
 * segments and lines, as the server sends them.
 */
import { z } from "../../deps/zod.ts";
import { RestPath } from "./pull_request.ts";

/** One line of a diff segment (RestDiffLine): its text and line numbers on each side. */
const DiffLine = z.object({
  line: z.string(),
  source: z.number().int().optional(),
  destination: z.number().int().optional(),
  truncated: z.boolean().optional(),
});

/** A run of lines of one kind (RestDiffSegment). */
const DiffSegment = z.object({
  type: z.string(), // ADDED, REMOVED or CONTEXT
  lines: z.array(DiffLine).default([]),
  truncated: z.boolean().optional(),
});

/** A hunk (RestDiffHunk): where it starts, how many lines it spans on each side, and its heading. */
const DiffHunk = z.object({
  context: z.string().optional(), // what git prints after the @@ line numbers
  sourceLine: z.number().int(),
  sourceSpan: z.number().int(),
  destinationLine: z.number().int(),
  destinationSpan: z.number().int(),
  segments: z.array(DiffSegment).default([]),
  truncated: z.boolean().optional(),
});

/** One file's diff (RestDiff): `source` is null for an added file, `destination` for a deleted one. */
export const FileDiff = z.object({
  source: RestPath.nullish(),
  destination: RestPath.nullish(),
  binary: z.boolean().optional(),
  hunks: z.array(DiffHunk).default([]),
  truncated: z.boolean().optional(),
});

/**
 * A diff as Bitbucket's JSON diff resources send it (commits/{id}/diff,
 * compare/diff): every file's diff, and whether the server cut it short.
 */
export const JsonDiff = z.object({
  fromHash: z.string().nullish(),
  toHash: z.string().nullish(),
  contextLines: z.number().int().optional(),
  diffs: z.array(FileDiff).default([]),
  truncated: z.boolean().optional(),
});
