/**
 * What a server offers besides tools: resource templates and the caller's
 * pull requests as resources, prompts for the common jobs, and completions
 * for every argument they take. Made once per process, like the tools'
 * registrations; every server instance then gets the same handlers. Each
 * request takes its Bitbucket client from the same {@link ClientSource} as a
 * tool call, so the same client rules apply. The code that reads Bitbucket
 * loads on first use, so starting and listing cost nothing more.
 *
 * Resources are served by handlers of their own rather than the SDK's
 * template matching, which reads a URI through `URL` (resolving `..` and
 * `%2E%2E` silently); completions likewise, since the SDK's completion
 * callbacks get no request context and so no caller.
 */
import type { McpServer, McpServerOptions, ServerContext } from "../deps/mcp.ts";
import type { ClientSource } from "../policy/registration.ts";
import { AnswerCache } from "../completions/cache.ts";
import type { CompletionKind } from "../completions/complete.ts";
import { ProtocolError, ProtocolErrorCode } from "../deps/mcp.ts";
import {
  listedPrompt,
  offeredPrompts,
  PR_PROMPT_ARGUMENTS,
  promptResult,
} from "../prompts/prompts.ts";
import { offeredTemplates, type ResourceKind, templateOf } from "../resources/templates.ts";
import type { Confinement } from "../policy/confinement.ts";
import { VIEW_TOOL, VIEW_URI } from "../tools/kit/apps.ts";

/** The keys a confinement fills in or refuses in resources, prompts and completions. */
const TARGET = new Set(["project", "repo"]);

/** The -32602 error for a request reaching outside the confinement. */
function outside(what: string, refused: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot ${what}: ${refused}`);
}

/** `args` within `confinement` (filled in, or a -32602 error naming what is allowed). */
function confinedArgs(
  confinement: Confinement | undefined,
  what: string,
  args: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!confinement) return args;
  const result = confinement.bound(args ?? {}, TARGET);
  if ("refused" in result) throw outside(what, result.refused);
  return result.args;
}

/** The -32602 error for a resource whose template this server does not offer. */
function notOffered(uri: string, kind: ResourceKind): ProtocolError {
  const { readAs } = templateOf(kind);
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Cannot read ${uri}: this server offers no ${kind} resources, as it does not expose ${readAs} (hint: resources/templates/list names the templates it offers)`,
  );
}

/** Everything a server instance gets besides its tools. */
export interface Features {
  /** Declares the capabilities (lists never change) and adds the handlers to `server`. */
  addTo(server: McpServer): void;
}

/** How long a list that never changes while the server runs may be cached (2026-07-28 hints). */
const STATIC_TTL_MS = 3_600_000;
/** How long a read or the pull request list may be cached: Bitbucket's data moves. */
const LIVE_TTL_MS = 30_000;

/**
 * The cache hints of what {@link Features} serves: private (an answer is one
 * caller's), static lists for an hour, Bitbucket's data for 30 s.
 */
export const CACHE_HINTS: NonNullable<McpServerOptions["cacheHints"]> = {
  "resources/templates/list": { ttlMs: STATIC_TTL_MS, cacheScope: "private" },
  "prompts/list": { ttlMs: STATIC_TTL_MS, cacheScope: "private" },
  "resources/list": { ttlMs: LIVE_TTL_MS, cacheScope: "private" },
  "resources/read": { ttlMs: LIVE_TTL_MS, cacheScope: "private" },
};

/** A module loaded once, on first use. */
function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => loaded ??= load();
}

const parsing = lazy(() => import("../resources/uri.ts"));
const reading = lazy(() => import("../resources/read.ts"));
const checking = lazy(() => import("../prompts/arguments.ts"));
const listing = lazy(() => import("../resources/list.ts"));
const completing = lazy(() => import("../completions/complete.ts"));
const viewPage = lazy(() => import("../resources/view_page.ts"));

/**
 * The features of a server whose calls take their client from `clients` and
 * which exposes the tools named `exposed`: a prompt is offered only when the
 * tools its plan names are, a resource template (and so its reads, its
 * completions, and for pull requests `resources/list`) only when the tool it
 * reads as is.
 */
