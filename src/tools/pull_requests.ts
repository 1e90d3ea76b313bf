import { z } from "zod";
import type { BitbucketClient, Query } from "../bitbucket/client.ts";
import { Commit } from "../bitbucket/entities/commit.ts";
import {
  Change,
  Mergeability,
  pathText,
  PullRequest,
  Veto,
} from "../bitbucket/entities/pull_request.ts";
import { apiPath } from "../bitbucket/path.ts";
import { collectPages, MAX_LIMIT } from "../bitbucket/paging.ts";
import { defineTool } from "./define.ts";
import { named, PageTail, PagingArgs, RepoArgs } from "./fragments.ts";
import {
  callerName,
  oneOf,
  PrArgs,
  prPath,
  PullRequestOut,
  pullRequestOut,
  PullRequestSummary,
  pullRequestSummary,
  qualifyBranch,
} from "./pull_request_shared.ts";

const BranchArg = (description: string) =>
  z.string().min(1).max(1024).optional().describe(description);

/**
 * Lists one repository's pull requests, or (with neither project nor repo) the
 * caller's own across Bitbucket from the dashboard.
 */
export const listPullRequests = defineTool({
  name: "list_pull_requests",
  title: "List pull requests",
  description:
    "Pull requests of a repository, or (without project and repo) your own across Bitbucket. Newest first.",
  readOnly: true,
  safe: true,
  input: RepoArgs.partial().extend({
    state: oneOf(["OPEN", "MERGED", "DECLINED", "ALL"] as const, "State (default OPEN)")
      .optional(),
    role: oneOf(["AUTHOR", "REVIEWER", "PARTICIPANT"] as const, "Only those where you are")
      .optional(),
    source_branch: BranchArg("Only from this branch (needs project and repo)"),
    target_branch: BranchArg("Only into this branch (needs project and repo)"),
  }).extend(PagingArgs.shape),
  output: z.object({ pullRequests: z.array(PullRequestSummary) }).extend(PageTail.shape),
  async handler(args, { bitbucket, signal }) {
    const { project, repo, role, source_branch, target_branch, limit, start } = args;
    const state = args.state ?? "OPEN";
    if ((project === undefined) !== (repo === undefined)) {
      throw new Error(
        "Cannot list pull requests: give both project and repo for one repository's, or neither for your own across Bitbucket",
      );
    }
    if (project === undefined || repo === undefined) {
      if (source_branch !== undefined || target_branch !== undefined) {
        throw new Error(
          "Cannot filter your pull requests across Bitbucket by branch: source_branch and target_branch need project and repo",
        );
      }
      const page = await collectPages(
        bitbucket,
        "/api/latest/dashboard/pull-requests",
        PullRequest,
        { start, limit },
        { state: state === "ALL" ? undefined : state, role },
        signal,
      );
      return named("pullRequests", { ...page, values: page.values.map(pullRequestSummary) });
    }
    const query: Query = { state };
    if (role !== undefined) {
      // The participant filter needs the caller's username: the repository GET
      // (which also proves it exists) names it in its X-AUSERNAME header.
      const path = apiPath`/api/latest/projects/${project}/repos/${repo}`;
      const response = await bitbucket.request({ method: "GET", path, signal });
      query["username.1"] = callerName(response.headers, `GET ${path}`);
      query["role.1"] = role;
    }
    // `at` matches the source ref of OUTGOING pull requests and the target ref of
    // INCOMING ones; with both branches given, the target is checked here.
    const at = source_branch ?? target_branch;
    if (at !== undefined) {
      query.at = qualifyBranch(at);
      query.direction = source_branch === undefined ? "INCOMING" : "OUTGOING";
    }
    const page = await collectPages(
      bitbucket,
      apiPath`/api/latest/projects/${project}/repos/${repo}/pull-requests`,
      PullRequest,
      { start, limit },
      query,
      signal,
    );
    const into = source_branch !== undefined && target_branch !== undefined
      ? qualifyBranch(target_branch)
      : undefined;
    const values = page.values.filter((pr) => into === undefined || pr.toRef.id === into);
    return named("pullRequests", { ...page, values: values.map(pullRequestSummary) });
  },
});

/** Reads one pull request. */
export const getPullRequest = defineTool({
  name: "get_pull_request",
  title: "Get a pull request",
  description:
    "One pull request: title, description, state, version, author, reviewers with their status, refs and dates.",
  readOnly: true,
  safe: true,
  input: PrArgs,
  output: z.object({ pullRequest: PullRequestOut }),
  async handler({ project, repo, pr_id }, { bitbucket, signal }) {
    const pr = await bitbucket.get(prPath(project, repo, pr_id), PullRequest, undefined, signal);
    return { pullRequest: pullRequestOut(pr) };
  },
});

/** The most diff bytes returned when the caller does not say. */
export const DEFAULT_DIFF_BYTES = 100_000;
/** The most diff bytes a caller may ask for. */
const MAX_DIFF_BYTES = 1_000_000;
/** How much of the diff is searched for one file's section. */
const PATH_SCAN_BYTES = 8_000_000;
/** Read past the cut to tell whether the next line starts a new file. */
const LOOKAHEAD_BYTES = 1024;
const SECTION_START = "diff --git ";

