/**
 * check's diagnoses of a proxy in front of Bitbucket that demands a client
 * certificate: a refused handshake (rustls' words) and NGINX's 400 pages
 * (its 496 "No required SSL certificate was sent" and 495 "The SSL
 * certificate error" pages, as ngx_http_special_response.c writes them).
 */
import assert from "node:assert/strict";
import { diagnoseConnection, diagnoseNotBitbucket } from "../../src/cli/check_diagnosis.ts";
import { CLI_HINTS } from "../../src/cli/hints.ts";

const PROBE = new URL("https://bitbucket.example.com/rest/api/latest/application-properties");

/** NGINX's error page for `status` with `title`, as it sends them. */
function nginxPage(title: string): string {
  return `<html>\r\n<head><title>400 ${title}</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>${title}</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

function failed(message: string): Error {
  return new TypeError("fetch failed", { cause: new Error(message) });
}

Deno.test("check diagnosis: a handshake the proxy ended for want of a certificate says to set the two variables", () => {
  const found = diagnoseConnection(
    failed("received fatal alert: CertificateRequired"),
    PROBE,
    1000,
  );
  assert.match(found.detail, /^the server at bitbucket\.example\.com:443 asked for a client cert/);
  assert.equal(found.fix, CLI_HINTS.send_client_cert);
});

Deno.test("check diagnosis: a handshake refused with ours sent names it; without ours, a TLS failure stays one", () => {
  const alert = failed("received fatal alert: UnknownCA");
  const refused = diagnoseConnection(alert, PROBE, 1000, "CN=alice");
  assert.match(refused.detail, /refused our client certificate CN=alice \(received fatal alert/);
  assert.equal(refused.fix, CLI_HINTS.fix_client_cert);
  const untrusted = diagnoseConnection(failed("invalid peer certificate: UnknownIssuer"), PROBE, 1);
  assert.match(untrusted.fix, /DENO_CERT/);
});

Deno.test("check diagnosis: NGINX's 400 pages about client certificates are read as such, not as a wrong URL", () => {
  const none = diagnoseNotBitbucket(
    400,
    "text/html",
    nginxPage("No required SSL certificate was sent"),
    null,
    PROBE,
  );
  assert.match(none.detail, /asked for a client certificate \("400 No required SSL certificate/);
  assert.equal(none.fix, CLI_HINTS.send_client_cert);
  const bad = diagnoseNotBitbucket(
    400,
    "text/html",
    nginxPage("The SSL certificate error"),
    null,
    PROBE,
  );
  assert.match(bad.detail, /refused our client certificate/);
  assert.equal(bad.fix, CLI_HINTS.fix_client_cert);
  const other = diagnoseNotBitbucket(400, "text/html", nginxPage("Bad Request"), null, PROBE);
  assert.doesNotMatch(other.fix, /CLIENT_CERT/);
});
