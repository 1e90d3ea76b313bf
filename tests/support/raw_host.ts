/**
 * A raw-file host for the checkout, as GitHub's raw host serves a tagged tree:
 * every file under the repository root, as `text/plain`, on 127.0.0.1. It
 * records the paths asked for, so a test can prove a run came from it.
 */

/** The running host. */
export interface RawHost {
  /** `http://127.0.0.1:<port>`: the repository root. */
  base: string;
  /** Every path requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

const ROOT = new URL("../../", import.meta.url);

/** Serves the repository root read-only; anything outside it, or missing, is 404. */
export function startRawHost(): RawHost {
  const requested: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const { pathname } = new URL(request.url);
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
  return { base: `http://127.0.0.1:${port}`, requested, close: () => server.shutdown() };
}
