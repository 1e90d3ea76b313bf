/** Code search through Bitbucket's search server, its hits as plain text. */
import { z } from "../../deps/zod.ts";
import { type CodeHit, SearchAnswer } from "../../bitbucket/entities/search.ts";
import { BitbucketError, rethrowDuring } from "../../bitbucket/transport/errors.ts";
import { cleanCodeLine } from "../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";
import {
  defineTool,
  inRepository,
  MAX_SEGMENT,
  nameArg,
  pagedOutput,
  PagingArgs,
  READ_ONLY,
} from "../kit/mod.ts";

/** The most files one search returns: Bitbucket's search pages are small. */
export const MAX_SEARCH_RESULTS = 100;
/** The most matching lines returned per file; `hitCount` tells how many there are. */
export const MAX_LINES_PER_FILE = 20;

/**
 * Answers meaning this Bitbucket offers no code search: the endpoint missing
 * (404, 405, 501) or search switched off or without its search server (503).
 */
const UNAVAILABLE = new Set([404, 405, 501, 503]);
const NO_SEARCH_HINT =
  "this Bitbucket has no code search (it needs its bundled search server running and code search enabled); find files with list_files and read them with get_file_content";

/**
 * A project key or repository slug placed in the search query, where a space
 * or a colon would add search terms of its own, so only the characters keys
 * and slugs are made of are accepted.
 */
function scopeArg(description?: string) {
  const arg = z.string().min(1).max(MAX_SEGMENT).regex(/^[~\w.-]+$/, {
    message: "must be a project key or repository slug: letters, digits and ~ _ . - only",
  });
  return description === undefined ? arg : arg.describe(description);
}

/** A matching line: its number and text, highlighting and HTML escapes removed. */
const LineOut = z.object({ line: z.number().int(), text: z.string() });

/** One file with matches. */
const ResultOut = z.object({
  repository: z.string().describe("PROJECT/repo"),
  path: z.string(),
  hitCount: z.number().int().optional().describe("Matches in the file"),
  lines: z.array(LineOut).describe(`Matching lines, at most ${MAX_LINES_PER_FILE}`),
});

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Search hit text as plain text: `<em>` highlighting removed, then HTML escapes decoded. */
export function plainHitText(text: string): string {
  return text.replace(/<\/?em>/g, "").replace(
    /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g,
    (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (name !== undefined) return ENTITIES[name]!;
      const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  );
}

export const searchCode = defineTool({
  name: "search_code",
  defaultFor: "code",
  reach: "server",
  confine: { item: (hit: z.infer<typeof CodeHit>) => inRepository(hit.repository), query: "query" },
  title: "Search code",
  description: "Search code on default branches (Bitbucket syntax): files and matching lines.",
  access: READ_ONLY,
  input: z.object({
    query: nameArg(),
    project: scopeArg().optional(),
    repo: scopeArg("Needs project").optional(),
    limit: z.number().int().min(1).max(MAX_SEARCH_RESULTS).default(25),
    start: PagingArgs.shape.start,
  }).refine((args) => args.repo === undefined || args.project !== undefined, {
    path: ["project"],
    message: "required with repo: a repository is searched within its project",
  }),
  output: pagedOutput("results", ResultOut).extend({
    count: z.number().int().optional().describe("Files matching in all"),
  }),
  async handler({ query, project, repo, limit, start = 0 }, { bitbucket, inside }) {
    // A project or repository filter is part of the query, in Bitbucket's search syntax.
    const scope = [project && `project:${project}`, repo && `repo:${repo}`].filter(Boolean);
    const action = `search code for ${JSON.stringify(query)}${
      project === undefined ? "" : ` in ${[project, repo].filter(Boolean).join("/")}`
    }`;
    const { body: answer } = await bitbucket.request({
      method: "POST",
      path: "/search/latest/search",
      schema: SearchAnswer,
      body: {
        query: [...scope, query].join(" "),
        entities: { code: { start, limit } },
        limits: { primary: limit, secondary: 10 },
      },
    }).catch((error) => {
      if (error instanceof BitbucketError && UNAVAILABLE.has(error.status ?? 0)) {
        throw error.during(action, NO_SEARCH_HINT);
      }
      return rethrowDuring(action)(error);
    });
    const code = answer.code;
    if (code === undefined) {
      throw new Error(
        `Cannot ${action}: Bitbucket's answer has no code results (hint: ${NO_SEARCH_HINT})`,
      );
    }
    const next = code.nextStart ?? undefined;
    const hits = inside(code.values);
    return {
      results: hits.map((hit) => ({
        repository: visibleId(`${hit.repository.project.key}/${hit.repository.slug}`),
        path: visibleId(hit.file),
        hitCount: hit.hitCount,
        lines: hit.hitContexts.flat()
          .filter((l) => l.text.includes("<em>"))
          .slice(0, MAX_LINES_PER_FILE)
          .map((l) => ({ line: l.line, text: cleanCodeLine(plainHitText(l.text)) })),
      })),
      // A total counted over what was dropped would tell of it: it goes too.
      count: hits.length === code.values.length ? code.count : undefined,
      isLastPage: code.isLastPage || next === undefined,
      nextPageStart: code.isLastPage ? undefined : next,
    };
  },
});
