/** The dashboard's pull request suggestions: recent pushes the caller might open a pull request for. */
import { z } from "../../deps/zod.ts";
import { MinimalRef } from "./ref.ts";
import { Repository } from "./repository.ts";

/**
 * One suggestion (RestPullRequestSuggestion): the push (`refChange`) that
 * prompted it and when it happened. Servers send `changeTime` (milliseconds);
 * the 9.4 spec spells it `changeTme`: both are read.
 */
export const PullRequestSuggestion = z.object({
  changeTime: z.number().int().optional(),
  changeTme: z.number().int().optional(),
  refChange: z.object({
    ref: MinimalRef.optional(),
    refId: z.string().optional(),
    fromHash: z.string().optional(),
    toHash: z.string().optional(),
    type: z.string().optional(), // ADD, DELETE or UPDATE
  }),
  fromRef: MinimalRef.optional(),
  toRef: MinimalRef.optional(),
  repository: Repository,
});
