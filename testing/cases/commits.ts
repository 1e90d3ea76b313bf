/**
 * The commits domain's contract cases: the fixture routes the commit tools
 * (src/tools/commits/) are answered from, and each tool's contract arguments
 * with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const HEAD = "8d51122def5632836d1cb1026e879069e10a1e13";
/** The head commit of pull request #42: it changes src/login/form.ts and adds src/login/validate.ts. */
export const PR_HEAD = "a3c7e0f4b9d2e1f08c6b5a4d3e2f1a0b9c8d7e6f";

/** Fixtures and contract entries for src/tools/commits/commits.ts. */
export const commits: DomainCases = {
  routes: [
    { method: "GET", path: `${REPO}/commits`, fixture: "commits/commits.json" },
    { method: "GET", path: `${REPO}/commits/${HEAD}`, fixture: "commits/commit.json" },
    {
      method: "GET",
      path: `${REPO}/commits/deadbeef`,
      status: 404,
      fixture: "errors/commit-not-found.json",
    },
    { method: "GET", path: `${REPO}/compare/commits`, fixture: "commits/compare.json" },
    { method: "GET", path: `${REPO}/commits/${PR_HEAD}/diff`, fixture: "commits/commit-diff.json" },
    {
      method: "GET",
      path: `${REPO}/commits/${PR_HEAD}/changes`,
      fixture: "commits/commit-changes.json",
    },
    {
      method: "GET",
      path: `${REPO}/commits/${PR_HEAD}/pull-requests`,
      fixture: "commits/commit-pull-requests.json",
    },
    { method: "GET", path: `${REPO}/compare/diff`, fixture: "commits/compare-diff.json" },
    {
      method: "GET",
      path: `${REPO}/commits/${PR_HEAD}/comments`,
      fixture: "commits/commit-comments.json",
    },
    {
      method: "POST",
      path: `${REPO}/commits/${PR_HEAD}/comments`,
      status: 201,
      fixture: "commits/commit-comment-created.json",
    },
    {
      method: "GET",
      path: `${REPO}/commits/${PR_HEAD}/diff/src/login/form.ts`,
      fixture: "commits/commit-diff-form-ts.json",
    },
    { method: "GET", path: `${REPO}/compare/changes`, fixture: "commits/compare-changes.json" },
  ],
  toolArguments: {
    list_commits: {
      args: { project: "PROJ", repo: "web", until: "main", path: "src/app.ts", limit: 3 },
      requests: [{
        method: "GET",
        path: `${REPO}/commits`,
        query: { until: "main", path: "src/app.ts", start: "0", limit: "3" },
      }],
    },
    get_commit: {
      args: { project: "PROJ", repo: "web", commit_id: HEAD },
      requests: [{ method: "GET", path: `${REPO}/commits/${HEAD}`, query: {} }],
    },
    compare_refs: {
      args: { project: "PROJ", repo: "web", from: "main", to: "feature/login" },
      requests: [{
        method: "GET",
        path: `${REPO}/compare/commits`,
        query: { from: "feature/login", to: "main", start: "0", limit: "25" },
      }],
    },
    get_commit_diff: {
      args: { project: "PROJ", repo: "web", commit_id: PR_HEAD, context_lines: 3 },
      requests: [{
        method: "GET",
        path: `${REPO}/commits/${PR_HEAD}/diff`,
        query: { contextLines: "3", withComments: "false" },
      }],
    },
    list_commit_changes: {
      args: { project: "PROJ", repo: "web", commit_id: PR_HEAD },
      requests: [{
        method: "GET",
        path: `${REPO}/commits/${PR_HEAD}/changes`,
        query: { withComments: "false", start: "0", limit: "25" },
      }],
    },
    list_commit_pull_requests: {
      args: { project: "PROJ", repo: "web", commit_id: PR_HEAD },
      requests: [{
        method: "GET",
        path: `${REPO}/commits/${PR_HEAD}/pull-requests`,
        query: { start: "0", limit: "25" },
      }],
    },
    list_commit_comments: {
      args: { project: "PROJ", repo: "web", commit_id: PR_HEAD, path: "src/login/form.ts" },
      requests: [{
        method: "GET",
        path: `${REPO}/commits/${PR_HEAD}/comments`,
        query: { path: "src/login/form.ts", start: "0", limit: "200" },
      }],
    },
    add_commit_comment: {
      args: {
        project: "PROJ",
        repo: "web",
        commit_id: PR_HEAD,
        text: "Nice catch.",
        path: "src/login/form.ts",
        line: 2,
      },
      requests: [
        {
          method: "GET",
          path: `${REPO}/commits/${PR_HEAD}/diff/src/login/form.ts`,
          query: { withComments: "false" },
        },
        {
          method: "POST",
          path: `${REPO}/commits/${PR_HEAD}/comments`,
          query: {},
          body: {
            text: "Nice catch.",
            anchor: {
              path: "src/login/form.ts",
              diffType: "COMMIT",
              toHash: PR_HEAD,
              line: 2,
              lineType: "ADDED",
              fileType: "TO",
            },
          },
        },
      ],
    },
    get_compare_diff: {
      args: { project: "PROJ", repo: "web", from: "main", to: "feature/login" },
      requests: [{
        method: "GET",
        path: `${REPO}/compare/diff`,
        query: { from: "feature/login", to: "main" },
      }],
    },
  },
};
