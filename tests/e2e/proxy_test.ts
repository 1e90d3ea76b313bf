import assert from "node:assert/strict";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams, type ToolAnswer } from "../support/stdio_server.ts";

/**
 * Deno's fetch honours HTTP_PROXY/HTTPS_PROXY and NO_PROXY. Here Bitbucket's
 * host name resolves nowhere (`.invalid`), so only a proxy can reach it: the
 * fixture plays the proxy, seeing each request in absolute form. Network
 * permission is for the Bitbucket host alone, as a user would grant it.
 */
const BITBUCKET = "http://bitbucket.invalid/bitbucket";

async function listTagsVia(
  env: Record<string, string>,
): Promise<ToolAnswer> {
  const params = stdioServerParams(BITBUCKET, ["--toolsets", "all"]);
  Object.assign(params.env, env);
  const session = new RawStdioSession(params);
  try {
    await session.initialize();
    return await session.callTool(2, "list_tags", { project: "PROJ", repo: "web" });
  } finally {
    await session.close();
  }
}

Deno.test("proxies: HTTP_PROXY carries every request to Bitbucket; --allow-net names Bitbucket only", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  try {
    const proxy = new URL(fixture.url).origin;
    const result = await listTagsVia({ HTTP_PROXY: proxy });
    assert.notEqual(result.isError, true, result.text);
    assert.equal(fixture.requests.length, 1);
    assert.equal(fixture.requests[0]?.headers.host, "bitbucket.invalid");
    assert.equal(fixture.requests[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
  } finally {
    await fixture.close();
  }
});

Deno.test("proxies: NO_PROXY exempts the Bitbucket host from the proxy", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  try {
    const proxy = new URL(fixture.url).origin;
    const result = await listTagsVia({ HTTP_PROXY: proxy, NO_PROXY: "bitbucket.invalid" });
    assert.equal(result.isError, true);
    assert.match(result.text, /cannot reach http:\/\/bitbucket\.invalid/);
    assert.equal(fixture.requests.length, 0, "the proxy was bypassed");
  } finally {
    await fixture.close();
  }
});
