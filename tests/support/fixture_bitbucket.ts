/**
 * A fixture Bitbucket: an HTTP server on 127.0.0.1 that answers from
 * `fixtures/` and records every request. It serves under the context path
 * `/bitbucket`, so every test also proves context paths work. A request no
 * route matches is answered 501 and kept in `unmatched`.
 */

/** One canned answer. Earlier routes win; `query` entries must all match. */
export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path under `/bitbucket/rest`, exactly as the server should request it (percent-encoded). */
  path: string;
  query?: Record<string, string>;
  status?: number;
  /** A file under `fixtures/` holding the body Bitbucket returns. */
  fixture?: string;
  /** An inline body, for answers too small to deserve a file. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer only once (later identical requests fall through to later routes). */
  once?: boolean;
  /** Computes the body from the request (for generated data such as long paged listings). */
  respond?: (seen: SeenRequest) => unknown;
}

/** A request as the fixture server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
  /** Bytes of the body the fixture answered with. */
  responseBytes: number;
}

/** The running fixture server. */
export interface FixtureBitbucket {
  /** The base URL to give the server under test (with the context path). */
  url: string;
  requests: SeenRequest[];
  unmatched: SeenRequest[];
  /** Adds routes in front of the existing ones. */
  prepend(routes: Route[]): void;
  close(): Promise<void>;
}

const CONTEXT = "/bitbucket/rest";
const fixtureCache = new Map<string, string>();

/** Reads a fixture body (cached: fixtures never change during a run). */
export function readFixture(name: string): string {
  let text = fixtureCache.get(name);
  if (text === undefined) {
    text = Deno.readTextFileSync(new URL(`../../fixtures/${name}`, import.meta.url));
    fixtureCache.set(name, text);
  }
  return text;
}

function matches(route: Route, seen: SeenRequest): boolean {
  if (route.method !== seen.method || route.path !== seen.path) return false;
  return Object.entries(route.query ?? {}).every(([k, v]) => seen.query[k] === v);
}

/** Starts a fixture Bitbucket with the given routes. */
export function startFixtureBitbucket(initial: Route[]): FixtureBitbucket {
  let routes = [...initial];
  const used = new Set<Route>();
  const requests: SeenRequest[] = [];
  const unmatched: SeenRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const rawPath = url.pathname.startsWith(CONTEXT)
      ? url.pathname.slice(CONTEXT.length)
      : url.pathname;
    const seen: SeenRequest = {
      method: req.method,
      path: rawPath,
      query: Object.fromEntries(url.searchParams),
      body,
      headers: Object.fromEntries(req.headers),
      responseBytes: 0,
    };
    requests.push(seen);
    const route = url.pathname.startsWith(CONTEXT)
      ? routes.find((r) => !(r.once && used.has(r)) && matches(r, seen))
      : undefined;
    if (!route) {
      unmatched.push(seen);
      return Response.json({
        errors: [{ message: `no fixture for ${req.method} ${url.pathname}${url.search}` }],
      }, {
        status: 501,
      });
    }
    used.add(route);
    const payload = route.respond
      ? JSON.stringify(route.respond(seen))
      : route.fixture !== undefined
      ? readFixture(route.fixture)
      : route.body === undefined
      ? null
      : typeof route.body === "string"
      ? route.body
      : JSON.stringify(route.body);
    const status = route.status ?? 200;
    seen.responseBytes = payload === null ? 0 : new TextEncoder().encode(payload).length;
    const headers = new Headers(route.headers);
    if (payload !== null && !headers.has("content-type")) {
      headers.set("content-type", "application/json;charset=UTF-8");
    }
    return new Response(status === 204 ? null : payload, { status, headers });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}/bitbucket`,
    requests,
    unmatched,
    prepend(more) {
      routes = [...more, ...routes];
    },
    async close() {
      await server.shutdown();
    },
  };
}
