/**
 * A pull request's open comment threads as Markdown, for the threads
 * resource: who said what, where, with the replies under each. The threads
 * are read as list_pr_comments reads them (the activity stream, deletions
 * applied); a thread is open while its discussion is not marked resolved and,
 * for a task, while the task is not resolved.
 */
import type { BitbucketClient } from "../bitbucket/transport/client.ts";
import type { Comment } from "../bitbucket/entities/pull_request_comment.ts";
import { DEFAULT_DOCUMENT_BYTES } from "../tools/kit/args.ts";
import { prPath } from "../bitbucket/pull_requests.ts";
import { listThreads, type Thread } from "../bitbucket/threads.ts";
import { cleanText } from "../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../bitbucket/text/visible_id.ts";
import { isoDate } from "../tools/kit/shapes/date.ts";

/** The most threads one resource shows. */
export const MAX_THREADS = 100;

/** True for a thread still open: its discussion not resolved, and not a resolved task. */
export function isOpen(comment: Comment): boolean {
  return !(comment.threadResolved ?? false) && comment.state !== "RESOLVED";
}

/** Who wrote a comment: `Jane Doe (jdoe)`, or the username alone. */
function who(comment: Comment): string {
  const name = visibleId(comment.author.name);
  const displayName = cleanText(comment.author.displayName);
  return displayName && displayName !== name ? `${displayName} (${name})` : name;
}

/** Where a thread sits: a file and line, or the pull request as a whole. */
function where({ comment, anchor: activityAnchor }: Thread): string {
  const anchor = comment.anchor ?? activityAnchor;
  const kind = comment.severity === "BLOCKER" ? "Task" : "Comment";
  if (anchor === undefined) return `${kind} on the pull request`;
  const side = anchor.fileType === "FROM" ? "old" : "new";
  const start = anchor.multilineMarker?.startLine;
  const lines = anchor.line === undefined
    ? ""
    : start === undefined || start === anchor.line
    ? `, line ${anchor.line} (${side})`
    : `, lines ${start}-${anchor.line} (${side})`;
  const moved = anchor.srcPath && anchor.srcPath !== anchor.path
    ? ` (from ${visibleId(anchor.srcPath)})`
    : "";
  const outdated = anchor.orphaned ? ", outdated" : "";
  return `${kind} on \`${visibleId(anchor.path)}\`${moved}${lines}${outdated}`;
}

/** A comment's heading line and text, every line behind `prefix` (quote marks for replies). */
function block(comment: Comment, label: string, prefix: string): string[] {
  const draft = comment.state === "PENDING" ? ", draft" : "";
  const head = `**${who(comment)}**, ${
    isoDate(comment.createdDate)
  } (${label} ${comment.id}${draft}):`;
  return [head, "", ...cleanText(comment.text).split("\n")].map((line) =>
    `${prefix}${line}`.trimEnd()
  );
}

/** One thread: its heading, its root comment, then each reply quoted one level deeper than its parent. */
function threadText(thread: Thread): string {
  const out = [`## ${where(thread)}`, "", ...block(thread.comment, "comment", "")];
  const walk = (parent: Comment, depth: number) => {
    for (const reply of parent.comments ?? []) {
      // A line of the parent's quote level between, so each reply is a quote of its own.
      out.push("> ".repeat(depth - 1).trimEnd(), ...block(reply, "reply", "> ".repeat(depth)));
      walk(reply, depth + 1);
    }
  };
  walk(thread.comment, 1);
  return out.join("\n");
}

/**
 * The Markdown of a pull request's open threads, newest first, at most
 * {@link MAX_THREADS} of them and about {@link DEFAULT_DOCUMENT_BYTES} bytes;
 * a last line says what was left out and how to read it.
 */
export function threadsMarkdown(title: string, threads: Thread[], more: boolean): string {
  const head = `# ${title}`;
  if (threads.length === 0) return `${head}\n\nNo open threads.\n`;
  const parts: string[] = [];
  let bytes = head.length;
  for (const thread of threads) {
    const text = threadText(thread);
    bytes += new TextEncoder().encode(text).length + 2;
    if (bytes > DEFAULT_DOCUMENT_BYTES && parts.length > 0) break;
    parts.push(text);
  }
  const left = threads.length - parts.length;
  const tail = left > 0 || more
    ? [
      `[${
        more ? "more" : left
      } open threads not shown: list_pr_comments with resolved: false pages through them all]`,
    ]
    : [];
  return [head, ...parts, ...tail].join("\n\n") + "\n";
}

/** Reads a pull request's open threads and renders them as {@link threadsMarkdown}. */
export async function openThreads(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  prId: number,
): Promise<string> {
  const page = await listThreads(
    bitbucket,
    prPath(project, repo, prId, "/activities"),
    { limit: MAX_THREADS },
    (thread) => isOpen(thread.comment),
  );
  const title = `Open threads of pull request #${prId} in ${project}/${repo}`;
  return threadsMarkdown(title, page.values, !page.isLastPage);
}
