/**
 * A raw-file host for the checkout, as GitHub's raw host serves a tagged tree:
 * every file under the repository root, as `text/plain`, on 127.0.0.1. It
 * records the paths asked for, so a test can prove a run came from it. Each
 * host serves under a fresh random prefix, as a release serves under its tag:
 * Deno's module cache is shared by every run on the machine, and a port used
 * again would otherwise be answered from the cache, with nothing requested.
 */

/** The running host. */
export interface RawHost {
  /** `http://127.0.0.1:<port>/<prefix>`: the repository root. */
  base: string;
  /** Every path requested under the root (`/main.ts`), in order. */
  requested: string[];
  close(): Promise<void>;
}

const ROOT = new URL("../../", import.meta.url);

/** Serves the repository root read-only; anything outside it, or missing, is 404. */
export function startRawHost(): RawHost {
  const requested: string[] = [];
  const prefix = `/run-${crypto.randomUUID()}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const full = new URL(request.url).pathname;
    if (!full.startsWith(`${prefix}/`)) return new Response("404: Not Found", { status: 404 });
    const pathname = full.slice(prefix.length);
    requested.push(pathname);
    const file = new URL(`.${decodeURIComponent(pathname)}`, ROOT);
    if (!file.href.startsWith(ROOT.href) || request.method !== "GET") {
      return new Response("404: Not Found", { status: 404 });
    }
    try {
      const body = await Deno.readFile(file);
      return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8" } });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory) {
        return new Response("404: Not Found", { status: 404 });
      }
      throw error;
    }
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    base: `http://127.0.0.1:${port}${prefix}`,
    requested,
    close: () => server.shutdown(),
  };
}
