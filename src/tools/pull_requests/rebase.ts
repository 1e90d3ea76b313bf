/**
 * Rebasing a pull request's source branch onto its target, through
 * Bitbucket's Git REST API: asked first whether it may (its vetoes), then
 * done against the version and source head the person saw.
 */
import { z } from "../../deps/zod.ts";
import type { BitbucketClient } from "../../bitbucket/transport/client.ts";
import { Rebaseability, RebaseResult } from "../../bitbucket/entities/pull_request.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { apiPath } from "../../bitbucket/transport/path.ts";
import { readPullRequest } from "../../bitbucket/pull_requests.ts";
import { cleanText, quoted } from "../../bitbucket/text/untrusted_text.ts";
import { defineTool, PrArgs, unsafeWrite, VersionArg } from "../kit/mod.ts";
import { quotedId, visibleId } from "../../bitbucket/text/visible_id.ts";

/** The pull request's rebase resource (GET: may it be rebased; POST: rebase it). */
function rebasePath(project: string, repo: string, id: number): string {
  return apiPath`/git/latest/projects/${project}/repos/${repo}/pull-requests/${id}/rebase`;
}

/**
 * Asks Bitbucket whether the pull request can be rebased now, and refuses
 * with its vetoes when it cannot: before the person is asked, and before
 * the rebase is sent.
 */
async function requireRebaseable(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
): Promise<void> {
  const action = `rebase pull request #${id}`;
  const { body } = await bitbucket.request({
    path: rebasePath(project, repo, id),
    schema: Rebaseability,
  }).catch(rethrowDuring(action));
  if (body.vetoes.length === 0) return;
  const why = body.vetoes.map((v) => {
    const summary = cleanText(v.summaryMessage);
    const detail = cleanText(v.detailedMessage);
    return detail === undefined || detail === summary ? summary : `${summary} (${detail})`;
  });
  throw new Error(
    `Cannot ${action}: Bitbucket says it cannot be rebased: ${
      why.join("; ")
    } (hint: deal with what each veto says, or rebase locally and push)`,
  );
}

const RebaseOut = z.object({
  pullRequestId: z.number().int(),
  branch: z.string().optional().describe("The source branch that was rewritten"),
  previousCommit: z.string().optional().describe("Its head before the rebase"),
  latestCommit: z.string().optional().describe("Its head now"),
});

export const rebasePullRequest = defineTool({
  name: "rebase_pull_request",
  reach: "repository",
  title: "Rebase a pull request",
  description: "Rebase a pull request onto its target branch.",
  access: unsafeWrite(
    "rewrites the source branch's commits onto the target, which Bitbucket cannot undo",
  ),
  input: PrArgs.extend({ version: VersionArg }),
  output: z.object({ rebase: RebaseOut }),
  async confirm({ project, repo, pr_id, version }, { bitbucket }) {
    await requireRebaseable(bitbucket, project, repo, pr_id);
    const { pr } = await readPullRequest(bitbucket, project, repo, pr_id);
    const head = pr.fromRef.latestCommit ?? "unknown";
    return {
      message: `Rebase ${quotedId(pr.fromRef.displayId)} (at ${
        head.slice(0, 12)
      }) of pull request #${pr_id} ${
        quoted(pr.title)
      } (version ${pr.version}) in ${project}/${repo} onto ${
        quotedId(pr.toRef.displayId)
      }: Bitbucket says it can; its commits are rewritten, which cannot be undone`,
      version: version ?? pr.version,
      // A push to the source branch or an edit moves these on, so a replayed yes finds them changed.
      binding: {
        what: `pull request #${pr_id}'s version and source head`,
        state: `version ${pr.version} at ${head}`,
      },
    };
  },
  async handler({ project, repo, pr_id, version }, { bitbucket, confirmed }) {
    await requireRebaseable(bitbucket, project, repo, pr_id);
    const current = version ?? confirmed?.version ??
      (await readPullRequest(bitbucket, project, repo, pr_id)).pr.version;
    const { body } = await bitbucket.request({
      method: "POST",
      path: rebasePath(project, repo, pr_id),
      body: { version: current },
      schema: RebaseResult,
    }).catch(rethrowDuring(`rebase pull request #${pr_id}`, {
      conflict:
        "Bitbucket's message says why: a conflict or an emptied pull request needs a local rebase; a stale version, a fresh read",
    }));
    const change = body.refChange;
    return {
      rebase: {
        pullRequestId: pr_id,
        branch: visibleId(change?.refId ?? change?.ref?.id),
        previousCommit: change?.fromHash,
        latestCommit: change?.toHash,
      },
    };
  },
});
