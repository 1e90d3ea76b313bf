/**
 * Reading a resource: each kind answered by the same code as the tool that
 * returns the same thing (get_pull_request, get_pr_diff, list_pr_comments,
 * get_file_content, get_commit with list_commit_changes), bounded the same
 * way, through the same Bitbucket client. A Bitbucket 404 is the protocol's
 * "resource not found"; every other failure keeps the tool's message.
 */
import { ResourceNotFoundError } from "../deps/mcp.ts";
import { BitbucketError } from "../bitbucket/errors.ts";
import { Change } from "../bitbucket/entities/pull_request.ts";
import { collectPages, MAX_LIMIT } from "../bitbucket/paging.ts";
import { DEFAULT_DOCUMENT_BYTES } from "../tools/kit/args.ts";
import { boundedDiff } from "../bitbucket/diff/read.ts";
import { commitChanges, readCommit } from "../tools/commits/commits.ts";
import type { ToolContext } from "../tools/kit/define.ts";
import { readPullRequest } from "../bitbucket/pull_requests.ts";
import { prDiffSource } from "../tools/pull_requests/pull_requests.ts";
import { commitOut } from "../tools/kit/shapes/commit.ts";
import { diffDocument } from "../tools/kit/shapes/diff.ts";
import { pagedResult } from "../tools/kit/shapes/page.ts";
import { changeOut, pullRequestOut } from "../tools/kit/shapes/pull_request.ts";
import { fileDocument, readFileContent } from "../tools/source/files.ts";
import { openThreads } from "./threads.ts";
import { type ResourceTarget, templateOf } from "./templates.ts";

/** What a read needs: the caller's Bitbucket client and the request's cancellation signal. */
export type ReadContext = Omit<ToolContext, "confirmed">;

/** The text of the resource `target` names. */
async function text(target: ResourceTarget, ctx: ReadContext): Promise<string> {
  const { bitbucket, signal } = ctx;
  const { project, repo } = target;
  switch (target.kind) {
    case "pull_request": {
      const { pr } = await readPullRequest(bitbucket, project, repo, target.prId, signal);
      return JSON.stringify({ pullRequest: pullRequestOut(pr) });
    }
    case "pull_request_diff": {
      const pr = { project, repo, pr_id: target.prId };
      const source = prDiffSource(bitbucket, pr, undefined, signal);
      const diff = await boundedDiff(source, undefined, DEFAULT_DOCUMENT_BYTES);
      return diffDocument(diff, "the pull request changes nothing");
    }
    case "pull_request_threads":
      return await openThreads(bitbucket, project, repo, target.prId, signal);
    case "file": {
      const read = { project, repo, path: target.path, at: target.at };
      const { file } = await readFileContent(
        { ...read, max_bytes: DEFAULT_DOCUMENT_BYTES },
        ctx,
      );
      // A whole file is the file itself; a cut one says so, as get_file_content's text does.
      return file.truncated ? fileDocument(file) : file.content;
    }
    case "commit": {
      const commit = await readCommit(bitbucket, project, repo, target.commitId, signal);
      const { path, query } = commitChanges(project, repo, commit.id);
      const page = await collectPages(bitbucket, path, Change, { limit: MAX_LIMIT }, query, signal);
      return JSON.stringify({
        commit: commitOut(commit),
        ...pagedResult("changes", page, changeOut),
      });
    }
  }
}

/** The contents of the resource at `uri` (already parsed as `target`), with its template's mime type. */
export async function readResource(
  uri: string,
  target: ResourceTarget,
  ctx: ReadContext,
): Promise<{ contents: { uri: string; mimeType: string; text: string }[] }> {
  const { mimeType } = templateOf(target.kind);
  try {
    return { contents: [{ uri, mimeType, text: await text(target, ctx) }] };
  } catch (error) {
    if (!(error instanceof BitbucketError)) throw error;
    const failure = error.during(`read ${JSON.stringify(uri)}`);
    if (error.kind === "not_found") throw new ResourceNotFoundError(uri, failure.message);
    throw failure;
  }
}