/** One file's part of a git diff, named by its new path (old path for a deletion). */
interface DiffSection {
  file: string;
  oldFile?: string;
  text: string;
}

/** A diff path without its prefix: Bitbucket writes `src://` and `dst://`, git `a/` and `b/`. */
function stripPrefix(path: string): string | undefined {
  if (path === "/dev/null") return undefined;
  const match = /^(src:\/\/|dst:\/\/|a\/|b\/)/.exec(path);
  return match ? path.slice(match[0].length) : path;
}

/** Names a section from its header lines (those before the first hunk). */
function sectionNames(text: string): { file: string; oldFile?: string } {
  let from: string | undefined;
  let to: string | undefined;
  let header: [string | undefined, string | undefined] = [undefined, undefined];
  for (const line of text.split("\n")) {
    if (line.startsWith("@@")) break;
    if (line.startsWith(SECTION_START)) {
      const rest = line.slice(SECTION_START.length);
      const split = rest.lastIndexOf(rest.startsWith("src://") ? " dst://" : " b/");
      if (split > 0) {
        header = [stripPrefix(rest.slice(0, split)), stripPrefix(rest.slice(split + 1))];
      }
    } else if (line.startsWith("--- ")) from = stripPrefix(line.slice(4));
    else if (line.startsWith("+++ ")) to = stripPrefix(line.slice(4));
    else if (/^(rename|copy) from /.test(line)) from ??= line.replace(/^\w+ from /, "");
    else if (/^(rename|copy) to /.test(line)) to ??= line.replace(/^\w+ to /, "");
  }
  const oldFile = from ?? header[0];
  const file = to ?? header[1] ?? oldFile ?? "(unknown)";
  return oldFile === undefined || oldFile === file ? { file } : { file, oldFile };
}

/** Splits a git diff into its files. */
function splitDiff(diff: string): DiffSection[] {
  const starts: number[] = [];
  if (diff.startsWith(SECTION_START)) starts.push(0);
  for (
    let i = diff.indexOf("\n" + SECTION_START);
    i >= 0;
    i = diff.indexOf("\n" + SECTION_START, i + 1)
  ) {
    starts.push(i + 1);
  }
  return starts.map((from, n) => {
    const text = diff.slice(from, starts[n + 1] ?? diff.length);
    return { ...sectionNames(text), text };
  });
}

