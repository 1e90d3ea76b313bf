/**
 * One HTTP server, a catalogue per client: a request may narrow the tools it
 * is served with the `X-MCP-Toolsets`, `X-MCP-Tools` and `X-MCP-Readonly`
 * headers, or with the paths `/mcp/x/{toolsets}`, `/mcp/x/{toolsets}/readonly`
 * and `/mcp/readonly` (the forms github-mcp-server's remote server takes).
 * A request only ever narrows: it selects from the tools the server's own
 * flags and policy file expose, under its confinement, with the rule the
 * command line selects by; what it names beyond them is left out, and said so
 * once in a log line. Its resources, prompts, completions and instructions
 * follow its tools, and a call of a tool outside them is answered as for a
 * tool the server does not have. Each narrowed catalogue is made once and
 * kept (a few dozen at most), so a request costs a lookup.
 */
import type { ToolEntry } from "../tools/kit/define.ts";
import { type Selectable, selectTools, SET_KEYWORDS } from "../policy/selection.ts";

/** The headers a request narrows its catalogue with, as sent (any case). */
export const NARROWING_HEADERS = {
  toolsets: "X-MCP-Toolsets",
  tools: "X-MCP-Tools",
  readOnly: "X-MCP-Readonly",
} as const;

/** What a request asks of its catalogue: toolsets and tools (the `--tools` rule), read-only. */
export interface Ask {
  toolsets?: string[];
  tools?: string[];
  readOnly: boolean;
}

/** Where a request asked: the path's form and the headers', each applied in turn. */
export interface Asked {
  /** The path's narrowing (`/mcp/x/{toolsets}`, `/readonly`); empty for the MCP path itself. */
  readonly path: Ask;
  /** The headers' narrowing, when any is sent. */
  readonly headers?: Ask;
}

/** A header's comma-separated names, trimmed, empty ones dropped. */
function names(value: string): string[] {
  return value.split(",").map((n) => n.trim()).filter((n) => n.length > 0);
}

/** `X-MCP-Readonly` as github-mcp-server reads it: empty, false, f, no, n, 0 or off is false. */
function readOnlyValue(value: string): boolean {
  return !["", "false", "f", "no", "n", "0", "off"].includes(value.trim().toLowerCase());
}

/**
 * The narrowing the path asks for, when it is one of the MCP endpoint's
 * forms under `base` (`/mcp`); undefined for any other path.
 */
