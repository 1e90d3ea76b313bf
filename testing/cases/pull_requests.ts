/**
 * The pull requests domain's contract cases: pull request #42 of PROJ/web and
 * its neighbours as the fixture Bitbucket serves them, the caller it names,
 * and each pull request tool's (src/tools/pull_requests/) contract arguments
 * with the requests they must produce.
 */
import type { DomainCases } from "./types.ts";
import type { SeenRequest } from "../fixture_bitbucket.ts";
import { APPLICATION_PROPERTIES, versionRoute } from "./server_version.ts";
import { storedComment } from "./stored_comment.ts";

/** The repository every pull request fixture lives in. */
export const REPO = "/api/latest/projects/PROJ/repos/web";
/** Pull request #42: two reviewers (APPROVED, NEEDS_WORK), an inline thread, two tasks, three files. */
export const PR = `${REPO}/pull-requests/42`;
/** Where a repository's default reviewers are asked for. */
export const DEFAULT_REVIEWERS = "/default-reviewers/latest/projects/PROJ/repos/web/reviewers";
/** Where pull request #42 is checked for, and asked for, a rebase (Bitbucket's Git REST API). */
export const REBASE = "/git/latest/projects/PROJ/repos/web/pull-requests/42/rebase";
/** The user the fixture Bitbucket says the token belongs to (a reviewer of #42). */
export const CALLER = "bwilson";
/** What Bitbucket sends on authenticated answers: the caller's username. */
export const AS_CALLER = { "X-AUSERNAME": CALLER };

/** What the default reviewers resource is asked for a pull request from `fromRef` into main. */
export function defaultReviewersQuery(fromRef: string): Record<string, string> {
  return {
    sourceRepoId: "11",
    targetRepoId: "11",
    sourceRefId: fromRef,
    targetRefId: "refs/heads/main",
  };
}

const PR42_DESCRIPTION =
  "Checks the username and password fields before the form is sent.\n\n- rejects an empty password\n- moves the auth docs to docs/login.md";
/** The repository of pull request refs, as requests name it. */
export const WEB = { slug: "web", project: { key: "PROJ" } };

/**
 * A real 9.x server reads an applied suggestion's commit message from
 * `message` and refuses the request without one (the 9.4 OpenAPI document
 * says `commitMessage`, which servers ignore); see fixtures/README.md.
 */
function suggestionWithoutMessage(seen: SeenRequest) {
  const body = seen.body as { message?: unknown } | undefined;
  if (typeof body?.message === "string" && body.message.trim() !== "") return undefined;
  return {
    status: 400,
    body: {
      errors: [{
        context: null,
        message: "'message' cannot be null or empty",
        exceptionName: null,
      }],
    },
  };
}

