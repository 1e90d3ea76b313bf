/**
 * The source domain's contract cases: the files, blame and history the
 * fixture Bitbucket serves for PROJ/web, and each source tool's
 * (src/tools/source/) contract arguments with the requests they must produce.
 */
import { readFixture } from "../fixture_bitbucket.ts";
import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";

/** The text file the fixtures serve at src/app.ts, and its size in bytes. */
export const APP_TS = readFixture("source/app.ts.txt");
export const APP_TS_BYTES = new TextEncoder().encode(APP_TS).length;

/** The head of main in the fixtures: the commit files are read at. */
export const HEAD = "8d51122def5632836d1cb1026e879069e10a1e13";
/** The commit the fixture Bitbucket answers a file edit with. */
export const COMMITTED = "5c9e1a7b3d2f40e8a6b1c0d9e8f7a6b5c4d3e2f1";

/**
 * Fixtures and contract entries for the source tools: src/tools/source/files.ts,
 * commit_file.ts and history.ts.
 */
export const source: DomainCases = {
  routes: [
    // A ref resolved to its head commit (`until` absent: the default branch).
    {
      method: "GET",
      path: `${REPO}/commits`,
      query: { limit: "1" },
      fixture: "source/head-commit.json",
    },
    { method: "GET", path: `${REPO}/commits`, fixture: "commits/commits.json" },
    { method: "GET", path: `${REPO}/default-branch`, fixture: "pull_requests/default-branch.json" },
    { method: "PUT", path: `${REPO}/browse/src/app.ts`, fixture: "source/commit-created.json" },
    {
      method: "GET",
      path: `${REPO}/browse/src/app.ts`,
      query: { blame: "true", noContent: "true" },
      fixture: "source/blame-app-ts.json",
    },
    {
      method: "GET",
      path: `${REPO}/last-modified/src/lib`,
      fixture: "source/last-modified-src-lib.json",
    },
    { method: "GET", path: `${REPO}/files`, fixture: "source/files.json" },
    {
      method: "GET",
      path: `${REPO}/files/src`,
      query: { start: "2" },
      fixture: "source/files-src-page2.json",
    },
    { method: "GET", path: `${REPO}/files/src`, fixture: "source/files-src.json" },
    {
      method: "GET",
      path: `${REPO}/raw/src/app.ts`,
      fixture: "source/app.ts.txt",
      headers: { "content-type": "text/plain;charset=UTF-8" },
    },
    {
      method: "GET",
      path: `${REPO}/browse/src/app.ts`,
      query: { size: "true" },
      body: { size: APP_TS_BYTES },
    },
    {
      method: "GET",
      path: `${REPO}/raw/src/nope.ts`,
      status: 404,
      fixture: "errors/path-not-found.json",
    },
    {
      method: "GET",
      path: `${REPO}/raw/assets/logo.png`,
      // A PNG's signature and first chunk header: binary, with NUL bytes.
      body: "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\b\x06\0\0\0",
      headers: { "content-type": "image/png" },
    },
  ],
  toolArguments: {
    list_files: {
      args: { project: "PROJ", repo: "web", path: "src", at: "main", limit: 2 },
      requests: [{
        method: "GET",
        path: `${REPO}/files/src`,
        query: { at: "main", start: "0", limit: "2" },
      }],
    },
    get_file_content: {
      args: { project: "PROJ", repo: "web", path: "src/app.ts", at: "main" },
      requests: [
        { method: "GET", path: `${REPO}/commits`, query: { until: "main", limit: "1" } },
        { method: "GET", path: `${REPO}/raw/src/app.ts`, query: { at: HEAD } },
      ],
    },
    commit_file: {
      args: {
        project: "PROJ",
        repo: "web",
        path: "src/app.ts",
        content: 'export const greeting = "Hello, world!";\n',
        message: "Greet visitors with a comma",
        branch: "fix/greeting",
        source_commit_id: HEAD,
        source_branch: "main",
      },
      // The contract runs under --yolo: the default branch is not looked up.
      requests: [{
        method: "PUT",
        path: `${REPO}/browse/src/app.ts`,
        query: {},
        form: {
          content: 'export const greeting = "Hello, world!";\n',
          message: "Greet visitors with a comma",
          branch: "fix/greeting",
          sourceCommitId: HEAD,
          sourceBranch: "main",
        },
      }],
    },
    get_file_blame: {
      args: { project: "PROJ", repo: "web", path: "src/app.ts", start_line: 2, end_line: 5 },
      requests: [{
        method: "GET",
        path: `${REPO}/browse/src/app.ts`,
        query: { blame: "true", noContent: "true", start: "1", limit: "4" },
      }],
    },
    get_file_history: {
      args: { project: "PROJ", repo: "web", path: "src/app.ts", at: "main", limit: 3 },
      requests: [{
        method: "GET",
        path: `${REPO}/commits`,
        query: {
          path: "src/app.ts",
          until: "main",
          followRenames: "true",
          start: "0",
          limit: "3",
        },
      }],
    },
    list_last_modified: {
      args: { project: "PROJ", repo: "web", path: "src/lib", at: "main" },
      requests: [
        { method: "GET", path: `${REPO}/commits`, query: { until: "main", limit: "1" } },
        { method: "GET", path: `${REPO}/last-modified/src/lib`, query: { at: HEAD } },
      ],
    },
  },
};
