/** A commit's discussion: the comments on one of its files, and adding one on a file or a line. */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { fullCommitId } from "../../bitbucket/commits.ts";
import { JsonDiff } from "../../bitbucket/entities/diff.ts";
import { pathText } from "../../bitbucket/entities/pull_request.ts";
import { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { collectPages } from "../../bitbucket/transport/paging.ts";
import { apiPath, segments } from "../../bitbucket/transport/path.ts";
import {
  CommitIdArg,
  defineTool,
  filePathArg,
  lineArg,
  pathArg,
  READ_ONLY,
  RepoArgs,
  safeWrite,
  textArg,
} from "../kit/mod.ts";
import { CommitCommentOut, commitCommentOut } from "./_comment_shape.ts";

/** A commit's REST path: Bitbucket wants its full id there, so an abbreviation is looked up. */
async function commitPath(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  commitId: string,
): Promise<string> {
  const id = await fullCommitId(bitbucket, project, repo, commitId);
  return apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${id}`;
}

/** The most threads list_commit_comments returns: one file of one commit rarely holds more. */
const MAX_THREADS = 200;

export const listCommitComments = defineTool({
  name: "list_commit_comments",
  reach: "repository",
  title: "List commit comments",
  description: "Comment threads on a file of a commit.",
  access: READ_ONLY,
  input: RepoArgs.extend({ commit_id: CommitIdArg, path: pathArg() }),
  output: z.object({
    comments: z.array(CommitCommentOut),
    truncated: z.boolean().describe(`More than ${MAX_THREADS} threads: the first are returned`),
  }),
  async handler({ project, repo, commit_id, path }, { bitbucket }) {
    // Bitbucket lists a commit's comments only by file (`path`); without it, none.
    const page = await collectPages(
      bitbucket,
      `${await commitPath(bitbucket, project, repo, commit_id)}/comments`,
      Comment,
      { limit: MAX_THREADS },
      { path },
    );
    return { comments: page.values.map(commitCommentOut), truncated: !page.isLastPage };
  },
});

/**
 * Where a comment on line `line` (new-side numbering) of `path` sits in the
 * commit's diff: an added line by its new number, a context line by its old
 * one, as Bitbucket's own UI anchors them. A line the diff does not show has
 * no place to sit.
 */
async function lineAnchor(
  bitbucket: BitbucketClient,
  commit: string,
  path: string,
  line: number,
  action: string,
) {
  const { body } = await bitbucket.request({
    path: commit + apiPath`/diff/${segments(path)}`,
    schema: JsonDiff,
    query: { withComments: false },
  });
  const file = body.diffs.find((d) => d.destination && pathText(d.destination) === path);
  if (file === undefined) {
    throw new Error(
      `Cannot ${action}: the commit does not change ${
        JSON.stringify(path)
      } (hint: list_commit_changes lists the files it changes)`,
    );
  }
  for (const segment of file.hunks.flatMap((h) => h.segments)) {
    if (segment.type === "REMOVED") continue;
    const hit = segment.lines.find((l) => l.destination === line);
    if (hit === undefined) continue;
    return segment.type === "ADDED"
      ? { line, lineType: "ADDED", fileType: "TO" }
      : { line: hit.source ?? line, lineType: "CONTEXT", fileType: "FROM" };
  }
  throw new Error(
    `Cannot ${action}: line ${line} of ${
      JSON.stringify(path)
    } is not in the commit's diff (hint: get_commit_diff shows the lines that can take a comment, numbered on the new side; removed lines cannot)`,
  );
}

export const addCommitComment = defineTool({
  name: "add_commit_comment",
  reach: "repository",
  title: "Comment on a commit",
  description: "Comment on a file or line of a commit.",
  access: safeWrite("adds a comment and changes nothing existing"),
  input: RepoArgs.extend({
    commit_id: CommitIdArg,
    text: textArg().min(1),
    path: filePathArg(),
    line: lineArg().optional(),
  }),
  output: z.object({ comment: CommitCommentOut }),
  async handler({ project, repo, commit_id, text, path, line }, { bitbucket }) {
    const action = `comment on ${
      JSON.stringify(path)
    } in commit ${commit_id} of ${project}/${repo}`;
    const id = await fullCommitId(bitbucket, project, repo, commit_id);
    const commit = apiPath`/api/latest/projects/${project}/repos/${repo}/commits/${id}`;
    const at = line === undefined ? {} : await lineAnchor(bitbucket, commit, path, line, action);
    const { body: comment } = await bitbucket.request({
      method: "POST",
      path: `${commit}/comments`,
      schema: Comment,
      body: { text, anchor: { path, diffType: "COMMIT", toHash: id, ...at } },
    });
    return { comment: commitCommentOut(comment) };
  },
});
