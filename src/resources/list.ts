/**
 * `resources/list`: the pull requests a person is most likely to attach, the
 * caller's own open ones and their review queue, 25 of each from the
 * dashboard (list_pull_requests' reading of it), each titled as Bitbucket
 * shows it and described by where it lives and who waits on whom.
 */
import type { Resource } from "../deps/mcp.ts";
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "../bitbucket/transport/client.ts";
import type { PullRequest } from "../bitbucket/entities/pull_request.ts";
import { dashboardPullRequests } from "../bitbucket/pull_requests.ts";
import { cleanText } from "../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../bitbucket/text/visible_id.ts";
import { resourceUri, templateOf } from "./templates.ts";

/** How many pull requests of each role are listed. */
export const LISTED_PER_ROLE = 25;

/** A user as people read the name. */
function person(user: z.infer<typeof PullRequest>["author"]["user"]): string {
  return cleanText(user.displayName) || visibleId(user.name);
}

/** One pull request as a resource, for the caller in `role`. */
function listed(pr: z.infer<typeof PullRequest>, role: "AUTHOR" | "REVIEWER"): Resource {
  const { slug, project } = pr.toRef.repository;
  const where = visibleId(`${project.key}/${slug}`);
  const branches = `${visibleId(pr.fromRef.displayId)} → ${visibleId(pr.toRef.displayId)}`;
  const draft = pr.draft ? ", a draft" : "";
  const updated = pr.updatedDate ?? pr.createdDate;
  return {
    uri: resourceUri({ kind: "pull_request", project: project.key, repo: slug, prId: pr.id }),
    name: `${where}#${pr.id}`,
    title: `#${pr.id} ${cleanText(pr.title)}`,
    description: role === "AUTHOR"
      ? `Your pull request in ${where}${draft}: ${branches}`
      : `Waiting for your review in ${where}${draft}: ${branches}, by ${person(pr.author.user)}`,
    mimeType: templateOf("pull_request").mimeType,
    annotations: { lastModified: new Date(updated).toISOString() },
  };
}

/** The caller's open pull requests, then their review queue; a pull request in both is listed once. */
export async function listPullRequestResources(
  bitbucket: BitbucketClient,
): Promise<{ resources: Resource[] }> {
  const roles = ["AUTHOR", "REVIEWER"] as const;
  const pages = await Promise.all(
    roles.map((role) =>
      dashboardPullRequests(bitbucket, { state: "OPEN", role }, { limit: LISTED_PER_ROLE })
    ),
  );
  const byUri = new Map<string, Resource>();
  pages.forEach((page, i) => {
    for (const pr of page.values) {
      const resource = listed(pr, roles[i]!);
      if (!byUri.has(resource.uri)) byUri.set(resource.uri, resource);
    }
  });
  return { resources: [...byUri.values()] };
}
