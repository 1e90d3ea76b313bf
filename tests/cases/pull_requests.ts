import type { DomainCases } from "./types.ts";

/** The repository every pull request fixture lives in. */
export const REPO = "/api/latest/projects/PROJ/repos/web";
/** Pull request #42: two reviewers (APPROVED, NEEDS_WORK), an inline thread, two tasks, three files. */
export const PR = `${REPO}/pull-requests/42`;
/** The user the fixture Bitbucket says the token belongs to (a reviewer of #42). */
export const CALLER = "bwilson";
/** What Bitbucket sends on authenticated answers: the caller's username. */
export const AS_CALLER = { "X-AUSERNAME": CALLER };

const PR42_DESCRIPTION =
  "Checks the username and password fields before the form is sent.\n\n- rejects an empty password\n- moves the auth docs to docs/login.md";
const WEB = { slug: "web", project: { key: "PROJ" } };

/** Fixtures and contract entries for the pull request tools. */
export const pullRequests: DomainCases = {
  routes: [
    {
      method: "GET",
      path: "/api/latest/dashboard/pull-requests",
      fixture: "pull_requests/dashboard.json",
      headers: AS_CALLER,
    },
    {
      method: "GET",
      path: `${REPO}/pull-requests`,
      fixture: "pull_requests/pull-requests.json",
      headers: AS_CALLER,
    },
    {
      method: "POST",
      path: `${REPO}/pull-requests`,
      status: 201,
      fixture: "pull_requests/pr-created.json",
    },
    { method: "GET", path: `${REPO}/default-branch`, fixture: "pull_requests/default-branch.json" },
    { method: "GET", path: PR, fixture: "pull_requests/pr-42.json", headers: AS_CALLER },
    { method: "PUT", path: PR, fixture: "pull_requests/pr-42-updated.json" },
    {
      method: "GET",
      path: `${PR}.diff`,
      fixture: "pull_requests/pr-42.diff",
      headers: { "content-type": "text/plain;charset=UTF-8" },
    },
    { method: "GET", path: `${PR}/changes`, fixture: "pull_requests/changes.json" },
    { method: "GET", path: `${PR}/commits`, fixture: "pull_requests/commits.json" },
    { method: "GET", path: `${PR}/activities`, fixture: "pull_requests/activities.json" },
    {
      method: "GET",
      path: `${PR}/comments`,
      query: { path: "src/login/form.ts" },
      fixture: "pull_requests/comments-form-ts.json",
    },
    {
      method: "POST",
      path: `${PR}/comments`,
      status: 201,
      fixture: "pull_requests/comment-created.json",
    },
    {
      method: "GET",
      path: `${PR}/blocker-comments`,
      query: { state: "OPEN" },
      fixture: "pull_requests/tasks-open.json",
    },
    {
      method: "GET",
      path: `${PR}/blocker-comments`,
      query: { state: "RESOLVED" },
      fixture: "pull_requests/tasks-resolved.json",
    },
    { method: "GET", path: `${PR}/blocker-comments`, fixture: "pull_requests/tasks.json" },
    { method: "GET", path: `${PR}/blocker-comments/301`, fixture: "pull_requests/task-301.json" },
    {
      method: "PUT",
      path: `${PR}/blocker-comments/301`,
      fixture: "pull_requests/task-301-resolved.json",
    },
    { method: "GET", path: `${PR}/merge`, fixture: "pull_requests/merge-status.json" },
    { method: "POST", path: `${PR}/merge`, fixture: "pull_requests/pr-42-merged.json" },
    { method: "POST", path: `${PR}/decline`, fixture: "pull_requests/pr-42-declined.json" },
    { method: "DELETE", path: `${PR}/auto-merge`, status: 204 },
    {
      method: "PUT",
      path: `${PR}/participants/${CALLER}`,
      fixture: "pull_requests/participant-approved.json",
    },
    {
      method: "GET",
      path: `${REPO}/pull-requests/999`,
      status: 404,
      fixture: "errors/pull-request-not-found.json",
    },
  ],
  toolArguments: {
    list_pull_requests: {
      args: { project: "PROJ", repo: "web", state: "all", target_branch: "main", limit: 10 },
      requests: [{
        method: "GET",
        path: `${REPO}/pull-requests`,
        query: {
          state: "ALL",
          at: "refs/heads/main",
          direction: "INCOMING",
          start: "0",
          limit: "10",
        },
      }],
    },
    get_pull_request: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: PR, query: {} }],
    },
    get_pr_diff: {
      args: { project: "PROJ", repo: "web", pr_id: 42, context_lines: 3 },
      requests: [{ method: "GET", path: `${PR}.diff`, query: { contextLines: "3" } }],
    },
    list_pr_changes: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: `${PR}/changes`, query: { start: "0", limit: "25" } }],
    },
    list_pr_commits: {
      args: { project: "PROJ", repo: "web", pr_id: 42, limit: 5 },
      requests: [{ method: "GET", path: `${PR}/commits`, query: { start: "0", limit: "5" } }],
    },
    list_pr_comments: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: `${PR}/activities`, query: { start: "0", limit: "100" } }],
    },
    list_pr_tasks: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{
        method: "GET",
        path: `${PR}/blocker-comments`,
        query: { state: "OPEN", start: "0", limit: "25" },
      }],
    },
    get_pr_merge_status: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: `${PR}/merge`, query: {} }],
    },
    create_pull_request: {
      args: {
        project: "PROJ",
        repo: "web",
        from_ref: "feature/signup",
        title: "Sign-up page",
        description: "Adds a sign-up page.",
        reviewers: ["asmith"],
      },
      requests: [
        { method: "GET", path: `${REPO}/default-branch`, query: {} },
        {
          method: "POST",
          path: `${REPO}/pull-requests`,
          query: {},
          body: {
            title: "Sign-up page",
            description: "Adds a sign-up page.",
            fromRef: { id: "refs/heads/feature/signup", repository: WEB },
            toRef: { id: "refs/heads/main", repository: WEB },
            reviewers: [{ user: { name: "asmith" } }],
          },
        },
      ],
    },
    update_pull_request: {
      args: { project: "PROJ", repo: "web", pr_id: 42, title: "Validate the login form" },
      requests: [
        { method: "GET", path: PR, query: {} },
        {
          method: "PUT",
          path: PR,
          query: {},
          body: {
            version: 3,
            title: "Validate the login form",
            description: PR42_DESCRIPTION,
            reviewers: [{ user: { name: "asmith" } }, { user: { name: "bwilson" } }],
            toRef: { id: "refs/heads/main", repository: WEB },
            draft: false,
          },
        },
      ],
    },
    add_pr_comment: {
      args: {
        project: "PROJ",
        repo: "web",
        pr_id: 42,
        text: "Looks good to me once the test is in.",
      },
      requests: [{
        method: "POST",
        path: `${PR}/comments`,
        query: {},
        body: { text: "Looks good to me once the test is in." },
      }],
    },
    disable_auto_merge: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "DELETE", path: `${PR}/auto-merge`, query: {} }],
    },
    submit_pr_review: {
      args: { project: "PROJ", repo: "web", pr_id: 42, action: "approve" },
      requests: [
        { method: "GET", path: PR, query: {} },
        {
          method: "PUT",
          path: `${PR}/participants/${CALLER}`,
          query: {},
          body: { status: "APPROVED" },
        },
      ],
    },
    update_pr_task: {
      args: { project: "PROJ", repo: "web", pr_id: 42, task_id: 301, state: "resolved" },
      requests: [
        { method: "GET", path: `${PR}/blocker-comments/301`, query: {} },
        {
          method: "PUT",
          path: `${PR}/blocker-comments/301`,
          query: {},
          body: { version: 0, state: "RESOLVED" },
        },
      ],
    },
    merge_pull_request: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [
        { method: "GET", path: PR, query: {} },
        { method: "POST", path: `${PR}/merge`, query: { version: "3" }, body: { version: 3 } },
      ],
    },
    decline_pull_request: {
      args: { project: "PROJ", repo: "web", pr_id: 42, version: 3, comment: "Superseded by #44." },
      requests: [{
        method: "POST",
        path: `${PR}/decline`,
        query: { version: "3" },
        body: { version: 3, comment: "Superseded by #44." },
      }],
    },
    enable_auto_merge: {
      args: { project: "PROJ", repo: "web", pr_id: 42, strategy: "SQUASH" },
      requests: [
        { method: "GET", path: PR, query: {} },
        {
          method: "POST",
          path: `${PR}/merge`,
          query: { version: "3" },
          body: { version: 3, autoMerge: true, strategyId: "squash" },
        },
      ],
    },
  },
};
