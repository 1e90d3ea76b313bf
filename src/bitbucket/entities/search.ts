/** Code search answers, as Bitbucket's search server sends them. */
import { z } from "../../deps/zod.ts";

/** A line of a code search hit, its matches marked up with `<em>` and HTML-escaped. */
export const HitLine = z.object({ line: z.number().int(), text: z.string() });

/** One file a code search found (not in the 9.4 OpenAPI document; as servers send it). */
export const CodeHit = z.object({
  repository: z.object({ slug: z.string(), project: z.object({ key: z.string() }) }),
  file: z.string(), // Path from the repository root
  hitContexts: z.array(z.array(HitLine)).default([]), // Groups of lines around the hits
  pathMatches: z.array(z.object({ text: z.string(), match: z.boolean().optional() })).default([]),
  hitCount: z.number().int().optional(),
});

/**
 * The answer of `POST /rest/search/latest/search`: one section per entity
 * asked for. `code` is absent when the server searched no code.
 */
export const SearchAnswer = z.object({
  scope: z.object({ type: z.string() }).optional(), // GLOBAL, PROJECT or REPOSITORY
  code: z.object({
    category: z.string().optional(),
    isLastPage: z.boolean(),
    count: z.number().int().optional(), // Files matching in all
    start: z.number().int().optional(),
    nextStart: z.number().int().nullish(),
    values: z.array(CodeHit),
  }).optional(),
});
