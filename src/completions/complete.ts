/**
 * `completion/complete` for every argument a prompt or resource template
 * takes: project keys, repository slugs (given the project), open pull
 * requests (by id, found by id or title), refs, file paths at a ref, and
 * commits. Context arguments are checked with the tools' rules; one missing
 * or invalid, or a typed value past its limit, completes to nothing without
 * asking Bitbucket. What Bitbucket answered is kept per caller for 30 s
 * ({@link AnswerCache}), so typing filters one answer instead of asking again.
 */
import {
  type CompleteRequest,
  type CompleteResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "../deps/mcp.ts";
import type { z } from "../deps/zod.ts";
import type { BitbucketClient } from "../bitbucket/transport/client.ts";
import { BitbucketError } from "../bitbucket/transport/errors.ts";
import { realId } from "../bitbucket/text/visible_id.ts";
import {
  filePathArg,
  MAX_PATH,
  MAX_REF,
  MAX_SEGMENT,
  refArg,
  segmentArg,
} from "../tools/kit/args.ts";
import type { ClientSource } from "../policy/registration.ts";
import { TEMPLATES, type TemplateSpec } from "../resources/templates.ts";
import { AnswerCache, callerKey } from "./cache.ts";
import {
  type Answer,
  type Candidate,
  commitCandidates,
  pathCandidates,
  projectCandidates,
  pullRequestCandidates,
  refCandidates,
  repoCandidates,
} from "./sources.ts";

/** What an argument names, and so where its values come from. */
export type CompletionKind = "project" | "repo" | "pull_request" | "ref" | "path" | "commit";

/** The most values one answer carries (the protocol's limit). */
export const MAX_VALUES = 100;

/** What each variable of the template `uriTemplate` names, when it is among `templates`. */
function templateKinds(
  uriTemplate: string,
  templates: readonly TemplateSpec[],
): Record<string, CompletionKind> | undefined {
  const template = templates.find((t) => t.uriTemplate === uriTemplate);
  if (template === undefined) return undefined;
  const id: CompletionKind = template.name === "commit" ? "commit" : "pull_request";
  return { project: "project", repo: "repo", id, path: "path", at: "ref" };
}

/** How one argument is completed: where its values are cached, how they are asked for, how they match. */
interface Plan {
  /** Cache keys, the exact one first, then broader ones whose complete answers also serve. */
  keys: string[];
  ask: (bitbucket: BitbucketClient) => Promise<Answer>;
  /** 2 for a value that starts with what was typed, 1 for another match, 0 for none. */
  rank: (candidate: Candidate, typed: string) => number;
}

/** The candidate's value starting with `typed` (any case), else its text containing it. */
function byValueOrText({ value, text }: Candidate, typed: string): number {
  const t = typed.toLowerCase();
  if (value.toLowerCase().startsWith(t)) return 2;
  return text?.toLowerCase().includes(t) ? 1 : 0;
}

/** A ref name starting with, else containing, `typed` (any case), as Bitbucket's filter matches. */
function byName({ value }: Candidate, typed: string): number {
  const v = value.toLowerCase();
  const t = typed.toLowerCase();
  return v.startsWith(t) ? 2 : v.includes(t) ? 1 : 0;
}

/** `value` when it passes `schema`, else undefined. */
function valid<S extends z.ZodType>(schema: S, value: string | undefined): z.infer<S> | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

const SEGMENT = segmentArg();
const REF = refArg();
const DIRECTORY = filePathArg();

/** The longest typed value worth completing, by kind: past it nothing can match. */
const LONGEST: Record<CompletionKind, number> = {
  project: MAX_SEGMENT,
  repo: MAX_SEGMENT,
  pull_request: MAX_SEGMENT,
  ref: MAX_REF,
  path: MAX_PATH,
  commit: 64,
};

/** A cache key naming a listing by its parts, unambiguously whatever they hold. */
function key(...parts: (string | undefined)[]): string {
  return JSON.stringify(parts);
}

/** The plan for completing `typed` as a `kind` in `context`; undefined when context is lacking. */
function planFor(
  kind: CompletionKind,
  typed: string,
  context: Record<string, string>,
): Plan | undefined {
  if (typed.length > LONGEST[kind]) return undefined;
  if (kind === "project") {
    return { keys: [key("projects")], ask: projectCandidates, rank: byValueOrText };
  }
  const project = valid(SEGMENT, context.project);
  if (project === undefined) return undefined;
  if (kind === "repo") {
    return {
      keys: [key("repos", project)],
      ask: (b) => repoCandidates(b, project),
      rank: byValueOrText,
    };
  }
  const repo = valid(SEGMENT, context.repo);
  if (repo === undefined) return undefined;
  switch (kind) {
    case "pull_request":
      return {
        keys: [key("pull_requests", project, repo)],
        ask: (b) => pullRequestCandidates(b, project, repo),
        rank: byValueOrText,
      };
    case "commit":
      return {
        keys: [key("commits", project, repo)],
        ask: (b) => commitCandidates(b, project, repo),
        rank: byValueOrText,
      };
    case "ref": {
      // Bitbucket filters refs by the typed text; a complete answer for a shorter text serves too.
      const keys = [];
      for (let n = typed.length; n >= 0; n--) {
        keys.push(key("refs", project, repo, typed.slice(0, n)));
      }
      return {
        keys,
        ask: (b) => refCandidates(b, project, repo, realId(typed)),
        rank: byName,
      };
    }
    case "path": {
      const at = valid(REF, context.at);
      if (context.at !== undefined && at === undefined) return undefined;
      const cut = typed.lastIndexOf("/");
      const typedDir = cut < 0 ? "" : typed.slice(0, cut);
      // The directory typed so far, as its real bytes (typed as results show it).
      const dir = typedDir === "" ? "" : valid(DIRECTORY, typedDir);
      if (dir === undefined) return undefined;
      // The files under the directory typed so far; a complete listing of a parent serves too.
      const dirs = dir === ""
        ? [""]
        : dir.split("/").map((_, i, all) => all.slice(0, all.length - i).join("/"));
      if (dir !== "") dirs.push("");
      return {
        keys: dirs.map((d) => key("files", project, repo, at, d)),
        ask: (b) => pathCandidates(b, project, repo, at, dir),
        rank: ({ value }, t) => value.startsWith(t) ? 2 : 0,
      };
    }
  }
}

/** Bitbucket's answer for `plan`, from the cache when one held there serves. */
async function answerFor(
  plan: Plan,
  caller: string,
  cache: AnswerCache,
  bitbucket: BitbucketClient,
): Promise<Answer> {
  const [exact, ...broader] = plan.keys.map((key) => `${caller}\n${key}`);
  for (const key of broader) {
    const held = await cache.peek<Answer>(key)?.catch(() => undefined);
    if (held?.complete) return held;
  }
  return await cache.through(exact!, () => plan.ask(bitbucket));
}

/** Nothing to offer. */
const NOTHING: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

/** The argument kinds of each prompt that takes arguments, by prompt name. */
export type PromptArguments = ReadonlyMap<string, Readonly<Record<string, CompletionKind>>>;

/**
 * The `completion/complete` handler: each call's Bitbucket client from
 * `clients`, prompt arguments as `prompts` names them, the variables of the
 * templates offered (`templates`), answers kept in `cache`.
 */
export function completionHandler(
  clients: ClientSource,
  prompts: PromptArguments,
  cache: AnswerCache = new AnswerCache(),
  templates: readonly TemplateSpec[] = TEMPLATES,
): (request: CompleteRequest, ctx: ServerContext) => Promise<CompleteResult> {
  return async ({ params }, ctx) => {
    const { ref, argument } = params;
    const kinds = ref.type === "ref/prompt"
      ? prompts.get(ref.name)
      : templateKinds(ref.uri, templates);
    if (kinds === undefined) {
      const what = ref.type === "ref/prompt"
        ? `prompt ${ref.name}`
        : `resource template ${ref.uri}`;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot complete ${argument.name}: no ${what} (hint: prompts/list and resources/templates/list name what can be completed)`,
      );
    }
    const kind = Object.hasOwn(kinds, argument.name) ? kinds[argument.name] : undefined;
    const plan = kind && planFor(kind, argument.value, params.context?.arguments ?? {});
    if (plan === undefined) return NOTHING;
    const client = clients(ctx);
    let answer: Answer;
    try {
      // Keyed by the caller's own client (one object per stdio server), asked through
      // one bound to this request's signal.
      const caller = await callerKey(ctx, client);
      answer = await answerFor(plan, caller, cache, client.withSignal(ctx.mcpReq.signal));
    } catch (error) {
      // Nothing to complete in a project, repository or ref that is not there (or not yours).
      const absent = error instanceof BitbucketError &&
        (error.kind === "not_found" || error.kind === "forbidden" || error.kind === "bad_request");
      if (absent) return NOTHING;
      throw error;
    }
    const ranked = answer.candidates
      .map((candidate) => ({ value: candidate.value, rank: plan.rank(candidate, argument.value) }))
      .filter((c) => c.rank > 0);
    const values = [
      ...new Set([...ranked.filter((c) => c.rank === 2), ...ranked.filter((c) => c.rank === 1)]
        .map((c) => c.value)),
    ];
    const hasMore = values.length > MAX_VALUES || !answer.complete;
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        ...(answer.complete ? { total: values.length } : {}),
        hasMore,
      },
    };
  };
}
