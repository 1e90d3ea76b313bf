/**
 * Streamable HTTP mode: the same tools and gating as stdio, served statelessly
 * through the SDK's `createMcpHandler` on `Deno.serve`. The catalogue's
 * registrations are made once per process; the SDK wants a fresh server
 * instance per request (an instance keeps what a request negotiated), so each
 * request gets one holding only what it can reach, within the catalogue its
 * headers or path narrow it to (`connection_selection.ts`). Each call uses a
 * Bitbucket client made for its own request's token (the caller's
 * `Authorization: Bearer` token, else the server-wide one; with sign-in,
 * `oauth/`, only one Bitbucket vouches for), read from the request context
 * when the call runs: tokens live only as long as their request, are never
 * cached (sign-in keeps a hash) and are never logged.
 */
import {
  type AuthInfo,
  createMcpHandler,
  localhostAllowedHostnames,
  type McpRequestContext,
  validateHostHeader,
  validateOriginHeader,
} from "../deps/mcp.ts";
import type { Hints } from "../bitbucket/transport/advice.ts";
import { BitbucketClient } from "../bitbucket/transport/client.ts";
import { ServerFacts } from "../bitbucket/transport/server_version.ts";
import type { SharedConfig } from "../config.ts";
import type { ToolEntry } from "../tools/kit/define.ts";
import type { CallPolicy } from "../policy/call_policy.ts";
import { type ClientSource, registrations } from "../policy/registration.ts";
import type { Registration } from "../policy/sdk_registration.ts";
import { SERVER_NAME, VERSION } from "../version.ts";
import { oauthGateFor, type OAuthSettings, withScopes } from "./oauth/gate.ts";
import { instructionsFor, serverWith } from "./factory.ts";
import { ConnectionCatalogues, pathAsk } from "./connection_selection.ts";
import type { Selectable } from "../policy/selection.ts";
import { serverFeatures } from "./capabilities.ts";
import { readAhead } from "./read_ahead.ts";
import { formatHostPort, type ListenAddress } from "./listen_address.ts";
import {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  serveConnectionFunction,
  serveConnections,
} from "./connections.ts";
import { wholeIfQuick } from "./whole_answers.ts";
import { METRICS_PATH, metricsResponse, serveMetrics } from "./metrics_endpoint.ts";
import { rememberingApps, withAppsSession } from "./apps_session.ts";
import { isSessionId, opensSession, SESSION_HEADER, Sessions } from "./sessions.ts";
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from "./session_limits.ts";
import { ELICITATION_SINCE } from "../policy/confirmation.ts";
export { METRICS_PATH } from "./metrics_endpoint.ts";

/** The path MCP is served on. */
export const MCP_PATH = "/mcp";
/** The path of the health check, which never touches Bitbucket. */
export const HEALTH_PATH = "/healthz";

/** What the HTTP handler serves and whom it accepts. */
export interface HttpHandlerOptions {
  tools: readonly ToolEntry[];
  /** What the agent may do without asking (default: no unsafe writes unasked). */
  policy?: CallPolicy;
  /** The Bitbucket endpoint; its token, when set, serves requests that bring none. */
  config: SharedConfig;
  /** Host names accepted in Host and Origin headers besides localhost, 127.0.0.1 and [::1]. */
  allowHosts?: readonly string[];
  /** The address listened on; accepted in Host and Origin headers too unless it is a wildcard. */
  listenHostname?: string;
  /** Reports rejected requests and out-of-band errors (never with a token in them). */
  onerror?: (error: Error) => void;
  /** The `fetch` the Bitbucket clients use (a logging wrapper); the global one by default. */
  fetch?: typeof fetch;
  /** The words for the fixes Bitbucket errors suggest (the CLI's name its flags); neutral by default. */
  hints?: Hints;
  /** The fix appended to the refusal of a Host or Origin not allowed (the CLI names its flag). */
  hostHint?: string;
  /** Sign-in with Bitbucket (OAuth): only tokens Bitbucket vouches for are served. */
  oauth?: OAuthSettings;
  /** The policy's metrics have a listener of their own: the MCP port does not serve them. */
  metricsElsewhere?: boolean;
  /** Every tool of the catalogue, served or not: a request may narrow by these names only. */
  catalogue?: readonly Selectable[];
  /** Told what a request asked for beyond the tools served (`connection_selection.ts`). */
  onnarrow?: (message: string) => void;
  /** The bounds of the sessions kept for 2025-era clients that can be asked (`sessions.ts`). */
  sessions?: SessionLimits;
  /** Told when the session cap turns a client away and when idle sessions end. */
  onsession?: (message: string) => void;
}

