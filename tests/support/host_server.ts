/**
 * The loopback web server the browser tests load their host pages from: each
 * page at its own path on 127.0.0.1, and every request it gets recorded, so a
 * test can tell that the host page's own load was the only request made.
 */

/** A served page set, and what it was asked for. */
export interface HostServer {
  /** The address of the page served at `path`. */
  url(path: string): string;
  /** Every path requested, in order (`GET /host.html`, …). */
  requests: string[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves `pages` (path → HTML) on 127.0.0.1 at a free port; anything else is a 404, recorded too. */
export function serveHostPages(pages: Record<string, string>): HostServer {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(`${request.method} ${path}`);
    const page = pages[path];
    if (page === undefined) return new Response("not found", { status: 404 });
    return new Response(page, {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const close = async () => {
    await server.shutdown();
  };
  return {
    url: (path) => `${origin}${path}`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}
