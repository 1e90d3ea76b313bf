/**
 * The resource templates under `bitbucket://projects/{project}/repos/{repo}/`
 * and how a resource's URI is built: what listing them and linking to them
 * needs, with no schema, so it costs nothing at start-up. Parsing a URI a
 * client sent is `uri.ts`.
 */
import { DEFAULT_DOCUMENT_BYTES } from "../tools/kit/limits.ts";

/** The part every template starts with. */
const ROOT = "bitbucket://projects/{project}/repos/{repo}";
/** The literal start of every URI. */
export const PREFIX = "bitbucket://projects/";

/** What a resource is of. */
export type ResourceKind =
  | "pull_request"
  | "pull_request_diff"
  | "pull_request_threads"
  | "file"
  | "commit";

/** One resource template as `resources/templates/list` shows it. */
export interface TemplateSpec {
  name: ResourceKind;
  title: string;
  uriTemplate: string;
  description: string;
  mimeType: string;
  /**
   * The tool that returns the same thing: the template is offered (listed,
   * read, completed) only where that tool is exposed, so a resource reaches
   * no further than the tools do.
   */
  readAs: string;
}

/** How long a document resource may be: what the tools return by default. */
// Grouped by hand: `toLocaleString` would start ICU, about 12 ms, on every start.
const CUT = `${String(DEFAULT_DOCUMENT_BYTES).replace(/\B(?=(\d{3})+$)/g, ",")} bytes`;

/** Every resource template, in `resources/templates/list` order. */
export const TEMPLATES: readonly TemplateSpec[] = [
  {
    name: "pull_request",
    title: "Pull request",
    uriTemplate: `${ROOT}/pull-requests/{id}`,
    description: "A pull request, as get_pull_request returns it",
    mimeType: "application/json",
    readAs: "get_pull_request",
  },
  {
    name: "pull_request_diff",
    title: "Pull request diff",
    uriTemplate: `${ROOT}/pull-requests/{id}/diff`,
    description: `A pull request's unified diff, cut at ${CUT}`,
    mimeType: "text/x-diff",
    readAs: "get_pr_diff",
  },
  {
    name: "pull_request_threads",
    title: "Pull request threads",
    uriTemplate: `${ROOT}/pull-requests/{id}/threads`,
    description: "A pull request's open comment threads: who, where, what",
    mimeType: "text/markdown",
    readAs: "list_pr_comments",
  },
  {
    name: "file",
    title: "File",
    uriTemplate: `${ROOT}/files/{+path}{?at}`,
    description:
      `A text file at a branch, tag or commit (default: the default branch), cut at ${CUT}`,
    mimeType: "text/plain",
    readAs: "get_file_content",
  },
  {
    name: "commit",
    title: "Commit",
    uriTemplate: `${ROOT}/commits/{id}`,
    description: "A commit with the paths it changes",
    mimeType: "application/json",
    readAs: "get_commit",
  },
];

/** The templates offered where the tools named `exposed` are (see {@link TemplateSpec.readAs}). */
export function offeredTemplates(exposed: ReadonlySet<string>): TemplateSpec[] {
  return TEMPLATES.filter((template) => exposed.has(template.readAs));
}

/** The template of each kind. */
export function templateOf(kind: ResourceKind): TemplateSpec {
  return TEMPLATES.find((t) => t.name === kind)!;
}

/** The repository a resource lives in. */
export interface RepoRef {
  project: string;
  repo: string;
}

/** What a URI names, its parts decoded and checked. */
export type ResourceTarget =
  | RepoRef & {
    kind: "pull_request" | "pull_request_diff" | "pull_request_threads";
    prId: number;
  }
  | RepoRef & { kind: "file"; path: string; at?: string }
  | RepoRef & { kind: "commit"; commitId: string };

/** One value as one URI segment. */
const segment = encodeURIComponent;

/** The URI of a resource: each part percent-encoded, a file path segment by segment. */
export function resourceUri(target: ResourceTarget): string {
  const base = `${PREFIX}${segment(target.project)}/repos/${segment(target.repo)}`;
  switch (target.kind) {
    case "pull_request":
      return `${base}/pull-requests/${target.prId}`;
    case "pull_request_diff":
      return `${base}/pull-requests/${target.prId}/diff`;
    case "pull_request_threads":
      return `${base}/pull-requests/${target.prId}/threads`;
    case "commit":
      return `${base}/commits/${segment(target.commitId)}`;
    case "file": {
      const path = target.path.split("/").map(segment).join("/");
      return `${base}/files/${path}${target.at === undefined ? "" : `?at=${segment(target.at)}`}`;
    }
  }
}
