/**
 * Reading a resource: each kind answered by the same code as the tool that
 * returns the same thing (get_pull_request, get_pr_diff, list_pr_comments,
 * get_file_content, get_commit with list_commit_changes), cut the same
 * way, through the same Bitbucket client. A Bitbucket 404 is the protocol's
 * "resource not found"; every other failure keeps the tool's message.
 */
import { escapedMeta, UNTRUSTED_META } from "../tools/kit/define.ts";
import { ResourceNotFoundError } from "../deps/mcp.ts";
import type { BitbucketClient } from "../bitbucket/transport/client.ts";
import { commitChanges, readCommit } from "../bitbucket/commits.ts";
import { readCappedDiff } from "../bitbucket/diff/read.ts";
import { Change } from "../bitbucket/entities/pull_request.ts";
import { BitbucketError } from "../bitbucket/transport/errors.ts";
import { noticingEscapes } from "../bitbucket/text/visible_id.ts";
import { readFileText } from "../bitbucket/files.ts";
import { collectPages, MAX_LIMIT } from "../bitbucket/transport/paging.ts";
import { prDiffSource, readPullRequest } from "../bitbucket/pull_requests.ts";
import { DEFAULT_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES } from "../tools/kit/limits.ts";
import { commitOut } from "../tools/kit/shapes/commit.ts";
import { diffDocument, withHiddenCharacters as diffHidden } from "../tools/kit/shapes/diff.ts";
import { fileDocument, withHiddenCharacters as fileHidden } from "../tools/kit/shapes/file.ts";
import { hiddenNote } from "../tools/kit/shapes/hidden.ts";
import { pagedResult } from "../tools/kit/shapes/page.ts";
import { changeOut, pullRequestOut } from "../tools/kit/shapes/pull_request.ts";
import { openThreads } from "./threads.ts";
import { type ResourceTarget, templateOf } from "./templates.ts";

/** The text of the resource `target` names, read through `bitbucket` (bound to the request's signal). */
async function text(target: ResourceTarget, bitbucket: BitbucketClient): Promise<string> {
  const { project, repo } = target;
  switch (target.kind) {
    case "pull_request": {
      const { pr } = await readPullRequest(bitbucket, project, repo, target.prId);
      return JSON.stringify({ pullRequest: pullRequestOut(pr) });
    }
    case "pull_request_diff": {
      const source = prDiffSource(bitbucket, project, repo, target.prId, undefined);
      const diff = await readCappedDiff(source, undefined, DEFAULT_DOCUMENT_BYTES);
      return diffDocument(diffHidden(diff), "the pull request changes nothing");
    }
    case "pull_request_threads":
      return await openThreads(bitbucket, project, repo, target.prId);
    case "file": {
      const file = fileHidden(
        await readFileText(bitbucket, {
          project,
          repo,
          path: target.path,
          at: target.at,
          max_bytes: DEFAULT_DOCUMENT_BYTES,
          windowScanBytes: MAX_DOCUMENT_BYTES,
        }),
      );
      // A whole file is the file itself (after a note on hidden characters, if any);
      // a cut one says so, as get_file_content's text does.
      return file.truncated
        ? fileDocument(file)
        : hiddenNote(file.hiddenCharacters, "file") + file.content;
    }
    case "commit": {
      const commit = await readCommit(bitbucket, project, repo, target.commitId);
      const { path, query } = commitChanges(project, repo, commit.id);
      const page = await collectPages(bitbucket, path, Change, { limit: MAX_LIMIT }, query);
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
  bitbucket: BitbucketClient,
): Promise<
  { contents: { uri: string; mimeType: string; text: string }[]; _meta: Record<string, unknown> }
> {
  const { mimeType } = templateOf(target.kind);
  try {
    const read = await noticingEscapes(() => text(target, bitbucket));
    const contents = [{ uri, mimeType, text: read.value }];
    // Marked as Bitbucket's, as every tool result is, and its escaped identifiers said.
    return { contents, _meta: { [UNTRUSTED_META]: true, ...escapedMeta(read.escaped) } };
  } catch (error) {
    if (!(error instanceof BitbucketError)) throw error;
    const failure = error.during(`read ${JSON.stringify(uri)}`);
    if (error.kind === "not_found") throw new ResourceNotFoundError(uri, failure.message);
    throw failure;
  }
}
