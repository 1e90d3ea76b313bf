/**
 * What Bitbucket's Jira integration (`/rest/jira/latest`) sends: the issues
 * linked to a pull request's commits, and the commits linked to an issue.
 * Only a server with the integration installed and linked to Jira has these.
 */
import { z } from "../../deps/zod.ts";
import { Commit, MinimalCommit } from "./commit.ts";
import { Repository } from "./repository.ts";

/** A Jira issue by key (RestJiraIssue); `url` is its page in Jira. */
export const JiraIssue = z.object({
  key: z.string(),
  url: z.string().optional(),
});

/** A commit linked to an issue, with the repository it is in (RestChangeset). */
export const Changeset = z.object({
  fromCommit: MinimalCommit.optional(),
  toCommit: Commit,
  repository: Repository,
});