/** A fetch-shaped handler for the whole HTTP surface, and a way to abort what it has in flight. */
export interface HttpHandler {
  /** Answers `request`; `body`, when given, is its body already read (the request's own is used up). */
  fetch(request: Request, body?: Uint8Array): Promise<Response>;
  close(): Promise<void>;
}

/** Options for {@link serveHttp}: the handler's, plus where to listen and each connection's limits. */
export interface ServeHttpOptions extends HttpHandlerOptions {
  address: ListenAddress;
  /** Deadlines and the connection cap (default {@link DEFAULT_CONNECTION_LIMITS}). */
  limits?: ConnectionLimits;
  /** Where the policy's metrics are served instead of the MCP port. */
  metricsAddress?: ListenAddress;
}

/** A running HTTP server. */
export interface HttpServer {
  /** The MCP endpoint, with the port actually bound. */
  url: URL;
  /** Resolves once the server has stopped. */
  finished: Promise<void>;
  /**
   * The connection limits in force; undefined on a runtime without Deno's
   * per-connection server, where `Deno.serve` serves without them.
   */
  limits: ConnectionLimits | undefined;
  /** The metrics URL when they have a listener of their own. */
  metricsUrl?: URL;
  /** Stops accepting requests, aborts open exchanges and waits for the server to stop. */
  shutdown(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** `clientId` of the request-scoped auth info when the token is the server-wide one. */
const SERVER_WIDE = "bitbucket-mcp:server-wide-token";
/** `clientId` of the request-scoped auth info when the caller brought the token. */
const CALLER = "bitbucket-mcp:caller-token";

/** The Host/Origin allow-list: the localhost names, the listen host when it is a real name, and `extra`. */
export function allowedHostnames(
  listenHostname: string | undefined,
  extra: readonly string[] = [],
): string[] {
  const names = new Set(localhostAllowedHostnames());
  if (listenHostname && listenHostname !== "0.0.0.0" && listenHostname !== "::") {
    names.add(listenHostname.includes(":") ? `[${listenHostname}]` : listenHostname);
  }
  for (const name of extra) names.add(name.toLowerCase());
  return [...names];
}

/** A JSON-RPC error body with an HTTP status, as the SDK's own rejections look. */
function rejection(status: number, message: string, headers: HeadersInit = {}): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
    { status, headers },
  );
}

/**
 * The token a request is served with: its own `Authorization: Bearer` token,
 * else the server-wide one; a Response when the request must be refused.
 */
function requestAuth(request: Request, serverToken: string | undefined): AuthInfo | Response {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) {
      return rejection(
        401,
        "Authorization must be 'Bearer <Bitbucket HTTP access token>'",
        { "WWW-Authenticate": 'Bearer realm="bitbucket-mcp"' },
      );
    }
    return { token: match[1]!, clientId: CALLER, scopes: [] };
  }
  if (serverToken) return { token: serverToken, clientId: SERVER_WIDE, scopes: [] };
  return rejection(
    401,
    "no Bitbucket token: send your HTTP access token as 'Authorization: Bearer <token>'",
    { "WWW-Authenticate": 'Bearer realm="bitbucket-mcp"' },
  );
}

/**
 * The one tool a message can reach: a `tools/call` reaches the tool it names
 * (null when no exposed tool has that name); anything else may need them all
 * (undefined).
 */
function reachedTool(
  body: unknown,
  byName: ReadonlyMap<string, Registration>,
): Registration | null | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method !== "tools/call") return undefined;
  const name = params?.name;
  return (typeof name === "string" && byName.get(name)) || null;
}

