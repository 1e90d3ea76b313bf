import assert from "node:assert/strict";
import {
  commitArgs,
  commitIdFor,
  distinctCommitRoutes,
  repoFor,
} from "../../testing/distinct_commits.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { connect } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams } from "../support/stdio_server.ts";

const CALLS = 50;

type CommitResult = { structuredContent?: { commit: { id: string; message: string } } };

function assertOwnAnswer(n: number, result: CommitResult): void {
  assert.deepEqual(
    {
      id: result.structuredContent?.commit.id,
      message: result.structuredContent?.commit.message,
    },
    { id: commitIdFor(n), message: `the commit of ${repoFor(n)}` },
    `call ${n} got its own answer`,
  );
}

Deno.test(`${CALLS} concurrent tool calls each get their own answer, though Bitbucket answers out of order`, async () => {
  await using h = await connect({ routes: distinctCommitRoutes(CALLS, 30) });
  const results = await Promise.all(
    Array.from(
      { length: CALLS },
      (_, n) => h.client.callTool({ name: "get_commit", arguments: commitArgs(n) }),
    ),
  );
  results.forEach((result, n) => assertOwnAnswer(n, result as CommitResult));
  assert.equal(h.fixture.requests.length, CALLS, "one request per call, none retried");
});

Deno.test(`${CALLS} concurrent tool calls over real stdio each get their own answer`, async () => {
  const fixture = startFixtureBitbucket(distinctCommitRoutes(CALLS, 30));
  const session = new RawStdioSession(stdioServerParams(fixture.url, []));
  try {
    await session.request({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    });
    await session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, n) =>
        session.request({
          jsonrpc: "2.0",
          id: n,
          method: "tools/call",
          params: { name: "get_commit", arguments: commitArgs(n) },
        })),
    );
    answers.forEach((answer, n) => {
      assert.equal(answer.id, n);
      assertOwnAnswer(n, answer.result as CommitResult);
    });
  } finally {
    const { code } = await session.close();
    await fixture.close();
    assert.equal(code, 0);
  }
});
