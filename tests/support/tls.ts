/**
 * A certificate for 127.0.0.1 that no public CA vouches for, made with
 * `openssl` at test time (nothing secret is kept in the repository), and an
 * HTTPS front that relays every request to a plain-HTTP fixture Bitbucket.
 */

/** A self-signed certificate and its key, PEM-encoded. */
export interface SelfSigned {
  cert: string;
  key: string;
}

/** True when an `openssl` command is installed. */
export function opensslInstalled(): boolean {
  try {
    return new Deno.Command("openssl", { args: ["version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * A P-256 certificate for IP 127.0.0.1, valid for a day, that is its own
 * issuer (so it can be handed to Deno as the trusted CA). Key and certificate
 * come back on openssl's stdout: no file is read.
 */
export async function selfSignedCert(): Promise<SelfSigned> {
  const { code, stdout, stderr } = await new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      "-",
      "-out",
      "-",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-addext",
      "basicConstraints=critical,CA:FALSE",
    ],
    stdin: "null",
  }).output();
  if (code !== 0) throw new Error(`openssl failed: ${new TextDecoder().decode(stderr)}`);
  const pem = new TextDecoder().decode(stdout);
  const block = (label: string) => {
    const match = new RegExp(`-----BEGIN ${label}-----[^-]+-----END ${label}-----`).exec(pem);
    if (!match) throw new Error(`openssl printed no ${label}`);
    return match[0] + "\n";
  };
  return { cert: block("CERTIFICATE"), key: block("PRIVATE KEY") };
}

/** An HTTPS server on 127.0.0.1 relaying to `target` (an http origin). */
export interface TlsFront {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Serves `cert` on 127.0.0.1 (a free port) and relays every request, as is, to `target`. */
export function startTlsFront(tls: SelfSigned, target: string): TlsFront {
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
