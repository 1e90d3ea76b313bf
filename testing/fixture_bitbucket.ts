/**
 * A fixture Bitbucket: an HTTP server on 127.0.0.1 that answers from
 * `fixtures/` and records every request. It serves under the context path
 * `/bitbucket`, so every test also proves context paths work. A request no
 * route matches is answered 501 and kept in `unmatched`. Routes can also
 * misbehave as real servers and networks do: answer late, drop the
 * connection, or send a body that never ends.
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
  /** An inline body, for answers too small to deserve a file; bytes are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer only once (later identical requests fall through to later routes). */
  once?: boolean;
  /** Computes the body from the request (for generated data such as long paged listings); may be async. */
  respond?: (seen: SeenRequest) => unknown;
  /**
   * Refuses a request a real server refuses (a field it requires, missing):
   * the status and the body it answers with, or undefined to answer as usual.
   */
  refuse?: (seen: SeenRequest) => { status: number; body: unknown } | undefined;
  /**
   * Waits this long before answering. A client that gives up meanwhile is
   * seen: the request is marked `aborted` and no answer is sent.
   */
  delayMs?: number;
  /**
   * Misbehaves instead of answering normally:
   * - `drop`: sends the status and headers, promising a body it never sends,
   *   then closes the connection (a connection reset mid-answer);
   * - `endless`: a JSON body that never ends; stopping reading it marks the request `aborted`.
   */
  fault?: "drop" | "endless";
}

/** A request as the fixture server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** The fields of a `multipart/form-data` body (a file part as its text); absent for any other body. */
  form?: Record<string, string>;
  headers: Record<string, string>;
  /** Bytes of the body the fixture answered with. */
  responseBytes: number;
  /** True when the client went away before the answer was complete (a delay or endless body cut short). */
  aborted: boolean;
}

/** The running fixture server. */
export interface FixtureBitbucket {
  /** The base URL to give the server under test (with the context path). */
  url: string;
  requests: SeenRequest[];
  unmatched: SeenRequest[];
  /** Adds routes in front of the existing ones. */
  prepend(routes: Route[]): void;
  /** Resolves once `condition` holds (checked as requests come and go); rejects after 10 s so a broken test cannot hang. */
  until(condition: () => boolean): Promise<void>;
  close(): Promise<void>;
}

const CONTEXT = "/bitbucket/rest";
const fixtureCache = new Map<string, string>();

/** Reads a fixture body (cached: fixtures never change during a run). */
export function readFixture(name: string): string {
  let text = fixtureCache.get(name);
  if (text === undefined) {
    text = Deno.readTextFileSync(new URL(`../fixtures/${name}`, import.meta.url));
    fixtureCache.set(name, text);
  }
  return text;
}

/** Waits `ms`, or until the client goes away; true when it went away. */
function clientLeft(req: Request, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      req.signal.removeEventListener("abort", onAbort);
      resolve(false);
    }, ms);
    req.signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A JSON array that never ends; `onCancel` runs when the reader stops. */
function endlessBody(onCancel: () => void): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(`{"id":1,"name":"${"x".repeat(16_000)}"},`);
  let started = false;
  return new ReadableStream({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(new TextEncoder().encode('{"values":['));
      }
      controller.enqueue(chunk);
    },
    cancel: onCancel,
  });
}

/**
 * The fields of a multipart form body, each as text (a file part's content
 * included); undefined for a body that does not parse, which is then kept as
 * text like any other.
 */
async function formFields(
  raw: Uint8Array<ArrayBuffer>,
  type: string,
): Promise<Record<string, string> | undefined> {
  let parsed: FormData;
  try {
    parsed = await new Response(raw, { headers: { "content-type": type } }).formData();
  } catch {
    return undefined;
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of parsed) {
    fields[name] = typeof value === "string" ? value : await value.text();
  }
  return fields;
}

function matches(route: Route, seen: SeenRequest): boolean {
  if (route.method !== seen.method || route.path !== seen.path) return false;
  return Object.entries(route.query ?? {}).every(([k, v]) => seen.query[k] === v);
}

/** How the fixture listens: plain HTTP unless a certificate is given. */
export interface FixtureOptions {
  /** Serve HTTPS with this PEM certificate chain and key. */
  tls?: { cert: string; key: string };
}

/** Starts a fixture Bitbucket with the given routes. */
export function startFixtureBitbucket(
  initial: Route[],
  options: FixtureOptions = {},
): FixtureBitbucket {
  let routes = [...initial];
  const used = new Set<Route>();
  const requests: SeenRequest[] = [];
  const unmatched: SeenRequest[] = [];
  const listen = { hostname: "127.0.0.1", port: 0, onListen() {}, ...options.tls };
  const server = Deno.serve(listen, async (req) => {
    const url = new URL(req.url);
    const type = req.headers.get("content-type") ?? "";
    const raw = new Uint8Array(await req.arrayBuffer());
    const form = type.startsWith("multipart/form-data") ? await formFields(raw, type) : undefined;
    const text = form === undefined ? new TextDecoder().decode(raw) : "";
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
      ...(form === undefined ? {} : { form }),
      headers: Object.fromEntries(req.headers),
      responseBytes: 0,
      aborted: false,
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
    if (route.delayMs !== undefined && await clientLeft(req, route.delayMs)) {
      seen.aborted = true;
      return new Response(null, { status: 499 });
    }
    const refusal = route.refuse?.(seen);
    if (refusal !== undefined) return Response.json(refusal.body, { status: refusal.status });
    const status = route.status ?? 200;
    if (route.fault === "drop") {
      const start = new TextEncoder().encode('{"values":[');
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(start);
          controller.close();
        },
      });
      return new Response(body, {
        status,
        headers: { "content-type": "application/json", "content-length": "1000000" },
      });
    }
    if (route.fault === "endless") {
      const body = endlessBody(() => seen.aborted = true);
      return new Response(body, { status, headers: { "content-type": "application/json" } });
    }
    if (route.body instanceof Uint8Array) {
      seen.responseBytes = route.body.length;
      const headers = new Headers(route.headers);
      headers.set("content-length", String(route.body.length));
      return new Response(route.body as Uint8Array<ArrayBuffer>, { status, headers });
    }
    const payload = route.respond
      ? JSON.stringify(await route.respond(seen))
      : route.fixture !== undefined
      ? readFixture(route.fixture)
      : route.body === undefined
      ? null
      : typeof route.body === "string"
      ? route.body
      : JSON.stringify(route.body);
    seen.responseBytes = payload === null ? 0 : new TextEncoder().encode(payload).length;
    const headers = new Headers(route.headers);
    if (payload !== null && !headers.has("content-type")) {
      headers.set("content-type", "application/json;charset=UTF-8");
    }
    return new Response(status === 204 ? null : payload, { status, headers });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${addr.port}/bitbucket`,
    requests,
    unmatched,
    prepend(more) {
      routes = [...more, ...routes];
    },
    async until(condition) {
      const giveUp = Date.now() + 10_000;
      while (!condition()) {
        if (Date.now() > giveUp) throw new Error("the fixture Bitbucket waited 10 s in vain");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      await server.shutdown();
    },
  };
}
