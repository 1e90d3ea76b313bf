import assert from "node:assert/strict";
import { z } from "zod";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../src/bitbucket/transport/errors.ts";
import { refs } from "../../testing/cases/refs.ts";
import { type FixtureBitbucket, startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams } from "../support/stdio_server.ts";
import { TEST_TLS } from "../support/tls.ts";

/** Bitbucket on a private CA: the committed test-only CA and its 127.0.0.1 certificate. */
const CA = TEST_TLS.caFile;
const tls = TEST_TLS;

/** Starts the server with extra `deno run` flags and environment, and calls list_tags once. */
async function listTagsThrough(
  fixture: FixtureBitbucket,
  denoFlags: string[],
  env: Record<string, string> = {},
): Promise<{ isError?: boolean; text: string; tags?: { displayId: string }[] }> {
  const params = stdioServerParams(fixture.url, ["--toolsets", "all"]);
  params.args.splice(2, 0, ...denoFlags);
  Object.assign(params.env, env);
  const session = new RawStdioSession(params);
  try {
    await session.initialize();
    const result = await session.callTool(2, "list_tags", { project: "PROJ", repo: "web" });
    const tags = result.structuredContent?.tags as { displayId: string }[] | undefined;
    return { ...result, tags };
  } finally {
    const { code } = await session.close();
    assert.equal(code, 0);
  }
}

Deno.test("TLS: a Bitbucket on a private CA works when the CA is given with --cert", async () => {
  const fixture = startFixtureBitbucket(refs.routes, { tls });
  try {
    assert.ok(fixture.url.startsWith("https://127.0.0.1:"));
    const result = await listTagsThrough(fixture, ["--cert", CA]);
    assert.notEqual(result.isError, true, result.text);
    assert.equal(result.tags?.[0]?.displayId, "v1.0.0");
    assert.equal(fixture.requests[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
  } finally {
    await fixture.close();
  }
});

Deno.test("TLS: ... or with DENO_CERT", async () => {
  const fixture = startFixtureBitbucket(refs.routes, { tls });
  try {
    const result = await listTagsThrough(fixture, [], { DENO_CERT: CA });
    assert.notEqual(result.isError, true, result.text);
    assert.equal(result.tags?.[0]?.displayId, "v1.0.0");
  } finally {
    await fixture.close();
  }
});

Deno.test("TLS: without the CA, the error names the certificate problem and the fix, and no request is made", async () => {
  const fixture = startFixtureBitbucket(refs.routes, { tls });
  try {
    const result = await listTagsThrough(fixture, []);
    assert.equal(result.isError, true);
    assert.match(
      result.text,
      /the TLS connection to https:\/\/127\.0\.0\.1:\d+ failed \(.*UnknownIssuer\): .*DENO_CERT=\/path\/to\/ca\.pem or deno run --cert \/path\/to\/ca\.pem/,
    );
    assert.ok(!result.text.includes(TEST_TOKEN));
    assert.equal(fixture.requests.length, 0, "nothing was sent over an untrusted connection");
  } finally {
    await fixture.close();
  }
});

Deno.test("TLS: a certificate problem is not retried", async () => {
  const fixture = startFixtureBitbucket(refs.routes, { tls });
  let attempts = 0;
  const client = new BitbucketClient({
    baseUrl: new URL(fixture.url),
    token: TEST_TOKEN,
    timeoutMs: 5000,
    fetch: (input, init) => {
      attempts++;
      return fetch(input, init);
    },
  });
  try {
    const error = await client.request({ path: "/api/latest/projects", schema: z.unknown() }).catch(
      (e) => e,
    );
    assert.ok(error instanceof BitbucketError);
    assert.match(error.message, /TLS connection .* failed/);
    assert.equal(attempts, 1);
  } finally {
    await fixture.close();
  }
});