/**
 * Builds the HTTP handler: {@link HEALTH_PATH} answers at once; `/mcp` checks Host and
 * Origin (DNS-rebinding protection), picks the request's token, and hands the
 * request to the SDK, whose calls each take a Bitbucket client made for that
 * token. Everything else is 404.
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const { tools, config } = options;
  const metrics = options.policy?.metrics;
  const bitbucketFetch = metrics ? metrics.countingFetch(options.fetch ?? fetch) : options.fetch;
  const allowed = allowedHostnames(options.listenHostname, options.allowHosts);
  const gate = oauthGateFor(options, MCP_PATH);
  // Every caller's client talks to the one server: its version is read once for all of them.
  const serverFacts = new ServerFacts();
  // A client for the token of the request a call arrived in: made when the call runs, used by
  // that call alone, never kept.
  const clients: ClientSource = (ctx) => {
    const auth = ctx.http?.authInfo;
    if (!auth) throw new Error("Cannot call Bitbucket: the request carried no token");
    return new BitbucketClient({
      baseUrl: config.baseUrl,
      token: auth.token,
      // The username belongs to the server-wide token; a caller's token is always Bearer.
      username: auth.clientId === SERVER_WIDE ? config.username : undefined,
      timeoutMs: config.timeoutMs,
      maxResponseBytes: config.maxResponseBytes,
      clientCertificate: config.clientCertificate,
      fetch: gate ? gate.watching(auth.token, bitbucketFetch) : bitbucketFetch,
      hints: options.hints,
      onRetry: metrics?.retry,
      serverFacts,
    });
  };
  const confinement = options.policy?.confinement;
  // The whole catalogue, and each narrowing a request asks for (headers, path), made once each.
  const catalogues = new ConnectionCatalogues({
    tools,
    catalogue: options.catalogue,
    notice: options.onnarrow,
    build: (served) => {
      const all = withScopes(gate, registrations(served, clients, options.policy));
      return {
        all,
        byName: new Map(all.map((r) => [r.name, r])),
        features: serverFeatures(clients, all.map((r) => r.name), confinement),
        instructions: instructionsFor(confinement, options.policy?.adminNote, served),
      };
    },
  });
  const audit = options.policy?.audit;
  // What each request in flight can reach, read from its body before the SDK builds its server.
  const reach = new WeakMap<Request, Registration | null>();
  // The narrowed catalogue of each request in flight that asked for one.
  const narrowedFor = new WeakMap<Request, typeof catalogues.whole>();
  // A 2025-era request carrying an apps session id is served as its client declared MCP Apps.
  const factory = rememberingApps((ctx: McpRequestContext) => {
    const request = ctx.requestInfo;
    const { all, features, instructions } = (request && narrowedFor.get(request) ||
      catalogues.whole).made;
    const only = request ? reach.get(request) : undefined;
    // A tools/call reaches one tool and nothing else; any other message may need it all.
    return only === undefined
      ? serverWith(all, features, instructions, audit)
      : serverWith(only === null ? [] : [only], undefined, instructions, audit);
  });
  const mcp = createMcpHandler(factory, { onerror: options.onerror });
  const sessions = new Sessions({
    limits: options.sessions ?? DEFAULT_SESSION_LIMITS,
    notice: options.onsession,
  });
  const notAllowed = (message: string) =>
    rejection(403, options.hostHint ? `${message}: ${options.hostHint}` : message);

  return {
    async fetch(request, body) {
      const { pathname } = new URL(request.url);
      if (pathname === HEALTH_PATH) {
        if (request.method !== "GET" && request.method !== "HEAD") {
          return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
        }
        return Response.json({ status: "ok", name: SERVER_NAME, version: VERSION });
      }
      if (pathname === METRICS_PATH && metrics && !options.metricsElsewhere) {
        return metricsResponse(request, metrics);
      }
      const asked = pathAsk(pathname, MCP_PATH);
      if (asked === undefined && !gate?.serves(pathname)) {
        return rejection(404, `not found: MCP is served at ${MCP_PATH}`);
      }
      const host = validateHostHeader(request.headers.get("host"), allowed);
      if (!host.ok) return notAllowed(host.message);
      const origin = validateOriginHeader(request.headers.get("origin"), allowed);
      if (!origin.ok) return notAllowed(origin.message);
      if (gate && asked === undefined) return gate.documents(request);
      const auth = gate ? await gate.authenticate(request) : requestAuth(request, config.token);
      if (auth instanceof Response) return auth;
      const served = catalogues.of(asked!, request.headers);
      if (served instanceof Response) return served;
      const read = await readAhead(request, body);
      if (read instanceof Response) return read;
      if (served !== catalogues.whole) narrowedFor.set(read.request, served);
      // A 2025-era client that can be asked is served in a session of its own.
      const sessionId = read.request.headers.get(SESSION_HEADER);
      if (isSessionId(sessionId)) {
        return await sessions.serve(sessionId, read.request, read.body, auth);
      }
      if (opensSession(read.body, ELICITATION_SINCE)) {
        const { all, features, instructions } = served.made;
        const server = serverWith(all, features, instructions, audit);
        const opened = await sessions.open(read.request, read.body, auth, server);
        if (opened !== undefined) return opened;
      }
      if (read.body === undefined) return await mcp.fetch(read.request, { authInfo: auth });
      const tool = reachedTool(read.body, served.made.byName);
      if (tool !== undefined) reach.set(read.request, tool);
      const answer = await mcp.fetch(read.request, { authInfo: auth, parsedBody: read.body });
      return withAppsSession(read.body, answer);
    },
    close: async () => {
      await sessions.close();
      await mcp.close();
    },
  };
}

/**
 * The request, its `signal` aborting only when Deno reports the exchange
 * failed: the client went away before its answer was delivered (a streamed,
 * 2025-era answer opens at once, so that is mid-call). Deno's own
 * `request.signal` also aborts after every successful response (and warns
 * once when read), so it is never touched: an own property shadows it, and
 * that is what the SDK reads to cancel an exchange.
 */
