/**
 * src/bitbucket/transport/fetch_failure.ts: what a failed fetch tells the
 * person. A server that hangs up mid-handshake when we sent no certificate
 * may be one that wants a certificate whose alert was lost to TLS 1.3's race:
 * it is worth another try, and the fix named is the certificate; with ours
 * sent, the same hang-up is a refusal of it.
 */
import assert from "node:assert/strict";
import { describeFetchFailure } from "../../../src/bitbucket/transport/fetch_failure.ts";

const HANG_UP = new TypeError(
  "client error (Connect): peer closed connection without sending TLS close_notify: https://docs.rs/rustls/latest/rustls/manual/_03_howto/index.html#unexpected-eof",
);
const ORIGIN = "https://bitbucket.example.com";

Deno.test("a hang-up mid-handshake, no certificate sent: tried again, and the certificate is the fix named", () => {
  const failure = describeFetchFailure(HANG_UP, ORIGIN);
  assert.equal(failure.transient, true);
  assert.equal(failure.advice, "send_client_cert");
  assert.match(
    failure.reason,
    /hung up during the TLS handshake, as one that wants a client certificate may/,
  );
  assert.ok(!failure.reason.includes("docs.rs"), "rustls' link left out");
});

Deno.test("the same hang-up with our certificate sent is a refusal of it, not tried again", () => {
  const failure = describeFetchFailure(HANG_UP, ORIGIN, undefined, "CN=bitbucket-mcp");
  assert.equal(failure.transient, false);
  assert.equal(failure.advice, "fix_client_cert");
});
