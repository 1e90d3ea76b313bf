/**
 * TLS material for tests: the test-only private CA and the 127.0.0.1
 * certificate it issued (tests/fixtures_tls/, see its README), and an HTTPS
 * front that relays every request to a plain-HTTP fixture Bitbucket.
 */

const TLS_DIR = new URL("../fixtures_tls/", import.meta.url);

/** A server certificate and key (PEM), and the path of the CA that issued it. */
export interface TestTls {
  cert: string;
  key: string;
  /** The CA file to hand to Deno (DENO_CERT or --cert). */
  caFile: string;
}

/** The committed test-only certificate for 127.0.0.1 and its CA. */
export const TEST_TLS: TestTls = {
  cert: Deno.readTextFileSync(new URL("server.pem", TLS_DIR)),
  key: Deno.readTextFileSync(new URL("server.key", TLS_DIR)),
  caFile: new URL("ca.pem", TLS_DIR).pathname,
};

/** An HTTPS server on 127.0.0.1 relaying to `target` (an http origin). */
export interface TlsFront {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Serves `cert` on 127.0.0.1 (a free port) and relays every request, as is, to `target`. */
export function startTlsFront(tls: TestTls, target: string): TlsFront {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: tls.cert, key: tls.key, onListen() {} },
    async (request) => {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.delete("host");
      const body = request.method === "GET" || request.method === "HEAD"
        ? undefined
        : await request.arrayBuffer();
      return await fetch(new URL(url.pathname + url.search, target), {
        method: request.method,
        headers,
        body,
        redirect: "manual",
      });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `https://127.0.0.1:${port}`, close: () => server.shutdown() };
}
