/**
 * The client certificate of `BITBUCKET_CLIENT_CERT` and `BITBUCKET_CLIENT_KEY`
 * (PEM files), for a Bitbucket behind a proxy that demands mutual TLS: both
 * variables or neither, the files permitted and readable, a certificate and an
 * unencrypted key that belong together, loaded once into the HTTP client every
 * Bitbucket request then uses. Each problem is one line naming the fix.
 */
import type { ClientCertificate } from "../bitbucket/transport/client_auth.ts";
import { type EnvReader, StartupError } from "../config.ts";
import { CertificateFormatError, type CertificateSummary, readCertificate } from "./x509.ts";

/** A client certificate ready to present, with what it says about itself. */
export interface LoadedCertificate extends ClientCertificate {
  summary: CertificateSummary;
  /** The certificate file, as `BITBUCKET_CLIENT_CERT` names it. */
  certFile: string;
}

/** The PEM labels of the private keys Deno reads: PKCS#8, PKCS#1 (RSA) and SEC1 (EC). */
const PLAIN_KEY = /-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/;

/**
 * Loads the client certificate the environment names; undefined when neither
 * variable is set (or neither may be read: they are optional). Throws a
 * {@link StartupError} naming the fix for anything else.
 */
export function loadClientCertificate(env: EnvReader): LoadedCertificate | undefined {
  const certFile = env("BITBUCKET_CLIENT_CERT") || undefined;
  const keyFile = env("BITBUCKET_CLIENT_KEY") || undefined;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined) {
    throw new StartupError(
      "BITBUCKET_CLIENT_KEY is set but BITBUCKET_CLIENT_CERT is not: set BITBUCKET_CLIENT_CERT to the client certificate (PEM) that goes with the key, or unset both",
    );
  }
  if (keyFile === undefined) {
    throw new StartupError(
      "BITBUCKET_CLIENT_CERT is set but BITBUCKET_CLIENT_KEY is not: set BITBUCKET_CLIENT_KEY to the certificate's private key (PEM), or unset both",
    );
  }
  const denied = [certFile, keyFile].filter((path) =>
    Deno.permissions.querySync({ name: "read", path }).state !== "granted"
  );
  if (denied.length > 0) {
    throw new StartupError(
      `no read permission for the client certificate: run with --allow-read=${denied.join(",")}`,
    );
  }
  const certPem = readPem("BITBUCKET_CLIENT_CERT", certFile);
  const keyPem = readPem("BITBUCKET_CLIENT_KEY", keyFile);
  let summary: CertificateSummary;
  try {
    summary = readCertificate(certPem);
  } catch (error) {
    if (!(error instanceof CertificateFormatError)) throw error;
    throw new StartupError(
      `BITBUCKET_CLIENT_CERT (${certFile}) holds no readable certificate (${error.message}): give the client certificate as PEM (-----BEGIN CERTIFICATE-----)`,
    );
  }
  if (keyPem.includes("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
    throw new StartupError(
      `BITBUCKET_CLIENT_KEY (${keyFile}) is encrypted, and there is no passphrase to give: write it out unencrypted (openssl pkey -in ${keyFile} -out client.key), readable by you alone`,
    );
  }
  if (!PLAIN_KEY.test(keyPem)) {
    throw new StartupError(
      `BITBUCKET_CLIENT_KEY (${keyFile}) holds no private key: give the certificate's key as PEM (-----BEGIN PRIVATE KEY-----)`,
    );
  }
  let httpClient: Deno.HttpClient;
  try {
    httpClient = Deno.createHttpClient({ cert: certPem, key: keyPem });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(
      /KeyMismatch|not be consistent/i.test(message)
        ? `BITBUCKET_CLIENT_KEY (${keyFile}) is not the key of the certificate in BITBUCKET_CLIENT_CERT (${summary.subject}): give the key the certificate was issued for`
        : `cannot use the client certificate ${certFile} with the key ${keyFile}: ${message}`,
    );
  }
  return { httpClient, subject: summary.subject, summary, certFile };
}

/** A PEM file's text; a missing or unreadable file is a one-line refusal naming the variable. */
function readPem(variable: string, path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new StartupError(`${variable} names ${path}, which does not exist: check the path`);
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new StartupError(`cannot read ${variable} (${path}): ${message}`);
  }
}
