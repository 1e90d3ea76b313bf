/**
 * The caller's pull request suggestions: branches they pushed to lately and
 * might open a pull request from, newest first, as the dashboard offers them.
 */
import { z } from "../../deps/zod.ts";
import { PullRequestSuggestion } from "../../bitbucket/entities/pull_request_suggestion.ts";
import { pageOf } from "../../bitbucket/transport/paging.ts";
import { DateOut, defineTool, inRepository, isoDate, PagingArgs, READ_ONLY } from "../kit/mod.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** One suggestion: the pushed ref, its repository and when it changed. */
const SuggestionOut = z.object({
  ref: z.object({ id: z.string(), displayId: z.string().optional() }),
  repository: z.string().describe("PROJECT/slug"),
  changedDate: DateOut.optional().describe("When the ref was pushed"),
  latestCommit: z.string().optional(),
});

type Suggestion = z.infer<typeof PullRequestSuggestion>;

function suggestionOut(s: Suggestion): z.infer<typeof SuggestionOut> {
  const ref = s.refChange.ref ?? s.fromRef;
  return {
    ref: {
      id: visibleId(ref?.id ?? s.refChange.refId ?? ""),
      displayId: visibleId(ref?.displayId),
    },
    repository: visibleId(`${s.repository.project.key}/${s.repository.slug}`),
    changedDate: isoDate(s.changeTime ?? s.changeTme),
    latestCommit: s.refChange.toHash,
  };
}

export const listPullRequestSuggestions = defineTool({
  name: "list_pull_request_suggestions",
  reach: "server",
  confine: { item: (s: Suggestion) => inRepository(s.repository), wide: true },
  title: "List pull request suggestions",
  description: "Branches you pushed lately that have no pull request yet, newest first.",
  access: READ_ONLY,
  input: z.object({
    changes_since: z.number().int().min(1).optional().describe(
      "Only pushes this many seconds ago or later",
    ),
    limit: PagingArgs.shape.limit,
  }),
  output: z.object({ suggestions: z.array(SuggestionOut) }),
  async handler({ changes_since, limit }, { bitbucket, inside }) {
    // A page in shape, but the resource takes no start: `limit` is all it pages by.
    const { body } = await bitbucket.request({
      path: "/api/latest/dashboard/pull-request-suggestions",
      schema: pageOf(PullRequestSuggestion),
      query: { changesSince: changes_since, limit },
    });
    return { suggestions: inside(body.values.slice(0, limit)).map(suggestionOut) };
  },
});
