/**
 * What a view draws, as `show` returns it under `structuredContent.view`
 * (version {@link VIEW_VERSION}): one shape per kind, each carrying the
 * Bitbucket origin the page may open links on. Bitbucket text in it is
 * cleaned like every tool's, dates are ISO 8601 UTC.
 */
import { z } from "../../deps/zod.ts";
import { DateOut, PullRequestOut, PullRequestSummary, UserOut, VIEW_VERSION } from "../kit/mod.ts";

/** The kinds of view, in the order `show` offers them. */
export const KINDS = ["pull_request", "diff", "pull_requests"] as const;

/** What every view carries: its version, its kind, where its links may point, what it is of. */
const Base = z.object({
  version: z.literal(VIEW_VERSION),
  origin: z.string().describe("The Bitbucket origin: the only host the page opens links on"),
  project: z.string(),
  repo: z.string(),
});

const BuildOut = z.object({
  key: z.string(),
  state: z.string(),
  name: z.string().optional(),
  url: z.string().optional(),
});

/** A pull request with its review state: reviewers, builds, merge checks, tasks. */
export const PullRequestView = Base.extend({
  kind: z.literal("pull_request"),
  pullRequest: PullRequestOut,
  builds: z.array(BuildOut).optional().describe("Of the head commit"),
  merge: z.object({
    canMerge: z.boolean(),
    conflicted: z.boolean(),
    vetoes: z.array(z.object({ summary: z.string(), detail: z.string().optional() })),
  }).optional(),
  tasks: z.object({ open: z.number().int(), complete: z.boolean() }).optional(),
});

const LineOut = z.object({
  type: z.enum(["ADDED", "REMOVED", "CONTEXT"]),
  old: z.number().int().optional(),
  new: z.number().int().optional(),
  text: z.string(),
});

const ThreadOut = z.object({
  id: z.number().int(),
  line: z.number().int().optional(),
  lineType: z.string().optional(),
  fileType: z.string().optional(),
  author: UserOut,
  text: z.string(),
  createdDate: DateOut,
  replies: z.number().int(),
});

/** A pull request's diff by file, its open inline threads at their lines. */
export const DiffView = Base.extend({
  kind: z.literal("diff"),
  pullRequest: z.object({ id: z.number().int(), title: z.string(), link: z.string().optional() }),
  files: z.array(z.object({
    path: z.string(),
    srcPath: z.string().optional(),
    hunks: z.array(z.object({ header: z.string(), lines: z.array(LineOut) })),
    threads: z.array(ThreadOut),
  })),
  cut: z.object({
    maxBytes: z.number().int(),
    omittedFiles: z.array(z.string()).optional(),
  }).optional().describe("The diff was cut at maxBytes"),
});

/** A list of pull requests. */
export const PullRequestsView = Base.extend({
  kind: z.literal("pull_requests"),
  state: z.string(),
  pullRequests: z.array(PullRequestSummary.extend({
    builds: z.object({
      successful: z.number().int(),
      failed: z.number().int(),
      inProgress: z.number().int(),
    }).optional(),
  })),
  isLastPage: z.boolean(),
});

/** Any view. */
export const ViewOut = z.discriminatedUnion("kind", [PullRequestView, DiffView, PullRequestsView]);

/** Any view, as its data. */
export type View = z.infer<typeof ViewOut>;
