/**
 * What a view draws, as `show` returns it under `structuredContent.view`
 * (version {@link VIEW_VERSION}): one shape per kind, each carrying the
 * Bitbucket origin the page may open links on. Bitbucket text in it is
 * cleaned like every tool's, dates are ISO 8601 UTC.
 */
import { z } from "../../deps/zod.ts";
import {
  ChangeOut,
  DateOut,
  PullRequestOut,
  PullRequestSummary,
  UserOut,
  VIEW_VERSION,
} from "../kit/mod.ts";

/** The kinds of view, in the order `show` offers them. */
export const KINDS = [
  "pull_request",
  "diff",
  "threads",
  "pull_requests",
  "pull_request_form",
] as const;

/** What every view carries: its version, its kind, where its links may point, what it is of. */
const Base = z.object({
  version: z.literal(VIEW_VERSION),
  origin: z.string().describe("The Bitbucket origin: the only host the page opens links on"),
  project: z.string(),
  repo: z.string(),
  fingerprint: z.string().optional().describe("Changes when what is drawn changes"),
  actions: z.array(z.string()).optional().describe("The write tools its buttons may call"),
  kinds: z.array(z.string()).optional().describe("The kinds of view its buttons may open"),
});

/** The pull request a diff or threads view is of, with what tells a page it moved on. */
const PrHead = z.object({
  id: z.number().int(),
  title: z.string(),
  state: z.string(),
  head: z.string().optional().describe("The source branch's latest commit"),
  link: z.string().optional(),
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
  changes: z.object({
    files: z.array(ChangeOut.pick({ path: true, type: true, srcPath: true })),
    complete: z.boolean(),
  }).optional().describe("The files it changes"),
});

/** A line of a diff, numbered on the side(s) it has. */
export const LineOut = z.object({
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
  pullRequest: PrHead,
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

const ReplyOut = z.object({
  id: z.number().int(),
  parentId: z.number().int(),
  author: UserOut,
  text: z.string(),
  createdDate: DateOut,
  severity: z.string().optional().describe("BLOCKER for a task"),
  state: z.string().optional().describe("RESOLVED for a resolved task"),
});

/** A pull request's comment threads, each with its replies and the lines it sits on. */
export const ThreadsView = Base.extend({
  kind: z.literal("threads"),
  pullRequest: PrHead,
  canResolve: z.boolean().describe("The server resolves threads (8.9 or later)"),
  threads: z.array(
    ReplyOut.omit({ parentId: true }).extend({
      threadResolved: z.boolean(),
      anchor: z.object({
        path: z.string(),
        line: z.number().int().optional(),
        lineType: z.string().optional(),
        fileType: z.string().optional(),
        orphaned: z.boolean().optional(),
      }).optional(),
      lines: z.array(LineOut).optional().describe("The diff lines it sits on"),
      replies: z.array(ReplyOut),
    }),
  ),
  isLastPage: z.boolean(),
});

/** A pull request's reviewer as the form draws it: who, their verdict, whether a condition added them. */
const FormReviewer = UserOut.extend({
  status: z.string().optional(),
  isDefault: z.boolean().optional().describe("A default reviewer for these branches"),
});

/** A pull request form: the draft the person edits and submits; showing it writes nothing. */
export const FormView = Base.extend({
  kind: z.literal("pull_request_form"),
  pullRequest: z.object({
    id: z.number().int(),
    version: z.number().int(),
    state: z.string(),
    author: UserOut,
    link: z.string().optional(),
  }).optional().describe("The pull request edited; absent for a new one"),
  fields: z.object({
    title: z.string(),
    description: z.string(),
    fromBranch: z.string(),
    toBranch: z.string(),
    reviewers: z.array(FormReviewer),
    draft: z.boolean(),
  }),
  branches: z.object({
    names: z.array(z.string()),
    defaultBranch: z.string().optional(),
    complete: z.boolean(),
  }).optional().describe("The repository's branches to choose from"),
  defaults: z.object({
    reviewers: z.array(UserOut),
    conditions: z.array(z.object({
      reviewers: z.array(z.string()),
      requiredApprovals: z.number().int(),
    })).optional().describe("The default-reviewer conditions that apply, when readable"),
  }).optional().describe("Default reviewers for the chosen branches"),
  canDraft: z.boolean().describe("The server has draft pull requests (8.18 or later)"),
  findUsers: z.boolean().describe("Reviewers can be looked up by name (find_users)"),
});

/** Any view. */
export const ViewOut = z.discriminatedUnion("kind", [
  PullRequestView,
  DiffView,
  ThreadsView,
  PullRequestsView,
  FormView,
]);

/** Any view, as its data. */
export type View = z.infer<typeof ViewOut>;
