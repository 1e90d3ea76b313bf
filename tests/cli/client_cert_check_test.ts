/**
 * Judging a client certificate's validity for `check` and a starting server:
 * a pass with its expiry, a warning within EXPIRY_WARNING_DAYS of it, a
 * failure once expired or before it is valid. The dates come from the
 * certificate itself, never from the test.
 */
import assert from "node:assert/strict";
import {
  checkClientCertificate,
  EXPIRY_WARNING_DAYS,
  expiryWarning,
  judgeCertificate,
  withClientCertificate,
} from "../../src/cli/client_cert_check.ts";
import { loadClientCertificate } from "../../src/cli/client_cert.ts";
import { formatCheckLine, runChecks } from "../../src/cli/check.ts";
import { parseFlags } from "../../src/cli/flags.ts";
import { createLogger } from "../../src/cli/log.ts";
import { system } from "../../testing/cases/system.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import type { ClientCertificate } from "../../src/bitbucket/transport/client_auth.ts";
import type { EnvReader } from "../../src/config.ts";
import { certEnv, type CertPair, TEST_MTLS } from "../support/mtls.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

function envOf(pair: CertPair | undefined): EnvReader {
  const vars: Record<string, string> = pair ? certEnv(pair) : {};
  return (name) => vars[name];
}

function loaded(pair: CertPair) {
  const certificate = loadClientCertificate(envOf(pair));
  assert.ok(certificate);
  certificate.httpClient.close();
  return certificate;
}

Deno.test("client cert check: a certificate far from its expiry passes, naming subject, issuer and the day", () => {
  const good = loaded(TEST_MTLS.good);
  const verdict = judgeCertificate(good, new Date());
  assert.equal(verdict.status, "pass");
  const day = good.summary.notAfter.toISOString().slice(0, 10);
  assert.ok(verdict.detail.includes(`client certificate ${good.subject}`), verdict.detail);
  assert.ok(verdict.detail.includes(`issued by ${good.summary.issuer}`), verdict.detail);
  assert.ok(verdict.detail.includes(`valid until ${day}`), verdict.detail);
  assert.equal(expiryWarning(good, new Date()), undefined);
});

Deno.test(`client cert check: within ${EXPIRY_WARNING_DAYS} days of its expiry it warns, with the days left`, () => {
  const good = loaded(TEST_MTLS.good);
  const end = good.summary.notAfter.getTime();
  const soon = judgeCertificate(good, new Date(end - (EXPIRY_WARNING_DAYS - 1) * DAY_MS - 1));
  assert.equal(soon.status, "warn");
  assert.match(soon.detail, new RegExp(`in ${EXPIRY_WARNING_DAYS - 1} days$`));
  assert.match(soon.fix ?? "", /new client certificate/);
  const justOutside = judgeCertificate(good, new Date(end - EXPIRY_WARNING_DAYS * DAY_MS));
  assert.equal(justOutside.status, "pass");
  const lastDay = judgeCertificate(good, new Date(end - DAY_MS / 2));
  assert.match(lastDay.detail, /in 0 days$/);
});

Deno.test("client cert check: an expired certificate fails with the day it expired; one not yet valid fails naming the clock", () => {
  const expired = loaded(TEST_MTLS.expired);
  const verdict = judgeCertificate(expired, new Date());
  assert.equal(verdict.status, "fail");
  assert.ok(
    verdict.detail.endsWith(`expired on ${expired.summary.notAfter.toISOString().slice(0, 10)}`),
  );
  const early = judgeCertificate(expired, new Date(expired.summary.notBefore.getTime() - 1));
  assert.equal(early.status, "fail");
  assert.match(early.fix ?? "", /clock/);
});

Deno.test("client cert check: no certificate is no line; a refused one is a failing line; a loaded one is judged and kept", () => {
  assert.deepEqual(checkClientCertificate(envOf(undefined), new Date()), {});
  const half: EnvReader = (name) =>
    name === "BITBUCKET_CLIENT_CERT" ? TEST_MTLS.good.certFile : undefined;
  const refused = checkClientCertificate(half, new Date());
  assert.equal(refused.verdict?.status, "fail");
  assert.equal(refused.certificate, undefined);
  const expired = checkClientCertificate(envOf(TEST_MTLS.expired), new Date());
  assert.equal(expired.verdict?.status, "fail");
  assert.ok(
    expired.certificate,
    "an expired certificate is still presented, to see what the proxy says",
  );
  expired.certificate.httpClient.close();
});

Deno.test("client cert check: a starting server gets the certificate in its config, and a warning when it has expired", () => {
  const warnings: string[] = [];
  const start: { timeoutMs: number; clientCertificate?: ClientCertificate } = { timeoutMs: 1 };
  const none = withClientCertificate(start, envOf(undefined), (w) => warnings.push(w));
  assert.deepEqual(none, { timeoutMs: 1 });
  const config = withClientCertificate(
    start,
    envOf(TEST_MTLS.expired),
    (w) => warnings.push(w),
  );
  assert.ok(config.clientCertificate);
  config.clientCertificate.httpClient.close();
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /expired on .*: ask whoever runs the proxy/);
});

Deno.test("client cert check: in check, a certificate near its expiry is a warning (!) that does not fail the run", async () => {
  await using fixture = fixtureWith(system.routes);
  const good = loaded(TEST_MTLS.good);
  const vars: Record<string, string> = {
    BITBUCKET_URL: fixture.url,
    BITBUCKET_TOKEN: TEST_TOKEN,
    ...certEnv(TEST_MTLS.good),
  };
  const lines: string[] = [];
  const passed = await runChecks({
    flags: parseFlags(["check"]),
    env: (name) => vars[name],
    logger: createLogger("error", () => {}),
    now: new Date(good.summary.notAfter.getTime() - (EXPIRY_WARNING_DAYS - 1) * DAY_MS - 1),
  }, (line) => lines.push(formatCheckLine(line)));
  const mtls = lines.find((line) => line.split(/\s+/)[1] === "mtls") ?? "";
  assert.match(mtls, new RegExp(`^! mtls +.*in ${EXPIRY_WARNING_DAYS - 1} days\\. Fix: `), mtls);
  assert.equal(passed, true, lines.join("\n"));
});
