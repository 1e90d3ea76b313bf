import assert from "node:assert/strict";
import { z } from "zod";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../../src/bitbucket/transport/errors.ts";
import { parseFlags } from "../../../src/cli/flags.ts";
import { CLI_HINTS } from "../../../src/cli/hints.ts";
import { StartupError } from "../../../src/config.ts";
import { startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import { connect, firstText, TEST_TOKEN } from "../../../testing/harness.ts";
import { RawStdioSession, stdioServerParams } from "../../support/stdio_server.ts";

const Any = z.unknown();
const PATH = "/api/latest/x";
const MiB = 1024 * 1024;
const BRANCHES = "/api/latest/projects/PROJ/repos/web/branches";

function clientFor(url: string, maxResponseBytes?: number) {
  return new BitbucketClient({
    baseUrl: new URL(url),
    token: TEST_TOKEN,
    timeoutMs: 5000,
    maxResponseBytes,
    hints: CLI_HINTS,
  });
}

async function failure(promise: Promise<unknown>): Promise<BitbucketError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof BitbucketError, `expected a BitbucketError, got ${error}`);
  return error;
}

/** A JSON body of about `bytes` bytes. */
function jsonOfSize(bytes: number): string {
  return JSON.stringify({ values: [], padding: "p".repeat(Math.max(0, bytes - 30)) });
}

Deno.test("a body that never ends is cut off at the cap with a clear error, and reading stops there", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, fault: "endless" }]);
  try {
    const error = await failure(
      clientFor(fixture.url, 1 * MiB).request({ path: PATH, schema: Any }),
    );
    assert.equal(error.kind, "invalid_response");
    assert.match(
      error.message,
      /^GET \/api\/latest\/x failed: 200 OK: the answer is larger than 1 MiB, the most this server reads; .*--max-response-mb/,
    );
    await fixture.until(() => fixture.requests[0]!.aborted);
    assert.equal(fixture.requests.length, 1, "a body over the cap is not retried");
  } finally {
    await fixture.close();
  }
});

Deno.test("a body whose Content-Length is over the cap is refused; one within it is read", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: `${PATH}/big`, body: jsonOfSize(MiB + 100) },
    { method: "GET", path: `${PATH}/fits`, body: jsonOfSize(MiB - 100) },
  ]);
  try {
    const client = clientFor(fixture.url, MiB);
    const error = await failure(client.request({ path: `${PATH}/big`, schema: Any }));
    assert.match(error.message, /larger than 1 MiB/);
    const { body: fits } = await client.request({
      path: `${PATH}/fits`,
      schema: z.object({ padding: z.string() }),
    });
    assert.ok(fits.padding.length > MiB - 200);
  } finally {
    await fixture.close();
  }
});

Deno.test("a compressed body is capped by its size once decompressed, not by its Content-Length", async () => {
  // 4 MiB of JSON that gzip turns into a few KiB: a small download that would fill memory.
  const json = new TextEncoder().encode(jsonOfSize(4 * MiB));
  const gzipped = new Uint8Array(
    await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
  assert.ok(gzipped.length < 64 * 1024);
  const fixture = startFixtureBitbucket([{
    method: "GET",
    path: PATH,
    body: gzipped,
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
  }]);
  try {
    const error = await failure(clientFor(fixture.url, MiB).request({ path: PATH, schema: Any }));
    assert.match(error.message, /larger than 1 MiB/);
    const { body: whole } = await clientFor(fixture.url, 8 * MiB).request({
      path: PATH,
      schema: z.object({ padding: z.string() }),
    });
    assert.ok(whole.padding.length > 4 * MiB - 100, "the same body within the cap is read whole");
  } finally {
    await fixture.close();
  }
});

Deno.test("the default cap is 8 MiB", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, body: jsonOfSize(9 * MiB) }]);
  try {
    const error = await failure(clientFor(fixture.url).request({ path: PATH, schema: Any }));
    assert.match(error.message, /larger than 8 MiB/);
  } finally {
    await fixture.close();
  }
});

Deno.test("an error answer with an endless body is reported by its status, reading only the start of it", async () => {
  const fixture = startFixtureBitbucket([{
    method: "GET",
    path: PATH,
    status: 404,
    fault: "endless",
  }]);
  try {
    const error = await failure(clientFor(fixture.url).request({ path: PATH, schema: Any }));
    assert.equal(error.kind, "not_found");
    await fixture.until(() => fixture.requests[0]!.aborted);
  } finally {
    await fixture.close();
  }
});

Deno.test("raw content (getBytes) never reads past the response cap either", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, fault: "endless" }]);
  try {
    const read = await clientFor(fixture.url, MiB).getBytes({ path: PATH, maxBytes: 10 * MiB });
    assert.equal(read.bytes.length, MiB);
    assert.equal(read.complete, false);
  } finally {
    await fixture.close();
  }
});

for (const status of [204, 200]) {
  Deno.test(`an empty ${status} where a JSON body was expected is a clear error, not a schema dump`, async () => {
    await using h = await connect({
      routes: [{ method: "GET", path: BRANCHES, status, body: status === 200 ? "" : undefined }],
    });
    const result = await h.client.callTool({
      name: "list_branches",
      arguments: { project: "PROJ", repo: "web", limit: 3 },
    });
    assert.equal(result.isError, true);
    const text = firstText(result);
    assert.match(
      text,
      new RegExp(
        `^GET ${BRANCHES} failed: ${status} (No Content|OK): no body where a JSON body was expected; check that BITBUCKET_URL`,
      ),
    );
    assert.doesNotMatch(text, /expected object|received|invalid_type/);
  });
}

Deno.test("--max-response-mb sets the cap of a spawned server", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: BRANCHES, body: jsonOfSize(MiB + 100) },
  ]);
  const session = new RawStdioSession(stdioServerParams(fixture.url, ["--max-response-mb", "1"]));
  try {
    await session.initialize();
    const result = await session.callTool(2, "list_branches", { project: "PROJ", repo: "web" });
    assert.equal(result.isError, true);
    assert.match(result.text, /larger than 1 MiB/);
  } finally {
    await session.close();
    await fixture.close();
  }
});

Deno.test("--max-response-mb takes MiB from 0 to 1024, and refuses anything else naming the flag", () => {
  assert.equal(parseFlags(["--max-response-mb", "0.5"]).maxResponseMb, 0.5);
  assert.equal(parseFlags([]).maxResponseMb, undefined);
  for (const bad of ["0", "-1", "lots", "2048"]) {
    assert.throws(
      () => parseFlags([`--max-response-mb=${bad}`]),
      (error: Error) =>
        error instanceof StartupError &&
        /--max-response-mb must be a number of MiB from 0 to 1024/.test(error.message),
    );
  }
});
