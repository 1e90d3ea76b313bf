/**
 * The `mtls` line of `check`, and the warning a server starts with: whose the
 * client certificate is, who issued it, and until when, failing when it has
 * expired (or is not valid yet) and warning when it expires within
 * {@link EXPIRY_WARNING_DAYS} days, so it is renewed before the proxy
 * starts refusing it.
 */
import type { ClientCertificate } from "../bitbucket/transport/client_auth.ts";
import { type EnvReader, StartupError } from "../config.ts";
import { loadClientCertificate, type LoadedCertificate } from "./client_cert.ts";

/** How many days before it expires a client certificate is warned about. */
export const EXPIRY_WARNING_DAYS = 14;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A check line without its name (`check.ts` names it): what was found, and the fix. */
export interface CertificateVerdict {
  status: "pass" | "warn" | "fail";
  detail: string;
  fix?: string;
}

/** The fix for a certificate out of its validity. */
const RENEW =
  "ask whoever runs the proxy for a new client certificate and point BITBUCKET_CLIENT_CERT and BITBUCKET_CLIENT_KEY at it";

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Judges a loaded certificate's validity at `now`. */
export function judgeCertificate(certificate: LoadedCertificate, now: Date): CertificateVerdict {
  const { subject, issuer, notBefore, notAfter } = certificate.summary;
  const who = `client certificate ${subject || "(no subject)"}, issued by ${issuer || "(nobody)"}`;
  if (now < notBefore) {
    return {
      status: "fail",
      detail: `${who}, is not valid before ${day(notBefore)}`,
      fix: `check this machine's clock, or ${RENEW}`,
    };
  }
  const left = Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS);
  if (now >= notAfter) {
    return { status: "fail", detail: `${who}, expired on ${day(notAfter)}`, fix: RENEW };
  }
  if (left < EXPIRY_WARNING_DAYS) {
    return {
      status: "warn",
      detail: `${who}, expires on ${day(notAfter)}, in ${left} day${left === 1 ? "" : "s"}`,
      fix: RENEW,
    };
  }
  return { status: "pass", detail: `${who}, valid until ${day(notAfter)} (${left} days left)` };
}

/**
 * What `check` says about the client certificate: nothing when none is
 * configured; the certificate to connect with when it loads (even expired, so
 * that the handshake shows what the proxy makes of it).
 */
export function checkClientCertificate(
  env: EnvReader,
  now: Date,
): { verdict?: CertificateVerdict; certificate?: LoadedCertificate } {
  let certificate: LoadedCertificate | undefined;
  try {
    certificate = loadClientCertificate(env);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    return { verdict: { status: "fail", detail: error.message } };
  }
  if (certificate === undefined) return {};
  return { verdict: judgeCertificate(certificate, now), certificate };
}

/** The warning a starting server logs about its client certificate; undefined when all is well. */
export function expiryWarning(certificate: LoadedCertificate, now: Date): string | undefined {
  const verdict = judgeCertificate(certificate, now);
  return verdict.status === "pass" ? undefined : `${verdict.detail}: ${verdict.fix}`;
}

/**
 * `config` with the environment's client certificate, if any, for a starting
 * server: a problem loading it stops the start; one expired or expiring soon
 * is passed to `warn` (the proxy has the last word).
 */
export function withClientCertificate<C extends { clientCertificate?: ClientCertificate }>(
  config: C,
  env: EnvReader,
  warn: (message: string) => void,
): C {
  const certificate = loadClientCertificate(env);
  if (certificate === undefined) return config;
  const warning = expiryWarning(certificate, new Date());
  if (warning !== undefined) warn(warning);
  return { ...config, clientCertificate: certificate };
}
