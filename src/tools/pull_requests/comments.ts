/** Reading a pull request's comment threads and tasks, and posting comments. */
import { z } from "../../deps/zod.ts";
import { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import {
  choiceArg,
  defineListTool,
  defineTool,
  idArg,
  lineArg,
  pagedResult,
  pathArg,
  PrArgs,
  READ_ONLY,
  safeWrite,
  textArg,
} from "../kit/mod.ts";
import { prPath } from "../../bitbucket/pull_requests.ts";
import { requireFeature } from "../../bitbucket/features.ts";
import { anchorFor, LINE_TYPES } from "./_anchor.ts";
import { collectKept, listThreads } from "../../bitbucket/threads.ts";
import { CommentOut, commentOut, TaskOut, taskOut } from "./_comment_shape.ts";

/** Whether a thread is wanted, by its root comment's state and its resolution. */
function wanted(state: string | undefined, resolved: boolean | undefined) {
  return (c: Comment) =>
    (state === undefined || c.state === state) &&
    (resolved === undefined || (c.threadResolved ?? false) === resolved);
}

export const listPrComments = defineListTool({
  name: "list_pr_comments",
  defaultFor: "discuss",
  reach: "repository",
  title: "List pull request comments",
  description: "Comment threads of a pull request or one file, with their replies.",
  access: READ_ONLY,
  input: PrArgs.extend({
    path: pathArg("Only this file").optional(),
    state: choiceArg(["OPEN", "RESOLVED"] as const, "Only this state").optional(),
    resolved: z.boolean().optional().describe("Resolved (true) or open"),
  }),
  key: "comments",
  item: CommentOut,
  async handler(args, { bitbucket }) {
    const { project, repo, pr_id, path, state, resolved, limit, start } = args;
    // Below 8.9 no thread is ever resolved: a filter on it would quietly say so of every one.
    if (resolved !== undefined) {
      await requireFeature(
        bitbucket,
        "threadResolution",
        `list pull request #${pr_id}'s comments by resolution`,
      );
    }
    const keep = wanted(state, resolved);
    if (path === undefined) {
      const page = await listThreads(
        bitbucket,
        prPath(project, repo, pr_id, "/activities"),
        { start, limit },
        (t) => keep(t.comment),
      );
      return pagedResult("comments", page, (t) => commentOut(t.comment, t.anchor));
    }
    // One file's comments carry their anchor themselves; the filter is also applied
    // here, for servers that ignore the state they are sent. Real servers list only
    // comments whose line still exists unless asked for ALL: after a rescope the
    // orphaned (outdated) ones would vanish.
    const page = await collectKept(
      bitbucket,
      prPath(project, repo, pr_id, "/comments"),
      Comment,
      { start, limit },
      { path, state, anchorState: "ALL" },
      keep,
    );
    return pagedResult("comments", page, (c) => commentOut(c));
  },
});

export const listPrTasks = defineListTool({
  name: "list_pr_tasks",
  defaultFor: "discuss",
  reach: "repository",
  title: "List pull request tasks",
  description: "Tasks (blocker comments) of a pull request.",
  access: READ_ONLY,
  input: PrArgs.extend({
    state: choiceArg(["OPEN", "RESOLVED", "ALL"] as const, "Default OPEN").optional(),
  }),
  key: "tasks",
  item: TaskOut,
  async handler({ project, repo, pr_id, state = "OPEN", limit, start }, { bitbucket }) {
    const only = state === "ALL" ? undefined : state;
    const page = await collectKept(
      bitbucket,
      prPath(project, repo, pr_id, "/blocker-comments"),
      Comment,
      { start, limit },
      { state: only },
      (c) => only === undefined || c.state === only,
    );
    return pagedResult("tasks", page, taskOut);
  },
});

export const addPrComment = defineTool({
  name: "add_pr_comment",
  defaultFor: "discuss",
  reach: "repository",
  title: "Comment on a pull request",
  description:
    "Comment on a pull request, a file, a line or a range, or reply; as a task or draft.",
  access: safeWrite(
    "adds a comment and changes nothing existing; a task only holds the merge until resolved",
  ),
  input: PrArgs.extend({
    text: textArg("Markdown").min(1),
    parent_id: idArg("Reply to this comment").optional(),
    path: pathArg("File").optional(),
    src_path: pathArg("Old path of a moved file").optional(),
    line: lineArg("New-side number; old-side for REMOVED").optional(),
    line_type: choiceArg(LINE_TYPES, "Default ADDED").optional(),
    start_line: lineArg("Range start").optional(),
    start_line_type: choiceArg(LINE_TYPES, "Default line_type").optional(),
    task: z.boolean().optional().describe("As a task: blocks merging"),
    pending: z.boolean().optional().describe("Draft until submit_pr_review"),
  }),
  output: z.object({ comment: CommentOut }),
  async handler(args, { bitbucket }) {
    const { project, repo, pr_id, text, parent_id, path, src_path, line, task, pending } = args;
    const action = `comment on pull request #${pr_id}`;
    const refuse = (why: string) => new Error(`Cannot ${action}: ${why}`);
    if ((line !== undefined || src_path !== undefined) && path === undefined) {
      throw refuse("line and src_path need path");
    }
    if ((args.line_type ?? args.start_line) !== undefined && line === undefined) {
      throw refuse("line_type and start_line need line");
    }
    if (args.start_line_type !== undefined && args.start_line === undefined) {
      throw refuse("start_line_type needs start_line");
    }
    if (parent_id !== undefined && path !== undefined) {
      throw refuse("a reply (parent_id) sits in its parent's thread; give parent_id or path");
    }
    if (pending && path === undefined && parent_id === undefined) {
      // Data Center publishes a draft that is not on a file at once, for everyone to see.
      throw refuse(
        "Bitbucket keeps a draft private only when it is on a file (hint: give path, or leave pending out to post it now)",
      );
    }
    const anchored = path === undefined ? undefined : anchorFor({
      path,
      srcPath: src_path,
      line,
      lineType: args.line_type,
      startLine: args.start_line,
      startLineType: args.start_line_type,
    });
    if (anchored !== undefined && "refused" in anchored) throw refuse(anchored.refused);
    // Below 9.3 a range is stored as its last line alone, a suggestion on it applied to that line.
    if (anchored?.range) await requireFeature(bitbucket, "multilineComments", action);
    const { body: comment } = await bitbucket.request({
      method: "POST",
      path: prPath(project, repo, pr_id, "/comments"),
      schema: Comment,
      body: {
        text,
        parent: parent_id === undefined ? undefined : { id: parent_id },
        anchor: anchored?.anchor,
        severity: task ? "BLOCKER" : undefined,
        state: pending ? "PENDING" : undefined,
      },
    });
    return { comment: commentOut(comment) };
  },
});
