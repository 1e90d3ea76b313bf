/**
 * The prompts: slash commands for the common jobs. Each is a short plan that
 * names the tools to call, with the pull request attached as a resource link
 * rather than its data; getting one asks Bitbucket nothing. Arguments follow
 * the tools' rules (a bad one is refused, -32602, naming it). A prompt is
 * offered only where every tool its plan names is exposed.
 */
import type { GetPromptResult, Prompt } from "../deps/mcp.ts";
import { resourceUri, templateOf } from "../resources/templates.ts";

/** The pull request a prompt is about, its arguments checked (`arguments.ts`). */
export interface PrArgs {
  project: string;
  repo: string;
  pr_id: number;
}

/** The arguments of the pull request prompts as `prompts/list` shows them. */
const PR_ARGUMENT_LIST: NonNullable<Prompt["arguments"]> = [
  { name: "project", description: "Project key", required: true },
  { name: "repo", description: "Repository slug", required: true },
  { name: "pr_id", description: "Pull request id", required: true },
];

/** The arguments of the pull request prompts, by what each names (for completions). */
export const PR_PROMPT_ARGUMENTS = {
  project: "project",
  repo: "repo",
  pr_id: "pull_request",
} as const;

/** One prompt: what `prompts/list` shows, the tools its plan names, and its plan. */
export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  /** Every tool the plan names: the prompt is offered only when all are exposed. */
  tools: readonly string[];
  /** Whether it takes {@link PR_PROMPT_ARGUMENTS}. */
  aboutPullRequest: boolean;
  plan: (pr: PrArgs | undefined) => string;
}

/** `#42 of PROJ/web` */
const named = (pr: PrArgs | undefined) => pr ? `#${pr.pr_id} of ${pr.project}/${pr.repo}` : "";

/** Every prompt, in `prompts/list` order. */
export const PROMPTS: readonly PromptSpec[] = [
  {
    name: "review_pull_request",
    title: "Review a pull request",
    description: "Review a pull request: findings by file and line, and a verdict.",
    tools: ["get_pull_request", "get_pr_diff", "list_pr_comments"],
    aboutPullRequest: true,
    plan: (pr) =>
      `Review pull request ${named(pr)}, attached below.
1. Read it with get_pull_request, its changes with get_pr_diff (one file at a time, with path, when the diff is cut) and what reviewers already said with list_pr_comments.
2. Look for bugs, missing tests, security problems and unclear code.
3. Report the findings by file and line, most serious first, then a verdict: approve, or needs work and why.`,
  },
  {
    name: "explain_pull_request",
    title: "Explain a pull request",
    description: "Explain what a pull request changes and why.",
    tools: ["get_pull_request", "list_pr_commits", "get_pr_diff"],
    aboutPullRequest: true,
    plan: (pr) =>
      `Explain pull request ${named(pr)}, attached below, to someone who has not seen it.
1. Read it with get_pull_request, its commits with list_pr_commits and its changes with get_pr_diff.
2. Say what it changes and why, then file by file in a sentence or two, and what a reviewer should look at most closely.`,
  },
  {
    name: "fix_failing_build",
    title: "Fix a failing build",
    description: "Find why a pull request's build fails and propose a fix.",
    tools: [
      "get_pull_request",
      "get_build_status",
      "list_code_insights_reports",
      "list_code_insights_annotations",
      "get_pr_diff",
    ],
    aboutPullRequest: true,
    plan: (pr) =>
      `Find why the build of pull request ${named(pr)}, attached below, fails, and propose a fix.
1. get_pull_request gives its head commit (fromRef.latestCommit); get_build_status lists that commit's build statuses, list_code_insights_reports and list_code_insights_annotations its analysis findings.
2. Read the diff with get_pr_diff and tie each failure or finding to the change behind it.
3. Propose the smallest fix, file by file.`,
  },
  {
    name: "triage_my_reviews",
    title: "Triage my reviews",
    description: "Order the pull requests waiting for your review.",
    tools: ["list_pull_requests", "get_pr_merge_status", "list_pr_changes"],
    aboutPullRequest: false,
    plan: () =>
      `Triage the pull requests waiting for my review.
1. list_pull_requests with role REVIEWER (and no project or repo) lists them.
2. For each, get_pr_merge_status says whether it could merge and list_pr_changes how big it is.
3. Give me one line per pull request, in the order to review them (blocking, small or old first), saying why.`,
  },
];

/** The prompts whose tools are all among `exposed`. */
export function offeredPrompts(exposed: ReadonlySet<string>): PromptSpec[] {
  return PROMPTS.filter((prompt) => prompt.tools.every((tool) => exposed.has(tool)));
}

/**
 * A prompt as `prompts/list` shows it; with `oneRepo` (the server is confined
 * to one repository, which fills them in) without `project` and `repo`, as
 * the tools' schemas are.
 */
export function listedPrompt(prompt: PromptSpec, oneRepo = false): Prompt {
  const { name, title, description } = prompt;
  if (!prompt.aboutPullRequest) return { name, title, description };
  const args = oneRepo
    ? PR_ARGUMENT_LIST.filter((arg) => arg.name !== "project" && arg.name !== "repo")
    : PR_ARGUMENT_LIST;
  return { name, title, description, arguments: args };
}

/** A prompt's answer: its plan, then the pull request as a resource link. */
export function promptResult(prompt: PromptSpec, pr: PrArgs | undefined): GetPromptResult {
  const text = { role: "user" as const, content: { type: "text" as const, text: prompt.plan(pr) } };
  if (pr === undefined) return { description: prompt.description, messages: [text] };
  const target = {
    kind: "pull_request" as const,
    project: pr.project,
    repo: pr.repo,
    prId: pr.pr_id,
  };
  const link = {
    type: "resource_link" as const,
    uri: resourceUri(target),
    name: `${pr.project}/${pr.repo}#${pr.pr_id}`,
    title: `Pull request ${named(pr)}`,
    mimeType: templateOf("pull_request").mimeType,
  };
  return { description: prompt.description, messages: [text, { role: "user", content: link }] };
}