export function serverFeatures(
  clients: ClientSource,
  exposed: Iterable<string>,
  confinement?: Confinement,
): Features {
  /** The request's Bitbucket client, its every request cancelled with the request. */
  const bitbucketFor = (ctx: ServerContext) => clients(ctx).withSignal(ctx.mcpReq.signal);
  const names = new Set(exposed);
  const prompts = offeredPrompts(names);
  const offered = offeredTemplates(names);
  const kinds = new Set(offered.map((t) => t.name));
  // The page is served wherever the view tool is registered; it holds no Bitbucket data.
  const servesView = names.has(VIEW_TOOL);
  const promptArguments = new Map<string, Record<string, CompletionKind>>(
    prompts.filter((p) => p.aboutPullRequest).map((p) => [p.name, PR_PROMPT_ARGUMENTS]),
  );
  // One cache per process: keyed by caller inside, shared by every server instance.
  const cache = new AnswerCache();
  const complete = lazy(async () => {
    const handler = (await completing()).completionHandler(
      clients,
      promptArguments,
      cache,
      offered,
    );
    return confinement ? confinedCompletions(handler, confinement) : handler;
  });
  const oneRepo = confinement?.oneRepo !== undefined;
  const listedPrompts = { prompts: prompts.map((p) => listedPrompt(p, oneRepo)) };
  const templates = {
    resourceTemplates: offered.map(({ name, title, uriTemplate, description, mimeType }) => ({
      name,
      title,
      uriTemplate,
      description,
      mimeType,
    })),
  };
  return {
    addTo(server) {
      const low = server.server;
      const resources = offered.length > 0 || servesView;
      const completes = offered.length > 0 || prompts.length > 0;
      low.registerCapabilities({
        ...(resources ? { resources: { listChanged: false } } : {}),
        ...(completes ? { completions: {} } : {}),
        ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
      });
      if (resources) {
        low.setRequestHandler("resources/templates/list", () => templates);
        low.setRequestHandler("resources/list", async (_request, ctx) => {
          // The caller's pull requests, where pull request resources are offered.
          if (!kinds.has("pull_request")) return { resources: [] };
          const { listPullRequestResources } = await listing();
          const listed = await listPullRequestResources(bitbucketFor(ctx));
          if (!confinement) return listed;
          const { parseResourceUri } = await parsing();
          const resources = listed.resources.filter((resource) => {
            const target = parseResourceUri(resource.uri);
            return confinement.allowsRepo(target.project, target.repo);
          });
          return { resources };
        });
        low.setRequestHandler("resources/read", async ({ params }, ctx) => {
          if (servesView && params.uri === VIEW_URI) return (await viewPage()).readViewPage();
          // Parsed before anything else: a bad URI never reaches Bitbucket.
          const target = (await parsing()).parseResourceUri(params.uri);
          if (!kinds.has(target.kind)) throw notOffered(params.uri, target.kind);
          confinedArgs(confinement, `read ${params.uri}`, {
            project: target.project,
            repo: target.repo,
          });
          const { readResource } = await reading();
          return await readResource(params.uri, target, bitbucketFor(ctx));
        });
      }
      if (completes) {
        low.setRequestHandler("completion/complete", async (request, ctx) => {
          return await (await complete())(request, ctx);
        });
      }
      if (prompts.length === 0) return;
      // Served by handlers of their own, like resources, so that listing them
      // builds no argument schema: the arguments are checked when a prompt is got.
      low.setRequestHandler("prompts/list", () => listedPrompts);
      low.setRequestHandler("prompts/get", async ({ params }) => {
        const prompt = prompts.find((p) => p.name === params.name);
        if (!prompt) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Prompt ${params.name} not found: prompts/list names the prompts offered`,
          );
        }
        if (!prompt.aboutPullRequest) return promptResult(prompt, undefined);
        const args = confinedArgs(confinement, `get prompt ${prompt.name}`, params.arguments);
        const pr = (await checking()).prPromptArguments(prompt.name, args);
        return promptResult(prompt, pr);
      });
    },
  };
}

type CompletionHandler = ReturnType<typeof import("../completions/complete.ts").completionHandler>;

/**
 * `handler` under `confinement`: the context's project/repo filled in where
 * one is allowed; project and repository candidates limited to those allowed;
 * nothing offered inside a project or repository outside it.
 */
function confinedCompletions(handler: CompletionHandler, c: Confinement): CompletionHandler {
  const nothing = { completion: { values: [], total: 0, hasMore: false } };
  return async (request, ctx) => {
    const { argument } = request.params;
    const given = request.params.context?.arguments ?? {};
    const filled = c.bound(given, TARGET, "wide");
    const context = "refused" in filled ? given : filled.args as Record<string, string>;
    const ask = { ...request, params: { ...request.params, context: { arguments: context } } };
    const project = context.project;
    let keep: (value: string) => boolean;
    if (argument.name === "project") keep = (value) => c.touchesProject(value);
    else if (argument.name === "repo") {
      if (project === undefined || !c.touchesProject(project)) return nothing;
      keep = (value) => c.allowsRepo(project, value);
    } else {
      if ("refused" in c.bound(context, TARGET)) return nothing;
      return await handler(ask, ctx);
    }
    const answer = await handler(ask, ctx);
    const values = answer.completion.values.filter(keep);
    const { total: _total, ...rest } = answer.completion;
    return {
      ...answer,
      completion: {
        ...rest,
        values,
        ...(answer.completion.total !== undefined && !answer.completion.hasMore
          ? { total: values.length }
          : {}),
      },
    };
  };
}
