/**
 * Reading a failed handshake as a server asking for a client certificate or
 * refusing ours. The messages are Deno's (rustls') as recorded against
 * `openssl s_server -Verify 1 -verify_return_error` (which sends an alert for
 * each refusal) and against the node:https proxy of the e2e test (which hangs
 * up instead): see tests/e2e/mtls_test.ts for the live ones.
 */
import assert from "node:assert/strict";
import {
  clientAuthFailure,
  clientAuthPage,
  handshakeDetail,
} from "../../../src/bitbucket/transport/client_auth.ts";

const REQUIRED = "received fatal alert: CertificateRequired";
const UNKNOWN_CA = "received fatal alert: UnknownCA";
const EXPIRED = "received fatal alert: CertificateExpired";
const HUNG_UP =
  "peer closed connection without sending TLS close_notify: https://docs.rs/rustls/latest/rustls/manual/_03_howto/index.html#unexpected-eof";
/** Our side refusing the server's certificate: not about client certificates. */
const UNTRUSTED_SERVER = "invalid peer certificate: UnknownIssuer";

Deno.test("client auth: a server wanting a certificate we did not send asks for one", () => {
  assert.equal(clientAuthFailure(REQUIRED, false), "required");
});

Deno.test("client auth: with ours sent, an alert about it or a hang-up mid-handshake is a refusal", () => {
  for (const message of [REQUIRED, UNKNOWN_CA, EXPIRED, HUNG_UP]) {
    assert.equal(clientAuthFailure(message, true), "refused", message);
  }
});

Deno.test("client auth: without ours, a hang-up or another alert is not read as about client certificates", () => {
  for (const message of [UNKNOWN_CA, HUNG_UP, UNTRUSTED_SERVER, "connection refused"]) {
    assert.equal(clientAuthFailure(message, false), undefined, message);
  }
  assert.equal(clientAuthFailure(UNTRUSTED_SERVER, true), undefined);
});

Deno.test("client auth: the detail shown drops rustls' link to its manual", () => {
  assert.equal(handshakeDetail(HUNG_UP), "peer closed connection without sending TLS close_notify");
  assert.equal(handshakeDetail(REQUIRED), REQUIRED);
});

Deno.test("client auth: NGINX's 400 pages name the fix; another status or page names none", () => {
  assert.equal(
    clientAuthPage(400, "<title>400 No required SSL certificate was sent</title>"),
    "send_client_cert",
  );
  assert.equal(
    clientAuthPage(400, "<title>400 The SSL certificate error</title>"),
    "fix_client_cert",
  );
  assert.equal(clientAuthPage(400, "<title>400 Bad Request</title>"), undefined);
  assert.equal(clientAuthPage(403, "No required SSL certificate was sent"), undefined);
});
