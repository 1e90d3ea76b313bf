/**
 * Loading the client certificate from BITBUCKET_CLIENT_CERT and
 * BITBUCKET_CLIENT_KEY: nothing when neither is set, the certificate (and an
 * HTTP client holding it) when both name a good pair, and one line naming the
 * fix for every other case. Files outside the checkout stand for files the
 * process may not read (the tests may read only the checkout).
 */
import assert from "node:assert/strict";
import { loadClientCertificate } from "../../src/cli/client_cert.ts";
import { type EnvReader, StartupError } from "../../src/config.ts";
import { TEST_MTLS } from "../support/mtls.ts";

const DIR = new URL("../fixtures_mtls/", import.meta.url);
const file = (name: string) => new URL(name, DIR).pathname;

function env(cert: string | undefined, key: string | undefined): EnvReader {
  return (name) =>
    name === "BITBUCKET_CLIENT_CERT" ? cert : name === "BITBUCKET_CLIENT_KEY" ? key : undefined;
}

/** The one-line refusal loading gives. */
function refusal(cert: string | undefined, key: string | undefined): string {
  try {
    loadClientCertificate(env(cert, key));
  } catch (error) {
    assert.ok(error instanceof StartupError, String(error));
    assert.ok(!error.message.includes("\n"), "one line");
    return error.message;
  }
  assert.fail("loading was expected to refuse");
}

Deno.test("client cert: neither variable set (or empty) loads nothing", () => {
  assert.equal(loadClientCertificate(env(undefined, undefined)), undefined);
  assert.equal(loadClientCertificate(env("", "")), undefined);
});

Deno.test("client cert: a good pair loads, named by its subject, with an HTTP client to present it", () => {
  const { good } = TEST_MTLS;
  const loaded = loadClientCertificate(env(good.certFile, good.keyFile));
  assert.ok(loaded);
  try {
    assert.equal(loaded.subject, good.x509.subject.split("\n").reverse().join(", "));
    assert.equal(loaded.summary.notAfter.getTime(), good.x509.validToDate.getTime());
    assert.equal(loaded.certFile, good.certFile);
  } finally {
    loaded.httpClient.close();
  }
});

Deno.test("client cert: one variable without the other names the missing one", () => {
  const { good } = TEST_MTLS;
  assert.match(
    refusal(good.certFile, undefined),
    /^BITBUCKET_CLIENT_CERT is set but BITBUCKET_CLIENT_KEY is not: set BITBUCKET_CLIENT_KEY/,
  );
  assert.match(
    refusal(undefined, good.keyFile),
    /^BITBUCKET_CLIENT_KEY is set but BITBUCKET_CLIENT_CERT is not: set BITBUCKET_CLIENT_CERT/,
  );
});

Deno.test("client cert: files the process may not read name the --allow-read flag for exactly those", () => {
  const { good } = TEST_MTLS;
  const outside = "/tmp/bitbucket-mcp-no-such-dir/client.pem";
  assert.equal(
    refusal(outside, good.keyFile),
    `no read permission for the client certificate: run with --allow-read=${outside}`,
  );
});

Deno.test("client cert: a missing file, a key as the certificate, a certificate as the key, an encrypted key and a key of another certificate each get their fix", () => {
  const { good, wrong } = TEST_MTLS;
  const missing = file("no-such.pem");
  assert.equal(
    refusal(missing, good.keyFile),
    `BITBUCKET_CLIENT_CERT names ${missing}, which does not exist: check the path`,
  );
  assert.match(
    refusal(good.keyFile, good.keyFile),
    /^BITBUCKET_CLIENT_CERT \(.*client\.key\) holds no readable certificate \(no CERTIFICATE block\): give the client certificate as PEM/,
  );
  assert.match(
    refusal(good.certFile, good.certFile),
    /^BITBUCKET_CLIENT_KEY \(.*client\.pem\) holds no private key/,
  );
  assert.match(
    refusal(good.certFile, file("encrypted-client.key")),
    /^BITBUCKET_CLIENT_KEY \(.*encrypted-client\.key\) is encrypted.*openssl pkey -in /,
  );
  assert.match(
    refusal(good.certFile, wrong.keyFile),
    /^BITBUCKET_CLIENT_KEY \(.*wrong-client\.key\) is not the key of the certificate in BITBUCKET_CLIENT_CERT \(CN=bitbucket-mcp test client/,
  );
});