function withDisconnectSignal(request: Request, completed: Promise<void>): Request {
  const abort = new AbortController();
  completed.catch(() => abort.abort());
  Object.defineProperty(request, "signal", { value: abort.signal });
  return request;
}

/**
 * Serves the HTTP handler at the given address until {@link HttpServer.shutdown}:
 * each connection under its deadlines and the connection cap, or, on a
 * runtime without Deno's per-connection server, on `Deno.serve` without them.
 */
export function serveHttp(options: ServeHttpOptions): HttpServer {
  const { metricsAddress, address } = options;
  const metrics = metricsAddress && options.policy?.metrics;
  const handler = createHttpHandler({
    ...options,
    listenHostname: address.hostname,
    metricsElsewhere: !!metrics,
  });
  // A quick 2025-era answer goes out as one body (`whole_answers.ts`).
  const serveOne = async (request: Request, completed: Promise<void>, body?: Uint8Array) =>
    wholeIfQuick(await handler.fetch(withDisconnectSignal(request, completed), body));
  const { hostname, port } = options.address;
  const serveConn = serveConnectionFunction();
  let addr: Deno.NetAddr;
  let finished: Promise<void>;
  let stopServing: () => Promise<void>;
  let limits: ConnectionLimits | undefined;
  if (serveConn) {
    limits = options.limits ?? DEFAULT_CONNECTION_LIMITS;
    const listener = Deno.listen({ hostname, port });
    addr = listener.addr;
    const pool = serveConnections(listener, serveConn, serveOne, limits);
    finished = pool.finished;
    stopServing = () => pool.close();
  } else {
    const server = Deno.serve(
      { hostname, port, onListen() {} },
      (request, info) => serveOne(request, info.completed, undefined),
    );
    addr = server.addr as Deno.NetAddr;
    finished = server.finished;
    stopServing = () => server.shutdown();
  }
  const url = new URL(`http://${formatHostPort(addr.hostname, addr.port)}${MCP_PATH}`);
  const metricsServer = metrics ? serveMetrics(metricsAddress!, metrics, stopServing) : undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      await handler.close();
      await Promise.all([stopServing(), metricsServer?.shutdown()]);
    })();
    return stopping;
  };
  return {
    url,
    finished,
    limits,
    metricsUrl: metricsServer?.url,
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}
