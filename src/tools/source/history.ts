/** Who changed a file and when: its blame, its history, and the last commit to touch each file of a directory. */
import { z } from "../../deps/zod.ts";
import { Commit } from "../../bitbucket/entities/commit.ts";
import { BlamePage, LastModified } from "../../bitbucket/entities/source.ts";
import { rethrowDuring } from "../../bitbucket/transport/errors.ts";
import {
  AtArg,
  CommitOut,
  commitOut,
  DateOut,
  defineListTool,
  defineTool,
  filePathArg,
  isoDate,
  lineArg,
  READ_ONLY,
  RepoArgs,
} from "../kit/mod.ts";
import { commitAt } from "../../bitbucket/commits.ts";
import { refText, underRepo } from "../../bitbucket/files.ts";
import { cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** The most lines one blame call covers. */
export const MAX_BLAME_LINES = 1000;

/** A run of lines last changed by one commit. */
const BlameOut = z.object({
  startLine: z.number().int(),
  endLine: z.number().int(),
  commitId: z.string(),
  displayCommitId: z.string().optional(),
  author: z.object({
    name: z.string(),
    emailAddress: z.string().optional(),
    displayName: z.string().optional(),
  }),
  authorTimestamp: DateOut.optional(),
});

export const getFileBlame = defineTool({
  name: "get_file_blame",
  defaultFor: "code",
  reach: "repository",
  title: "Blame a file",
  description:
    `Who last changed each line: line ranges with commit and author (${MAX_BLAME_LINES} lines at most).`,
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg(),
    at: AtArg,
    start_line: lineArg().optional(),
    end_line: lineArg().optional(),
  }).refine(
    ({ start_line = 1, end_line }) =>
      end_line === undefined || (end_line >= start_line && end_line - start_line < MAX_BLAME_LINES),
    {
      path: ["end_line"],
      message: `must be at least start_line and less than ${MAX_BLAME_LINES} lines after it`,
    },
  ),
  output: z.object({
    blame: z.array(BlameOut),
    isLastPage: z.boolean().describe("The file ends within the lines asked for"),
  }),
  async handler({ project, repo, path, at, start_line = 1, end_line }, { bitbucket }) {
    const last = end_line ?? start_line + MAX_BLAME_LINES - 1;
    const limit = last - start_line + 1;
    const { body: page } = await bitbucket.request({
      path: underRepo(project, repo, "browse", path),
      schema: BlamePage,
      // Bitbucket pages a file by lines: `start` is the 0-based first line.
      query: { at, blame: true, noContent: true, start: start_line - 1, limit },
    }).catch(
      rethrowDuring(`blame ${JSON.stringify(path)} at ${refText(at)} in ${project}/${repo}`),
    );
    const blame = page.runs
      .map((run) => ({
        startLine: Math.max(run.lineNumber, start_line),
        endLine: Math.min(run.lineNumber + run.spannedLines - 1, last),
        commitId: run.commitId ?? run.commitHash ?? "",
        displayCommitId: run.commitDisplayId ?? run.displayCommitHash,
        author: {
          name: cleanText(run.author.name),
          emailAddress: visibleId(run.author.emailAddress),
          displayName: cleanText(run.author.displayName),
        },
        authorTimestamp: isoDate(run.authorTimestamp),
      }))
      .filter((run) => run.startLine <= run.endLine);
    const covered = page.runs.reduce((n, run) => n + run.spannedLines, 0);
    return { blame, isLastPage: page.isLastPage ?? covered < limit };
  },
});

export const getFileHistory = defineListTool({
  name: "get_file_history",
  defaultFor: "code",
  reach: "repository",
  title: "File history",
  description: "Commits that changed a file, newest first, following renames.",
  access: READ_ONLY,
  input: RepoArgs.extend({
    path: filePathArg(),
    at: AtArg,
  }),
  key: "commits",
  item: CommitOut,
  entity: Commit,
  map: commitOut,
  request: ({ project, repo, path, at }) => ({
    path: underRepo(project, repo, "commits"),
    query: { path, until: at, followRenames: true },
    action: `list the history of ${JSON.stringify(path)} at ${refText(at)} in ${project}/${repo}`,
  }),
});

export const listLastModified = defineTool({
  name: "list_last_modified",
  reach: "repository",
  title: "Last commit per file",
  description: "Files of a directory (default: root), each with the last commit changing it.",
  access: READ_ONLY,
  input: RepoArgs.extend({ path: filePathArg("Directory").optional(), at: AtArg }),
  output: z.object({
    files: z.array(
      z.object({ path: z.string().describe("From the repository root"), commit: CommitOut }),
    ),
  }),
  async handler({ project, repo, path, at }, { bitbucket }) {
    const action = `list the last commits under ${JSON.stringify(path ?? "/")} at ${
      refText(at)
    } in ${project}/${repo}`;
    // Bitbucket wants an explicit commit to walk from (a 400 without one).
    const commitId = await commitAt(bitbucket, project, repo, at, action);
    const { body } = await bitbucket.request({
      path: underRepo(project, repo, "last-modified", path),
      schema: LastModified,
      query: { at: commitId },
    }).catch(rethrowDuring(action));
    return {
      files: Object.entries(body.files).map(([name, commit]) => ({
        path: visibleId(path === undefined ? name : `${path}/${name}`),
        commit: commitOut(commit),
      })),
    };
  },
});