/** Fixtures and contract entries for the pull request tools. */
export const pullRequests: DomainCases = {
  routes: [
    // A call that needs a newer feature (a range, a draft, auto-merge) asks the version first.
    versionRoute(),
    {
      method: "GET",
      path: "/api/latest/dashboard/pull-requests",
      fixture: "pull_requests/dashboard.json",
      headers: AS_CALLER,
    },
    {
      method: "GET",
      path: "/api/latest/dashboard/pull-request-suggestions",
      fixture: "pull_requests/suggestions.json",
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
    // The repository (its id, and the caller) and its default reviewers, for a new pull request.
    { method: "GET", path: REPO, fixture: "repositories/repo-web.json", headers: AS_CALLER },
    {
      method: "GET",
      path: DEFAULT_REVIEWERS,
      fixture: "pull_requests/default-reviewers.json",
      headers: AS_CALLER,
    },
    { method: "GET", path: PR, fixture: "pull_requests/pr-42.json", headers: AS_CALLER },
    { method: "GET", path: REBASE, fixture: "pull_requests/rebase-check.json" },
    { method: "POST", path: REBASE, fixture: "pull_requests/rebase-result.json" },
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
      // Real servers list a file's outdated (orphaned) comments only when asked for ALL.
      method: "GET",
      path: `${PR}/comments`,
      query: { path: "src/login/form.ts", anchorState: "ALL" },
      fixture: "pull_requests/comments-form-ts-all.json",
    },
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
      respond: storedComment("pull_requests/comment-created.json"),
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
    // Comments by id: a task (301), a suggestion (309), and the review's own (310, 311).
    { method: "GET", path: `${PR}/comments/301`, fixture: "pull_requests/task-301.json" },
    { method: "PUT", path: `${PR}/comments/301`, fixture: "pull_requests/task-301-resolved.json" },
    { method: "GET", path: `${PR}/comments/309`, fixture: "pull_requests/comment-309.json" },
    {
      method: "POST",
      path: `${PR}/comments/309/apply-suggestion`,
      status: 204,
      refuse: suggestionWithoutMessage,
    },
    { method: "GET", path: `${PR}/comments/310`, fixture: "pull_requests/comment-310.json" },
    { method: "PUT", path: `${PR}/comments/310`, fixture: "pull_requests/comment-310-edited.json" },
    { method: "DELETE", path: `${PR}/comments/310`, status: 204 },
    { method: "GET", path: `${PR}/comments/311`, fixture: "pull_requests/comment-311.json" },
    {
      method: "PUT",
      path: `${PR}/comments/311`,
      fixture: "pull_requests/comment-311-resolved.json",
    },
    // The caller's pending review: two drafts.
    {
      method: "GET",
      path: `${PR}/review`,
      fixture: "pull_requests/review.json",
      headers: AS_CALLER,
    },
    {
      method: "PUT",
      path: `${PR}/review`,
      fixture: "pull_requests/participant-needs-work.json",
      headers: AS_CALLER,
    },
    { method: "DELETE", path: `${PR}/review`, status: 204 },
    { method: "GET", path: `${PR}/merge`, fixture: "pull_requests/merge-status.json" },
    {
      method: "GET",
      path: `${REPO}/settings/pull-requests`,
      fixture: "pull_requests/pr-settings.json",
    },
    { method: "POST", path: `${PR}/merge`, fixture: "pull_requests/pr-42-merged.json" },
    { method: "POST", path: `${PR}/decline`, fixture: "pull_requests/pr-42-declined.json" },
    { method: "POST", path: `${PR}/reopen`, fixture: "pull_requests/pr-42-reopened.json" },
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
      requests: [
        { method: "GET", path: `${PR}/merge`, query: {} },
        { method: "GET", path: `${REPO}/settings/pull-requests`, query: {} },
      ],
    },
    list_pr_activity: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: `${PR}/activities`, query: { start: "0", limit: "25" } }],
    },
    get_pr_review: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [{ method: "GET", path: `${PR}/review`, query: { start: "0", limit: "25" } }],
    },
    get_default_reviewers: {
      args: { project: "PROJ", repo: "web", from_ref: "feature/login", to_ref: "main" },
      requests: [
        { method: "GET", path: REPO, query: {} },
        {
          method: "GET",
          path: DEFAULT_REVIEWERS,
          query: defaultReviewersQuery("refs/heads/feature/login"),
        },
      ],
    },
    list_pull_request_suggestions: {
      args: { changes_since: 172800, limit: 5 },
      requests: [{
        method: "GET",
        path: "/api/latest/dashboard/pull-request-suggestions",
        query: { changesSince: "172800", limit: "5" },
      }],
    },
    reopen_pull_request: {
      args: { project: "PROJ", repo: "web", pr_id: 42, version: 4 },
      requests: [{
        method: "POST",
        path: `${PR}/reopen`,
        query: { version: "4" },
        body: { version: 4 },
      }],
    },
    update_pr_comment: {
      args: { project: "PROJ", repo: "web", pr_id: 42, comment_id: 311, thread_resolved: true },
      requests: [
        // Resolving a thread needs 8.9: the version is read first.
        { method: "GET", path: APPLICATION_PROPERTIES, query: {} },
        { method: "GET", path: `${PR}/comments/311`, query: {} },
        {
          method: "PUT",
          path: `${PR}/comments/311`,
          query: {},
          body: { version: 0, threadResolved: true },
        },
      ],
    },
    delete_pr_comment: {
      args: { project: "PROJ", repo: "web", pr_id: 42, comment_id: 310 },
      requests: [
        { method: "GET", path: `${PR}/comments/310`, query: {} },
        { method: "DELETE", path: `${PR}/comments/310`, query: { version: "0" } },
      ],
    },
    apply_pr_suggestion: {
      args: { project: "PROJ", repo: "web", pr_id: 42, comment_id: 309 },
      requests: [
        { method: "GET", path: `${PR}/comments/309`, query: {} },
        { method: "GET", path: PR, query: {} },
        {
          method: "POST",
          path: `${PR}/comments/309/apply-suggestion`,
          query: {},
          body: {
            commentVersion: 0,
            pullRequestVersion: 3,
            suggestionIndex: 0,
            message: "Apply suggestion from comment 309",
          },
        },
        { method: "GET", path: PR, query: {} },
      ],
    },
    discard_pr_review: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [
        { method: "GET", path: `${PR}/review`, query: { start: "0", limit: "1000" } },
        { method: "DELETE", path: `${PR}/review`, query: {} },
      ],
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
        { method: "GET", path: REPO, query: {} },
        {
          method: "GET",
          path: DEFAULT_REVIEWERS,
          query: defaultReviewersQuery("refs/heads/feature/signup"),
        },
        {
          method: "POST",
          path: `${REPO}/pull-requests`,
          query: {},
          body: {
            title: "Sign-up page",
            description: "Adds a sign-up page.",
            fromRef: { id: "refs/heads/feature/signup", repository: WEB },
            toRef: { id: "refs/heads/main", repository: WEB },
            // asmith was asked for; c.davis@example.com is the other default reviewer.
            reviewers: [{ user: { name: "asmith" } }, { user: { name: "c.davis@example.com" } }],
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
      requests: [
        { method: "GET", path: APPLICATION_PROPERTIES, query: {} },
        { method: "DELETE", path: `${PR}/auto-merge`, query: {} },
      ],
    },
    submit_pr_review: {
      args: {
        project: "PROJ",
        repo: "web",
        pr_id: 42,
        action: "needs_work",
        comment: "Two things before this goes in; see the inline comments.",
      },
      requests: [
        { method: "GET", path: `${PR}/review`, query: { start: "0", limit: "1000" } },
        {
          method: "PUT",
          path: `${PR}/review`,
          query: {},
          body: {
            participantStatus: "NEEDS_WORK",
            commentText: "Two things before this goes in; see the inline comments.",
          },
        },
      ],
    },
    rebase_pull_request: {
      args: { project: "PROJ", repo: "web", pr_id: 42 },
      requests: [
        { method: "GET", path: REBASE, query: {} },
        { method: "GET", path: PR, query: {} },
        { method: "POST", path: REBASE, query: {}, body: { version: 3 } },
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
        // Auto-merge needs 8.15: the version is read first.
        { method: "GET", path: APPLICATION_PROPERTIES, query: {} },
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
