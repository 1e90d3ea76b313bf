/**
 * The `jira` toolset: Jira issues linked to pull requests and commits. Its tools, in
 * `tools/list` order; each names this toolset where it is declared.
 */
import { defineToolset, type Toolset } from "../kit/toolset.ts";
import { listJiraIssueCommits, listPrJiraIssues } from "./jira.ts";

/** The `jira` toolset. */
export const JIRA: Toolset = defineToolset({
  name: "jira",
  description: "Jira issues linked to pull requests and commits",
  tools: [listPrJiraIssues, listJiraIssueCommits],
});
