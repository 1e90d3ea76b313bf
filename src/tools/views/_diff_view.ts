/**
 * The data of a `diff` view: a pull request's diff as get_pr_diff reads it
 * (cut at {@link VIEW_DIFF_BYTES}, the cut said), split into files, hunks and
 * numbered lines, with each file's open inline threads from the activity
 * stream as list_pr_comments reads them.
 */
import type { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import type { PullRequest } from "../../bitbucket/entities/pull_request.ts";
import { readCappedDiff } from "../../bitbucket/diff/read.ts";
import { splitDiff } from "../../bitbucket/diff/unified.ts";
import { prDiffSource, prPath, readPullRequest } from "../../bitbucket/pull_requests.ts";
import { listThreads, type Thread } from "../../bitbucket/threads.ts";
import { cleanCodeLine, cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { isoDate, userOut, VIEW_VERSION } from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import type { DiffView } from "./_view_shape.ts";
import type { Target } from "./_pull_request_view.ts";

/** The most diff a view draws: a page a person reads, not a download. */
export const VIEW_DIFF_BYTES = 200_000;
/** The most threads a view reads. */
export const MOST_THREADS = 500;

type DiffViewData = z.infer<typeof DiffView>;
type FileOut = DiffViewData["files"][number];
type Hunk = FileOut["hunks"][number];

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** One file section's hunks, every line numbered on the side(s) it has. */
export function hunksOf(section: string): Hunk[] {
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const line of section.split("\n")) {
    const head = HUNK.exec(line);
    if (head) {
      hunk = { header: cleanCodeLine(line), lines: [] };
      hunks.push(hunk);
      oldLine = Number(head[1]);
      newLine = Number(head[2]);
      continue;
    }
    if (!hunk || line.length === 0 || line.startsWith("\\")) continue;
    const text = cleanCodeLine(line.slice(1));
    if (line[0] === "+") hunk.lines.push({ type: "ADDED", new: newLine++, text });
    else if (line[0] === "-") hunk.lines.push({ type: "REMOVED", old: oldLine++, text });
    else hunk.lines.push({ type: "CONTEXT", old: oldLine++, new: newLine++, text });
  }
  return hunks;
}

/** What a diff or threads view says of its pull request: enough to tell when it moved on. */
export function prHead(pr: z.infer<typeof PullRequest>) {
  return {
    id: pr.id,
    title: cleanText(pr.title),
    state: pr.state,
    head: pr.fromRef.latestCommit,
    link: visibleId(pr.links?.self?.[0]?.href),
  };
}

/** An open inline thread as the view draws it. */
function threadOut({ comment, anchor }: Thread): FileOut["threads"][number] {
  const where = anchor ?? comment.anchor;
  return {
    id: comment.id,
    line: where?.line,
    lineType: where?.lineType,
    fileType: where?.fileType,
    author: userOut(comment.author),
    text: cleanText(comment.text),
    createdDate: isoDate(comment.createdDate),
    replies: countReplies(comment),
  };
}

function countReplies(comment: { comments?: unknown[] }): number {
  const replies = (comment.comments ?? []) as { comments?: unknown[] }[];
  return replies.reduce((n, r) => n + 1 + countReplies(r), 0);
}

/** An inline thread still open: anchored to a line of the diff, not resolved. */
function isOpenInline({ comment, anchor }: Thread): boolean {
  const where = anchor ?? comment.anchor;
  return where !== undefined && where.orphaned !== true && comment.threadResolved !== true &&
    comment.state !== "RESOLVED";
}

/** Reads pull request `target`'s diff and open inline threads. */
export async function diffView(
  bitbucket: BitbucketClient,
  { project, repo, pr_id }: Target,
): Promise<DiffViewData> {
  const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
  const source = prDiffSource(bitbucket, project, repo, pr_id, undefined);
  const capped = await readCappedDiff(source, undefined, VIEW_DIFF_BYTES);
  const activities = prPath(project, repo, pr_id, "/activities");
  const threads = await listThreads(bitbucket, activities, { limit: MOST_THREADS }, isOpenInline);
  const files = splitDiff(capped.diff).map((section): FileOut => ({
    path: visibleId(section.file),
    srcPath: visibleId(section.oldFile),
    hunks: hunksOf(section.text),
    threads: threads.values
      .filter((t) => (t.anchor ?? t.comment.anchor)?.path === section.file)
      .map(threadOut),
  }));
  return {
    version: VIEW_VERSION,
    kind: "diff",
    origin: bitbucket.origin,
    project,
    repo,
    pullRequest: prHead(pr),
    files,
    cut: capped.truncated
      ? { maxBytes: VIEW_DIFF_BYTES, omittedFiles: capped.omittedFiles?.map((f) => visibleId(f)) }
      : undefined,
  };
}
