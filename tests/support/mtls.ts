/**
 * Mutual TLS for tests: the test-only CA and the client certificates of
 * tests/fixtures_mtls/ (see its README), and, in process, a proxy on
 * 127.0.0.1 in front of a plain-HTTP fixture Bitbucket that completes the
 * handshake only with a client certificate its CA issued, as a zero-trust
 * proxy (Envoy, NGINX, F5) in front of Bitbucket does. Deno.serve cannot ask
 * for a client certificate; node:https under Deno can.
 */
import { X509Certificate } from "node:crypto";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";

const DIR = new URL("../fixtures_mtls/", import.meta.url);

/** A certificate and key pair on disk, as `BITBUCKET_CLIENT_CERT` and `BITBUCKET_CLIENT_KEY` name them. */
export interface CertPair {
  certFile: string;
  keyFile: string;
  /** What the certificate says, read by node:crypto: the tests' independent reading. */
  x509: X509Certificate;
}

function pair(name: string): CertPair {
  const certFile = new URL(`${name}.pem`, DIR).pathname;
  return {
    certFile,
    keyFile: new URL(`${name}.key`, DIR).pathname,
    x509: new X509Certificate(Deno.readTextFileSync(certFile)),
  };
}

/** The committed test-only material: the CA, and a good, a wrong (other CA) and an expired client. */
export const TEST_MTLS = {
  /** The CA that issued the proxy's certificate and the clients it accepts (give it as DENO_CERT). */
  caFile: new URL("ca.pem", DIR).pathname,
  good: pair("client"),
  wrong: pair("wrong-client"),
  expired: pair("expired-client"),
} as const;

/** The environment that names a pair to the server. */
export function certEnv(pair: CertPair): Record<string, string> {
  return { BITBUCKET_CLIENT_CERT: pair.certFile, BITBUCKET_CLIENT_KEY: pair.keyFile };
}

/** `--allow-read` of a pair's two files. */
export function readFlag(pair: CertPair): string {
  return `--allow-read=${pair.certFile},${pair.keyFile}`;
}

/** A running mutual-TLS proxy. */
export interface MtlsProxy {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** The subject (`CN`) of each client certificate the proxy accepted, one per relayed request. */
  accepted: string[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves HTTPS on 127.0.0.1 (a free port), demanding a client certificate from TEST_MTLS's CA, relaying to `target`. */
export async function startMtlsProxy(target: string): Promise<MtlsProxy> {
  const read = (name: string) => Deno.readTextFileSync(new URL(name, DIR));
  const accepted: string[] = [];
  const relay = async (req: IncomingMessage, res: ServerResponse) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    accepted.push(String(peer.subject?.CN ?? ""));
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    for await (const chunk of req) chunks.push(chunk as Uint8Array<ArrayBuffer>);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === "host" || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const answer = await fetch(new URL(req.url ?? "/", target), {
      method: req.method,
      headers,
      body: chunks.length > 0 ? new Blob(chunks) : undefined,
      redirect: "manual",
    });
    const body = new Uint8Array(await answer.arrayBuffer());
    answer.headers.forEach((value, name) => {
      if (!["content-length", "content-encoding", "transfer-encoding"].includes(name)) {
        res.setHeader(name, value);
      }
    });
    res.writeHead(answer.status);
    res.end(body);
  };
  const server = https.createServer({
    cert: read("server.pem"),
    key: read("server.key"),
    ca: read("ca.pem"),
    requestCert: true,
    rejectUnauthorized: true,
  }, (req, res) => {
    relay(req, res).catch((error) => {
      res.writeHead(502);
      res.end(String(error));
    });
  });
  // A refused handshake is the test's subject, not a failure of the proxy.
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  return { origin: `https://127.0.0.1:${port}`, accepted, close, [Symbol.asyncDispose]: close };
}
