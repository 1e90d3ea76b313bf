/**
 * Naming a repository's branches and tags as Bitbucket's REST API takes them:
 * where they are listed, and a branch name as a fully qualified ref. The refs
 * tools, the pull request tools and ref completions share these.
 */
import { apiPath } from "./transport/path.ts";

/** The REST path of a repository's branches or tags (also where ref completions look). */
export function refsPath(project: string, repo: string, kind: "branches" | "tags"): string {
  return apiPath`/api/latest/projects/${project}/repos/${repo}/${kind}`;
}

/** A branch name as a fully qualified ref: `main` becomes `refs/heads/main`; `refs/...` is kept. */
export function qualifyBranch(name: string): string {
  return name.startsWith("refs/") ? name : `refs/heads/${name}`;
}
