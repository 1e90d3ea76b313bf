/** Committing one text file to a branch through Bitbucket's file edit, without a clone. */
import { z } from "../../deps/zod.ts";
import { Commit } from "../../bitbucket/entities/commit.ts";
import { MinimalRef } from "../../bitbucket/entities/ref.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { multipartBody } from "../../bitbucket/transport/multipart.ts";
import { apiPath, segments } from "../../bitbucket/transport/path.ts";
import {
  CommitIdArg,
  CommitOut,
  commitOut,
  type Confirmation,
  defineTool,
  filePathArg,
  refArg,
  RepoArgs,
  safeWrite,
  textArg,
} from "../kit/mod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { qualifyBranch } from "../../bitbucket/refs.ts";
import { quotedId } from "../../bitbucket/text/visible_id.ts";

/** The largest file commit_file writes: its content in UTF-8 bytes. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** What a 409 on a file edit means, and what to do about each cause. */
const CONFLICT_HINT =
  "the file changed on the branch after source_commit_id, or it exists and no source_commit_id was given, or the content is unchanged; read it again with get_file_content, apply the change to that text, and commit with its commitId";

const ContentArg = z.string().min(1).max(MAX_FILE_BYTES).refine(
  (v) => new TextEncoder().encode(v).length <= MAX_FILE_BYTES,
  { message: `must be at most ${MAX_FILE_BYTES} bytes of UTF-8` },
).refine((v) => v.isWellFormed() && !v.includes("\0"), {
  message: "must be text: no NUL characters and valid Unicode (binary files cannot be committed)",
}).describe("Whole new text");

/**
 * The question for a commit straight onto the repository's default branch,
 * which skips the review a pull request gives: the person is asked (unless
 * the server runs with `--yolo`, when this is never called). Any other branch
 * needs no confirmation. The default branch is read from Bitbucket
 * (`default-branch`) only when asking applies.
 */
async function askDefaultBranch(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  path: string,
  branch: string,
): Promise<Confirmation | undefined> {
  const { body: defaultBranch } = await bitbucket.request({
    path: apiPath`/api/latest/projects/${project}/repos/${repo}/default-branch`,
    schema: MinimalRef,
  }).catch(
    rethrowDuring(
      `${commitAction(project, repo, path, branch)}: Cannot tell the repository's default branch`,
    ),
  );
  if (qualifyBranch(branch) !== defaultBranch.id) return undefined;
  return {
    message: `Commit ${quotedId(path)} straight onto ${
      quotedId(defaultBranch.displayId ?? branch)
    }, the default branch of ${project}/${repo}, without a pull request's review`,
  };
}

/** What a commit_file call does, as its errors name it. */
function commitAction(project: string, repo: string, path: string, branch: string): string {
  return `commit ${JSON.stringify(path)} to ${JSON.stringify(branch)} in ${project}/${repo}`;
}

export const commitFile = defineTool({
  name: "commit_file",
  defaultFor: "change",
  reach: "repository",
  title: "Commit a file",
  description:
    "Commit a text file to branch (new from source_branch); an update needs get_file_content's commitId as source_commit_id.",
  access: safeWrite(
    "adds a commit to a branch, which another commit can revert; a commit onto the default branch skips review, so the person is asked first",
  ),
  input: RepoArgs.extend({
    path: filePathArg(),
    content: ContentArg,
    message: textArg().min(1),
    branch: refArg(),
    source_commit_id: CommitIdArg.optional().describe("Commit read at"),
    source_branch: refArg("Create branch from this").optional(),
  }),
  output: z.object({ commit: CommitOut }),
  confirm: ({ project, repo, path, branch }, { bitbucket }) =>
    askDefaultBranch(bitbucket, project, repo, path, branch),
  async handler(args, { bitbucket }) {
    const { project, repo, path, content, message, branch, source_commit_id, source_branch } = args;
    const action = commitAction(project, repo, path, branch);
    // The content as a file part, as `curl -F content=@file` sends it; Bitbucket
    // takes the path from the URL, so the part's file name is fixed. Every field
    // goes as its bytes: a commit message keeps its line endings.
    const form = multipartBody([
      { name: "content", value: content, file: { name: "content", type: "text/plain" } },
      { name: "message", value: message },
      { name: "branch", value: branch },
      ...(source_commit_id === undefined
        ? []
        : [{ name: "sourceCommitId", value: source_commit_id }]),
      ...(source_branch === undefined ? [] : [{ name: "sourceBranch", value: source_branch }]),
    ]);
    const { body: commit } = await bitbucket.request({
      method: "PUT",
      path: apiPath`/api/latest/projects/${project}/repos/${repo}/browse/${segments(path)}`,
      form,
      schema: Commit,
    }).catch(rethrowDuring(action, { conflict: CONFLICT_HINT }));
    return { commit: commitOut(commit) };
  },
});
