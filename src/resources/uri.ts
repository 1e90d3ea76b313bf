/**
 * The resources' URIs: five templates under
 * `bitbucket://projects/{project}/repos/{repo}/`, parsed from the URI exactly
 * as the client sent it and built back. A URI is never read through `URL`,
 * whose normalisation would resolve `..` (and `%2E%2E`) segments silently;
 * each part is percent-decoded once and checked with the tools' own argument
 * rules, so a bad URI is refused (-32602) before any request.
 */
import { ProtocolError, ProtocolErrorCode } from "../deps/mcp.ts";
import type { z } from "../deps/zod.ts";
import {
  CommitIdArg,
  DEFAULT_DOCUMENT_BYTES,
  filePathArg,
  idArg,
  refArg,
  segmentArg,
} from "../tools/args.ts";

/** The part every template starts with. */
const ROOT = "bitbucket://projects/{project}/repos/{repo}";
/** The literal start of every URI. */
const PREFIX = "bitbucket://projects/";

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
}

/** How long a document resource may be: what the tools return by default. */
const CUT = `${DEFAULT_DOCUMENT_BYTES.toLocaleString("en-US")} bytes`;

/** Every resource template, in `resources/templates/list` order. */
export const TEMPLATES: readonly TemplateSpec[] = [
  {
    name: "pull_request",
    title: "Pull request",
    uriTemplate: `${ROOT}/pull-requests/{id}`,
    description: "A pull request, as get_pull_request returns it",
    mimeType: "application/json",
  },
  {
    name: "pull_request_diff",
    title: "Pull request diff",
    uriTemplate: `${ROOT}/pull-requests/{id}/diff`,
    description: `A pull request's unified diff, cut at ${CUT}`,
    mimeType: "text/x-diff",
  },
  {
    name: "pull_request_threads",
    title: "Pull request threads",
    uriTemplate: `${ROOT}/pull-requests/{id}/threads`,
    description: "A pull request's open comment threads: who, where, what",
    mimeType: "text/markdown",
  },
  {
    name: "file",
    title: "File",
    uriTemplate: `${ROOT}/files/{+path}{?at}`,
    description:
      `A text file at a branch, tag or commit (default: the default branch), cut at ${CUT}`,
    mimeType: "text/plain",
  },
  {
    name: "commit",
    title: "Commit",
    uriTemplate: `${ROOT}/commits/{id}`,
    description: "A commit with the paths it changes",
    mimeType: "application/json",
  },
];

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

/** The -32602 error for a URI that names no resource. */
function invalidUri(uri: string, detail: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Cannot read ${
      JSON.stringify(uri)
    }: ${detail} (hint: resources/templates/list gives the URI templates, e.g. bitbucket://projects/PROJ/repos/web/pull-requests/42)`,
    { uri },
  );
}

const SEGMENT = segmentArg();
const PR_ID = idArg();
const FILE_PATH = filePathArg();
const AT = refArg();

/** Parses what a client sent as a resource URI; a ProtocolError (-32602) when it names no resource. */
export function parseResourceUri(uri: string): ResourceTarget {
  const refuse = (detail: string): never => {
    throw invalidUri(uri, detail);
  };
  if (uri.slice(0, PREFIX.length).toLowerCase() !== PREFIX) {
    refuse(`it does not start with ${PREFIX}`);
  }
  const rest = uri.slice(PREFIX.length);
  if (rest.includes("#")) refuse("a fragment (#) names no part of a resource");
  const mark = rest.indexOf("?");
  const raw = (mark < 0 ? rest : rest.slice(0, mark)).split("/");
  const query = mark < 0 ? undefined : rest.slice(mark + 1);
  const decode = (part: string, name: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      return refuse(`${name} is not percent-encoded UTF-8`);
    }
  };
  const checked = <S extends z.ZodType>(schema: S, value: unknown, name: string): z.infer<S> => {
    const result = schema.safeParse(value);
    return result.success ? result.data : refuse(`${name}: ${result.error.issues[0]?.message}`);
  };
  const [project, reposWord, repo, kind, ...tail] = raw;
  if (project === undefined || reposWord !== "repos" || repo === undefined) {
    return refuse("it names no repository: bitbucket://projects/{project}/repos/{repo}/...");
  }
  const where = {
    project: checked(SEGMENT, decode(project, "project"), "project"),
    repo: checked(SEGMENT, decode(repo, "repo"), "repo"),
  };
  const noQuery = () => {
    if (query !== undefined) refuse("only a file's URI takes a query (?at=)");
  };
  if (kind === "pull-requests") {
    const [id, part, ...more] = tail;
    if (
      id === undefined || more.length > 0 || (part !== undefined && !/^(diff|threads)$/.test(part))
    ) {
      return refuse(
        "a pull request's URI is pull-requests/{id}, pull-requests/{id}/diff or pull-requests/{id}/threads",
      );
    }
    noQuery();
    if (!/^\d{1,16}$/.test(id)) refuse("the pull request id must be a positive integer, e.g. 42");
    const prId = checked(PR_ID, Number(id), "the pull request id");
    const which = part === undefined
      ? "pull_request"
      : `pull_request_${part as "diff" | "threads"}` as const;
    return { kind: which, ...where, prId };
  }
  if (kind === "commits") {
    const [id, ...more] = tail;
    if (id === undefined || more.length > 0) return refuse("a commit's URI is commits/{id}");
    noQuery();
    return {
      kind: "commit",
      ...where,
      commitId: checked(CommitIdArg, decode(id, "the commit id"), "the commit id"),
    };
  }
  if (kind === "files") {
    if (tail.length === 0) refuse("a file's URI is files/{path}, optionally ?at={ref}");
    const path = tail.map((segment) => decode(segment, "the path")).join("/");
    const file = { kind: "file" as const, ...where, path: checked(FILE_PATH, path, "the path") };
    if (query === undefined) return file;
    const [name, value, ...extra] = query.split(/[=&]/);
    if (name !== "at" || value === undefined || extra.length > 0) {
      refuse("a file's URI takes one query parameter, at (a branch, tag or commit)");
    }
    return { ...file, at: checked(AT, decode(value!, "at"), "at") };
  }
  return refuse(
    "after the repository comes pull-requests/{id}[/diff|/threads], files/{path} or commits/{id}",
  );
}

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
