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
import { CommitIdArg, filePathArg, idArg, refArg, segmentArg } from "../tools/kit/args.ts";
import { PREFIX, type ResourceTarget } from "./templates.ts";

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