export function pathAsk(pathname: string, base: string): Ask | undefined {
  if (pathname === base) return { readOnly: false };
  if (pathname === `${base}/readonly`) return { readOnly: true };
  const match = new RegExp(`^${base}/x/([^/]+)(/readonly)?$`).exec(pathname);
  if (!match) return undefined;
  let sets: string;
  try {
    sets = decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
  return { toolsets: names(sets), readOnly: match[2] !== undefined };
}

/** The headers' narrowing, undefined when the request sends none of them. */
function headerAsk(headers: Headers): Ask | undefined {
  const toolsets = headers.get(NARROWING_HEADERS.toolsets);
  const tools = headers.get(NARROWING_HEADERS.tools);
  const readOnly = headers.get(NARROWING_HEADERS.readOnly);
  if (toolsets === null && tools === null && readOnly === null) return undefined;
  return {
    // An empty list asks for nothing in particular, as the header left out.
    ...(toolsets !== null && names(toolsets).length > 0 ? { toolsets: names(toolsets) } : {}),
    ...(tools !== null && names(tools).length > 0 ? { tools: names(tools) } : {}),
    readOnly: readOnly !== null && readOnlyValue(readOnly),
  };
}

/** `tools` narrowed by `ask`, by the command line's rule. */
function narrowed<T extends Selectable>(tools: readonly T[], ask: Ask): T[] {
  return selectTools(tools, { readOnly: ask.readOnly, toolsets: ask.toolsets, tools: ask.tools });
}

/** What a request is served: its tools' registrations and everything beside them. */
export interface ServedCatalogue<R> {
  /** The tools it exposes. */
  readonly tools: readonly ToolEntry[];
  /** What the server instance is made of for it (registrations, features, instructions). */
  readonly made: R;
}

/** Options for {@link ConnectionCatalogues}. */
export interface ConnectionCatalogueOptions<R> {
  /** The tools the server's own flags and policy file expose: no request is served more. */
  readonly tools: readonly ToolEntry[];
  /**
   * Every tool of the catalogue, served or not: a request naming a toolset or
   * tool outside it is refused (400); one naming what the server does not
   * serve is narrowed, with a log line. Absent: every name is taken as known.
   */
  readonly catalogue?: readonly Selectable[];
  /** Makes what a server instance holds for these tools (once per distinct set). */
  readonly build: (tools: readonly ToolEntry[]) => R;
  /** Told, once per distinct request, what it asked for that the server does not serve. */
  readonly notice?: (message: string) => void;
}

/** How many narrowed catalogues are kept; past it the oldest is made again when next asked. */
const KEPT = 32;
/** How many distinct requests' narrowing notices are remembered, so each is logged once. */
const NOTED = 256;

/** The catalogues of one HTTP server: its whole one, and each narrowing a request asks for. */
export class ConnectionCatalogues<R> {
  /** What a request that narrows nothing is served. */
  readonly whole: ServedCatalogue<R>;
  readonly #options: ConnectionCatalogueOptions<R>;
  readonly #kept = new Map<string, ServedCatalogue<R>>();
  readonly #noted = new Set<string>();
  /** The toolset names (with `default` and `all`) and tool names a request may use, when known. */
  readonly #known?: { sets: ReadonlySet<string>; tools: ReadonlySet<string> };

  constructor(options: ConnectionCatalogueOptions<R>) {
    this.#options = options;
    this.whole = { tools: options.tools, made: options.build(options.tools) };
    const { catalogue } = options;
    if (catalogue) {
      this.#known = {
        sets: new Set([...catalogue.map((t) => t.toolset), ...SET_KEYWORDS]),
        tools: new Set(catalogue.map((t) => t.name)),
      };
    }
  }

  /**
   * The catalogue a request is served, given its path's narrowing (from
   * {@link pathAsk}) and its headers; a 400 answer when it names a toolset or
   * tool the catalogue does not have.
   */
  of(path: Ask, headers: Headers): ServedCatalogue<R> | Response {
    const asked: Asked = { path, headers: headerAsk(headers) };
    const plain = !path.readOnly && path.toolsets === undefined && asked.headers === undefined;
    if (plain) return this.whole;
    const unknown = this.#unknown(asked);
    if (unknown) return unknown;
    let tools = this.#options.tools;
    for (const ask of [asked.path, asked.headers]) if (ask) tools = narrowed(tools, ask);
    this.#notice(asked, tools);
    if (tools.length === this.whole.tools.length) return this.whole;
    const key = tools.map((t) => t.name).join(",");
    let served = this.#kept.get(key);
    if (served === undefined) {
      served = { tools, made: this.#options.build(tools) };
      if (this.#kept.size >= KEPT) this.#kept.delete(this.#kept.keys().next().value!);
      this.#kept.set(key, served);
    }
    return served;
  }

  /** The 400 for a toolset or tool name the catalogue does not know, if the request sends one. */
  #unknown(asked: Asked): Response | undefined {
    if (!this.#known) return undefined;
    const { sets, tools } = this.#known;
    const asks = [asked.path, asked.headers].filter((a) => a !== undefined);
    const badSets = asks.flatMap((a) => a.toolsets ?? []).filter((s) => !sets.has(s));
    const badTools = asks.flatMap((a) => a.tools ?? []).filter((t) => !tools.has(t));
    if (badSets.length === 0 && badTools.length === 0) return undefined;
    const problem = badSets.length > 0
      ? `unknown toolset ${badSets.join(", ")} (hint: the toolsets are ${[...sets].join(", ")})`
      : `unknown tool ${badTools.join(", ")} (hint: tools/list names the tools)`;
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: `Cannot narrow the catalogue: ${problem}` },
        id: null,
      },
      { status: 400 },
    );
  }

  /** Logs, once per distinct request, the tools it asked for that the server does not serve. */
  #notice(asked: Asked, served: readonly ToolEntry[]): void {
    const { catalogue, notice } = this.#options;
    if (!catalogue || !notice) return;
    // Only what names toolsets or tools can ask for more; read-only alone narrows.
    const naming = [asked.path, asked.headers].some((a) => a?.toolsets || a?.tools);
    const key = JSON.stringify(asked);
    if (!naming || this.#noted.has(key)) return;
    let wanted: readonly Selectable[] = catalogue;
    for (const ask of [asked.path, asked.headers]) if (ask) wanted = narrowed(wanted, ask);
    const have = new Set(served.map((t) => t.name));
    const missing = wanted.filter((t) => !have.has(t.name)).map((t) => t.name);
    if (missing.length === 0) return;
    if (this.#noted.size >= NOTED) this.#noted.clear();
    this.#noted.add(key);
    notice(
      `a request asked for ${describe(asked)}; this server does not serve ${missing.length} of ${
        missing.length === 1 ? "its tools" : "those tools"
      } (${
        missing.join(", ")
      }: its flags and policy file leave them out), so it is served the rest`,
    );
  }
}

/** What a request asked for, in words: its path's form and its headers. */
function describe(asked: Asked): string {
  const parts: string[] = [];
  const { path, headers } = asked;
  if (path.toolsets) parts.push(`the path's toolsets ${path.toolsets.join(",")}`);
  if (path.readOnly) parts.push("the path's readonly");
  if (headers?.toolsets) parts.push(`${NARROWING_HEADERS.toolsets}: ${headers.toolsets.join(",")}`);
  if (headers?.tools) parts.push(`${NARROWING_HEADERS.tools}: ${headers.tools.join(",")}`);
  if (headers?.readOnly) parts.push(`${NARROWING_HEADERS.readOnly}: true`);
  return parts.join(" and ");
}
