import assert from "node:assert/strict";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { connect, firstText } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams } from "../support/stdio_server.ts";

const BRANCHES = "/api/latest/projects/PROJ/repos/web/branches";
const call = { name: "list_branches", arguments: { project: "PROJ", repo: "web", limit: 3 } };
/** The first request for branches hangs until the client gives up; later ones are answered at once. */
const hanging = [
  { method: "GET" as const, path: BRANCHES, delayMs: 10_000, once: true },
  ...refs.routes,
];

Deno.test("cancelling a tools/call (AbortSignal) aborts the Bitbucket request, and the next call works", async () => {
  // A timeout far beyond the fixture's patience: only the cancellation can end the request in time.
  await using h = await connect({ routes: hanging, timeoutMs: 60_000 });
  const controller = new AbortController();
  const pending = h.client.callTool(call, { signal: controller.signal });
  await h.fixture.until(() => h.fixture.requests.length === 1);
  controller.abort("the user changed their mind");
  await assert.rejects(pending);
  await h.fixture.until(() => h.fixture.requests[0]!.aborted);

  const next = await h.client.callTool(call);
  assert.notEqual(next.isError, true);
  assert.equal((next.structuredContent as { branches: unknown[] }).branches.length, 3);
});

Deno.test("notifications/cancelled over real stdio aborts the Bitbucket request, and the server keeps serving", async () => {
  const fixture = startFixtureBitbucket(hanging);
  const session = new RawStdioSession(stdioServerParams(fixture.url, []));
  try {
    await session.initialize();
    await session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await session.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: call });
    await fixture.until(() => fixture.requests.length === 1);
    await session.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "no longer needed" },
    });
    await fixture.until(() => fixture.requests[0]!.aborted);

    const next = await session.request({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: call,
    });
    const result = next.result as { structuredContent: { branches: unknown[] } };
    assert.equal(result.structuredContent.branches.length, 3);
  } finally {
    const { code } = await session.close();
    await fixture.close();
    assert.equal(code, 0);
  }
});

Deno.test("a call slower than --timeout is an error that says so, the request is abandoned, and the next call works", async () => {
  await using h = await connect({ routes: hanging, timeoutMs: 200 });
  const result = await h.client.callTool(call);
  assert.equal(result.isError, true);
  assert.match(firstText(result), /no answer within 200 ms \(raise --timeout/);
  await h.fixture.until(() => h.fixture.requests[0]!.aborted);
  assert.equal(h.fixture.requests.length, 1, "a timeout is not retried");

  const next = await h.client.callTool(call);
  assert.notEqual(next.isError, true);
});
