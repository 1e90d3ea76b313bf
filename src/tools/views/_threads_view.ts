/**
 * The data of a `threads` view: every comment thread of a pull request from
 * its activity stream, as list_pr_comments reads them (general, file and line
 * threads, resolved ones too), each with its replies, and, while get_pr_diff
 * is exposed, the diff lines a line thread sits on.
 */
import type { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import type { Comment, CommentAnchor } from "../../bitbucket/entities/pull_request_comment.ts";
import { readCappedDiff } from "../../bitbucket/diff/read.ts";
import { splitDiff } from "../../bitbucket/diff/unified.ts";
import { requireFeature } from "../../bitbucket/features.ts";
import { prDiffSource, prPath, readPullRequest } from "../../bitbucket/pull_requests.ts";
import { listThreads, type Thread } from "../../bitbucket/threads.ts";
import { cleanCodeLine } from "../../bitbucket/text/untrusted_text.ts";
import { commentBaseOut, flattenReplies } from "../kit/shapes/comment.ts";
import { VIEW_VERSION } from "../kit/apps.ts";
import { hunksOf, MOST_THREADS, prHead, VIEW_DIFF_BYTES } from "./_diff_view.ts";
import type { Target } from "./_pull_request_view.ts";
import type { LineOut, ThreadsView } from "./_view_shape.ts";

type Line = z.infer<typeof LineOut>;
type ThreadOut = z.infer<typeof ThreadsView>["threads"][number];
type Anchor = z.infer<typeof CommentAnchor>;

/** The most lines of a diff a thread shows above the one it sits on. */
const LINES_ABOVE = 2;
/** The most lines a thread shows, a range's included. */
const MOST_LINES = 12;

/** A comment's fields as the view draws them (its version left to the tools that write). */
function commentFields(c: Comment) {
  const { version: _, ...base } = commentBaseOut(c);
  return { ...base, severity: c.severity, state: c.state };
}

/** The side of the diff an anchor numbers its line on. */
const sideOf = (a: Anchor): "old" | "new" =>
  a.fileType === "FROM" || a.lineType === "REMOVED" ? "old" : "new";

/**
 * The lines `anchor` sits on in one file's hunks: its line, with the lines of
 * its range or the {@link LINES_ABOVE} lines above it in the same hunk; none
 * when the line is not in the diff (outdated, or the diff was cut).
 */
export function linesAt(hunks: { lines: Line[] }[], anchor: Anchor): Line[] | undefined {
  if (anchor.line === undefined || anchor.orphaned) return undefined;
  const side = sideOf(anchor);
  for (const { lines } of hunks) {
    const at = lines.findIndex((l) => l[side] === anchor.line);
    if (at < 0) continue;
    const start = anchor.multilineMarker?.startLine;
    const startSide = anchor.multilineMarker?.startLineType === "REMOVED" ? "old" : side;
    const from = start === undefined ? -1 : lines.findIndex((l) => l[startSide] === start);
    const first = from >= 0 && from <= at ? from : Math.max(0, at - LINES_ABOVE);
    return lines.slice(Math.max(first, at + 1 - MOST_LINES), at + 1);
  }
  return undefined;
}

/** Each file's hunks in the pull request's diff (cut at the view's cap), by path as Bitbucket names it. */
async function hunksByPath(bitbucket: BitbucketClient, { project, repo, pr_id }: Target) {
  const source = prDiffSource(bitbucket, project, repo, pr_id, undefined);
  const capped = await readCappedDiff(source, undefined, VIEW_DIFF_BYTES);
  return new Map(splitDiff(capped.diff).map((s) => [s.file, hunksOf(s.text)]));
}

function threadOut(
  { comment, anchor: activityAnchor }: Thread,
  files: Map<string, { lines: Line[] }[]> | undefined,
): ThreadOut {
  const anchor = comment.anchor ?? activityAnchor;
  const hunks = anchor === undefined ? undefined : files?.get(anchor.path);
  return {
    ...commentFields(comment),
    threadResolved: comment.threadResolved ?? false,
    anchor: anchor && {
      path: cleanCodeLine(anchor.path),
      line: anchor.line,
      lineType: anchor.lineType,
      fileType: anchor.fileType,
      orphaned: anchor.orphaned || undefined,
    },
    lines: hunks && anchor ? linesAt(hunks, anchor) : undefined,
    replies: flattenReplies(comment, commentFields),
  };
}

/** Reads pull request `target`'s threads, and the diff lines they sit on while get_pr_diff is exposed. */
export async function threadsView(
  bitbucket: BitbucketClient,
  target: Target,
  exposed: ReadonlySet<string>,
): Promise<z.infer<typeof ThreadsView>> {
  const { project, repo, pr_id } = target;
  const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
  const activities = prPath(project, repo, pr_id, "/activities");
  const page = await listThreads(bitbucket, activities, { limit: MOST_THREADS }, () => true);
  const onLines = page.values.some((t) => (t.comment.anchor ?? t.anchor)?.line !== undefined);
  const files = onLines && exposed.has("get_pr_diff")
    ? await hunksByPath(bitbucket, target)
    : undefined;
  // Below 8.9 a resolution is taken and ignored: the view then offers none.
  const canResolve = await requireFeature(bitbucket, "threadResolution", "resolve threads")
    .then(() => true, () => false);
  return {
    version: VIEW_VERSION,
    kind: "threads",
    origin: bitbucket.origin,
    project,
    repo,
    pullRequest: prHead(pr),
    canResolve,
    threads: page.values.map((t) => threadOut(t, files)),
    isLastPage: page.isLastPage,
  };
}
