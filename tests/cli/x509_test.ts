/**
 * The X.509 reader against the committed test certificates, each also read by
 * node:crypto (the independent reading): subject and issuer most specific
 * first, both dates (GeneralizedTime after 2049, UTCTime before), and a
 * refusal naming what is wrong for anything that is not a certificate.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { CertificateFormatError, pemBlocks, readCertificate } from "../../src/cli/x509.ts";

const DIR = new URL("../fixtures_mtls/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, DIR));

/** node:crypto's names (one per line, least specific first) as the reader shows them. */
function shown(names: string): string {
  return names.split("\n").reverse().join(", ");
}

for (
  const name of ["client.pem", "wrong-client.pem", "expired-client.pem", "server.pem", "ca.pem"]
) {
  Deno.test(`x509: ${name} reads as node:crypto reads it`, () => {
    const pem = read(name);
    const expected = new X509Certificate(pem);
    const summary = readCertificate(pem);
    assert.equal(summary.subject, shown(expected.subject));
    assert.equal(summary.issuer, shown(expected.issuer));
    assert.equal(summary.notBefore.getTime(), expected.validFromDate.getTime());
    assert.equal(summary.notAfter.getTime(), expected.validToDate.getTime());
  });
}

Deno.test("x509: the good client's name has both its CN and its O, CN first", () => {
  assert.match(readCertificate(read("client.pem")).subject, /^CN=[^,]+, O=/);
});

Deno.test("x509: a chain file is read by its first certificate (the client's own)", () => {
  const chain = read("client.pem") + read("ca.pem");
  assert.equal(pemBlocks(chain, "CERTIFICATE").length, 2);
  assert.deepEqual(readCertificate(chain), readCertificate(read("client.pem")));
});

Deno.test("x509: a key, an empty file, bad base64 and a cut-short certificate are refused, saying why", () => {
  const pem = read("client.pem");
  const body = pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  const cut = `-----BEGIN CERTIFICATE-----\n${
    body.slice(0, Math.floor(body.length / 8) * 4)
  }\n-----END CERTIFICATE-----\n`;
  const cases: [string, RegExp][] = [
    [read("client.key"), /no CERTIFICATE block/],
    ["", /no CERTIFICATE block/],
    ["-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----", /not valid base64/],
    [cut, /cut short|has no/],
  ];
  for (const [text, why] of cases) {
    assert.throws(() => readCertificate(text), (error: unknown) => {
      assert.ok(error instanceof CertificateFormatError);
      assert.match(error.message, why);
      return true;
    });
  }
});
