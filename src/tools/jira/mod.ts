/**
 * The `jira` toolset: Jira issues linked to pull requests and commits. Its tools, in
 * `tools/list` order; listing a tool here puts it in this toolset.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import { listJiraIssueCommits, listPrJiraIssues } from "./jira.ts";

/** The `jira` toolset. */
export const JIRA: Toolset = defineToolset({
  name: "jira",
  description: "Jira issues linked to pull requests and commits",
  tools: [listPrJiraIssues, listJiraIssueCommits],
});