/** The bytes up to the last line end within `max` (the whole of them when they fit). */
function cutAtLine(bytes: Uint8Array, max: number): number {
  if (bytes.length <= max) return bytes.length;
  const end = bytes.subarray(0, max).lastIndexOf(0x0a);
  return end < 0 ? 0 : end + 1;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Returns a pull request's unified diff, whole or for one file, cut at a byte limit. */
export const getPrDiff = defineTool({
  name: "get_pr_diff",
  title: "Get a pull request diff",
  description:
    `Unified diff of a pull request, or of one file with path. Cut at max_bytes (default ${DEFAULT_DIFF_BYTES}) with truncated and the files left out.`,
  readOnly: true,
  safe: true,
  input: PrArgs.extend({
    path: z.string().min(1).max(4096).optional().describe(
      "Only this file (new or old path), e.g. src/app.ts",
    ),
    context_lines: z.number().int().min(0).max(100).optional().describe(
      "Context lines around each change (Bitbucket's default if absent)",
    ),
    max_bytes: z.number().int().min(256).max(MAX_DIFF_BYTES).default(DEFAULT_DIFF_BYTES)
      .describe(`Most bytes of diff to return (256-${MAX_DIFF_BYTES})`),
  }),
  output: z.object({
    diff: z.string().describe("Unified diff text"),
    truncated: z.boolean(),
    omittedFiles: z.array(z.string()).optional().describe(
      "When truncated: files left out or cut short",
    ),
  }),
  document: ({ diff, truncated, omittedFiles }) => {
    if (!truncated) return diff === "" ? "[empty diff: the pull request changes nothing]" : diff;
    return `${diff}\n[diff cut at max_bytes; left out or cut short: ${
      (omittedFiles ?? []).join(", ")
    }. Ask for one file with path, or raise max_bytes]`;
  },
  async handler({ project, repo, pr_id, path, context_lines, max_bytes }, { bitbucket, signal }) {
    const diffPath = prPath(project, repo, pr_id, ".diff");
    const query = { contextLines: context_lines };
    const read = await bitbucket.getBytes(
      diffPath,
      path === undefined ? max_bytes + LOOKAHEAD_BYTES : PATH_SCAN_BYTES,
      query,
      signal,
    );
    if (path !== undefined) {
      return oneFileDiff(
        read.bytes,
        read.complete,
        path,
        max_bytes,
        `pull request #${pr_id} of ${project}/${repo}`,
      );
    }
    const cut = cutAtLine(read.bytes, max_bytes);
    if (read.complete && cut === read.bytes.length) {
      return { diff: decode(read.bytes), truncated: false };
    }
    const shown = splitDiff(decode(read.bytes.subarray(0, cut)));
    const nextStartsFile = decode(read.bytes.subarray(cut, cut + SECTION_START.length)) ===
      SECTION_START;
    const whole = new Set((nextStartsFile ? shown : shown.slice(0, -1)).map((s) => s.file));
    const changed = await changedFiles(bitbucket, project, repo, pr_id, signal);
    return {
      diff: shown.map((s) => s.text).join(""),
      truncated: true,
      omittedFiles: changed.filter((file) => !whole.has(file)),
    };
  },
});

/** One file's sections of a diff read from the start, cut at `max` bytes. */
function oneFileDiff(
  bytes: Uint8Array,
  complete: boolean,
  file: string,
  max: number,
  where: string,
): { diff: string; truncated: boolean; omittedFiles?: string[] } {
  const sections = splitDiff(decode(bytes));
  const hits = sections.filter((s) => s.file === file || s.oldFile === file);
  if (hits.length === 0) {
    throw new Error(
      `Cannot show ${JSON.stringify(file)} in ${where}: ${
        complete
          ? "the pull request does not change it"
          : `it is not in the first ${PATH_SCAN_BYTES} bytes of the diff`
      } (hint: list_pr_changes lists the changed paths)`,
    );
  }
  const text = new TextEncoder().encode(hits.map((s) => s.text).join(""));
  const cut = cutAtLine(text, max);
  // A file whose section runs to the end of an unfinished read may go on beyond it.
  const cutShort = cut < text.length || (!complete && hits.at(-1) === sections.at(-1));
  return cutShort
    ? { diff: decode(text.subarray(0, cut)), truncated: true, omittedFiles: [file] }
    : { diff: decode(text), truncated: false };
}

/** Every path a pull request changes, in Bitbucket's order. */
async function changedFiles(
  bitbucket: BitbucketClient,
  project: string,
  repo: string,
  id: number,
  signal: AbortSignal,
): Promise<string[]> {
  const page = await collectPages(
    bitbucket,
    prPath(project, repo, id, "/changes"),
    Change,
    { limit: MAX_LIMIT },
    {},
    signal,
  );
  return page.values.map((c) => pathText(c.path));
}

const ChangeOut = z.object({
  path: z.string(),
  type: z.string().describe("ADD, COPY, DELETE, MODIFY, MOVE or UNKNOWN"),
  srcPath: z.string().optional().describe("Where a moved or copied file came from"),
  nodeType: z.string().optional().describe("FILE, DIRECTORY or SUBMODULE"),
});

/** Lists the files a pull request changes. */
export const listPrChanges = defineTool({
  name: "list_pr_changes",
  title: "List pull request changes",
  description: "Files a pull request changes: path, change type, and source path of moves/copies.",
  readOnly: true,
  safe: true,
  input: PrArgs.extend(PagingArgs.shape),
  output: z.object({ changes: z.array(ChangeOut) }).extend(PageTail.shape),
  async handler({ project, repo, pr_id, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      prPath(project, repo, pr_id, "/changes"),
      Change,
      { start, limit },
      {},
      signal,
    );
    return named("changes", {
      ...page,
      values: page.values.map((c) => ({
        path: pathText(c.path),
        type: c.type,
        srcPath: c.srcPath === undefined ? undefined : pathText(c.srcPath),
        nodeType: c.nodeType,
      })),
    });
  },
});

/** Lists the commits a pull request brings. */
export const listPrCommits = defineTool({
  name: "list_pr_commits",
  title: "List pull request commits",
  description: "Commits a pull request brings, newest first.",
  readOnly: true,
  safe: true,
  input: PrArgs.extend(PagingArgs.shape),
  output: z.object({ commits: z.array(Commit) }).extend(PageTail.shape),
  async handler({ project, repo, pr_id, limit, start }, { bitbucket, signal }) {
    const page = await collectPages(
      bitbucket,
      prPath(project, repo, pr_id, "/commits"),
      Commit,
      { start, limit },
      {},
      signal,
    );
    return named("commits", page);
  },
});

/** Says whether a pull request can merge now, and what stops it. */
export const getPrMergeStatus = defineTool({
  name: "get_pr_merge_status",
  title: "Get pull request merge status",
  description:
    "Whether an open pull request can merge now: conflicts, and each merge check that vetoes it.",
  readOnly: true,
  safe: true,
  input: PrArgs,
  output: z.object({
    mergeStatus: z.object({
      canMerge: z.boolean().optional(),
      conflicted: z.boolean(),
      outcome: z.string().describe("CLEAN, CONFLICTED or UNKNOWN"),
      vetoes: z.array(Veto),
    }),
  }),
  async handler({ project, repo, pr_id }, { bitbucket, signal }) {
    const { canMerge, conflicted, outcome, vetoes } = await bitbucket.get(
      prPath(project, repo, pr_id, "/merge"),
      Mergeability,
      undefined,
      signal,
    );
    return { mergeStatus: { canMerge, conflicted, outcome, vetoes } };
  },
});
