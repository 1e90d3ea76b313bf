/**
 * The data of a `pull_request` view: the pull request as get_pull_request
 * reads it, and, each only while the tool that reads it is exposed, the
 * builds of its head commit, its merge checks, its open task count and the
 * files it changes.
 */
import type { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { BuildStatus } from "../../bitbucket/entities/build.ts";
import { Change, Mergeability } from "../../bitbucket/entities/pull_request.ts";
import { Comment } from "../../bitbucket/entities/pull_request_comment.ts";
import { collectPages } from "../../bitbucket/transport/paging.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { prPath, readPullRequest } from "../../bitbucket/pull_requests.ts";
import { cleanCodeLine, cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { changeOut, pullRequestOut, VIEW_VERSION } from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import type { PullRequestView } from "./_view_shape.ts";

/** The most builds, open tasks and changed files a view reads. */
const MOST = 100;

/** What the view is of, and which tools the server exposes. */
export interface Target {
  project: string;
  repo: string;
  pr_id: number;
}

/** Reads pull request `target` and what the exposed tools would say of it. */
export async function pullRequestView(
  bitbucket: BitbucketClient,
  { project, repo, pr_id }: Target,
  exposed: ReadonlySet<string>,
): Promise<z.infer<typeof PullRequestView>> {
  const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
  const head = pr.fromRef.latestCommit;
  // One after the other, in this order: a view costs Bitbucket what the data tools' calls would.
  const builds = exposed.has("get_build_status") && head
    ? await readBuilds(bitbucket, head)
    : undefined;
  const merge = exposed.has("get_pr_merge_status")
    ? await readMerge(bitbucket, project, repo, pr_id)
    : undefined;
  const tasks = exposed.has("list_pr_tasks")
    ? await readTasks(bitbucket, project, repo, pr_id)
    : undefined;
  const changes = exposed.has("list_pr_changes")
    ? await readChanges(bitbucket, project, repo, pr_id)
    : undefined;
  return {
    version: VIEW_VERSION,
    kind: "pull_request",
    origin: bitbucket.origin,
    project,
    repo,
    pullRequest: pullRequestOut(pr),
    builds,
    merge,
    tasks,
    changes,
  };
}

async function readBuilds(bitbucket: BitbucketClient, commit: string) {
  const path = apiPath`/build-status/latest/commits/${commit.toLowerCase()}`;
  const page = await collectPages(bitbucket, path, BuildStatus, { limit: MOST });
  return page.values.map((b) => ({
    key: visibleId(b.key),
    state: b.state,
    name: cleanText(b.name),
    url: visibleId(b.url),
  }));
}

async function readMerge(bitbucket: BitbucketClient, project: string, repo: string, id: number) {
  const { body } = await bitbucket.request({
    path: prPath(project, repo, id, "/merge"),
    schema: Mergeability,
  });
  return {
    canMerge: body.canMerge ?? (body.outcome === "CLEAN" && body.vetoes.length === 0),
    conflicted: body.conflicted,
    vetoes: body.vetoes.map((v) => ({
      summary: cleanText(v.summaryMessage),
      detail: cleanText(v.detailedMessage),
    })),
  };
}

async function readTasks(bitbucket: BitbucketClient, project: string, repo: string, id: number) {
  const path = prPath(project, repo, id, "/blocker-comments");
  const page = await collectPages(bitbucket, path, Comment, { limit: MOST }, { state: "OPEN" });
  const open = page.values.filter((c) => c.state === undefined || c.state === "OPEN").length;
  return { open, complete: page.isLastPage };
}

async function readChanges(bitbucket: BitbucketClient, project: string, repo: string, id: number) {
  const page = await collectPages(bitbucket, prPath(project, repo, id, "/changes"), Change, {
    limit: MOST,
  });
  const files = page.values.map(changeOut).map(({ path, type, srcPath }) => ({
    path: cleanCodeLine(path),
    type,
    srcPath: srcPath === undefined ? undefined : cleanCodeLine(srcPath),
  }));
  return { files, complete: page.isLastPage };
}
