/**
 * The demo's agent session, played by demo/ and measured by bench/: what a
 * model reviewing a pull request asks, in order, using the ids the sandbox's
 * recorded data holds (repository PROJ/web, pull request #42). Later steps
 * read earlier answers, as an agent would.
 */

/** One call of the session. */
export interface DemoStep {
  /** What the agent wants to know, in words. */
  intent: string;
  tool: string;
  /** The arguments, given the payloads of the calls so far (by tool name). */
  args: (seen: Record<string, Record<string, unknown>>) => Record<string, unknown>;
  /** A line printed after the call's payload, when there is more to say. */
  note?: string;
}

/** Where the browser tests leave the picture of the pull request view (not committed). */
export const VIEW_SCREENSHOT = "/tmp/bitbucket-mcp-view/pull_request.png";

/** Where the browser tests leave the picture of the pull request form (not committed). */
export const FORM_SCREENSHOT = "/tmp/bitbucket-mcp-view/pull_request_form.png";

const REPO = { project: "PROJ", repo: "web" };

/** The head commit of the pull request the session read, from get_pull_request's payload. */
function headCommit(seen: Record<string, Record<string, unknown>>): string {
  const pr = seen.get_pull_request?.pullRequest as { fromRef?: { latestCommit?: unknown } };
  const commit = pr?.fromRef?.latestCommit;
  if (typeof commit !== "string") throw new Error("get_pull_request named no head commit");
  return commit;
}

/** The session, in order. */
export const SCRIPT: readonly DemoStep[] = [
  {
    intent: "Which pull requests are open in PROJ/web?",
    tool: "list_pull_requests",
    args: () => ({ ...REPO, state: "open" }),
  },
  {
    intent: "Read pull request #42: description, reviewers, branches.",
    tool: "get_pull_request",
    args: () => ({ ...REPO, pr_id: 42 }),
  },
  {
    intent: "What does it change? (the unified diff)",
    tool: "get_pr_diff",
    args: () => ({ ...REPO, pr_id: 42 }),
  },
  {
    intent: "Can it merge now? (conflicts and merge checks)",
    tool: "get_pr_merge_status",
    args: () => ({ ...REPO, pr_id: 42 }),
  },
  {
    intent: "Did CI pass on its head commit?",
    tool: "get_build_status",
    args: (seen) => ({ commit_id: headCommit(seen) }),
  },
  {
    intent: "Show it to the person: #42 drawn beside the chat (an MCP Apps view)",
    tool: "show",
    args: () => ({ kind: "pull_request", ...REPO, pr_id: 42 }),
    note:
      `a host that draws MCP Apps draws this payload; the browser tests' picture of it: ${VIEW_SCREENSHOT}`,
  },
  {
    intent:
      "Draft the follow-up pull request for the person to check and submit (the model drafts, the person decides)",
    tool: "show",
    args: () => ({
      kind: "pull_request_form",
      ...REPO,
      title: "Fix the login typo",
      description: "One word was wrong on the login page.",
      from_branch: "hotfix/typo",
    }),
    note:
      `a form beside the chat: nothing is written until the person presses Create; the browser tests' picture of it: ${FORM_SCREENSHOT}`,
  },
];
