/**
 * `--log-level`: diagnostics go to stderr, at debug one line per Bitbucket
 * request (method, path relative to the base URL, status, duration) and never
 * the token, a header or a body; stdout stays pure JSON-RPC; at the default
 * level a session of successful requests logs nothing.
 */
import assert from "node:assert/strict";
import { createLogger, loggingFetch } from "../../src/cli/log.ts";
import { pullRequests } from "../../testing/cases/pull_requests.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { RawStdioSession, stdioServerParams } from "../support/stdio_server.ts";

/** Initialises, lists the tools, reads the branches and a missing pull request (404), and closes. */
async function session(serverArgs: string[]): Promise<{ stderr: string; stdout: string[] }> {
  const fixture = startFixtureBitbucket([...refs.routes, ...pullRequests.routes]);
  const raw = new RawStdioSession(stdioServerParams(fixture.url, serverArgs));
  let exit = { code: -1, stderr: "" };
  try {
    await raw.request({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "log", version: "0" },
      },
    });
    await raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await raw.request({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const branches = await raw.request({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "list_branches", arguments: { project: "PROJ", repo: "web", limit: 3 } },
    });
    assert.notEqual((branches.result as { isError?: boolean }).isError, true);
    const missing = await raw.request({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "get_pull_request", arguments: { project: "PROJ", repo: "web", pr_id: 999 } },
    });
    assert.equal((missing.result as { isError?: boolean }).isError, true);
  } finally {
    exit = await raw.close();
    await fixture.close();
  }
  assert.equal(exit.code, 0, exit.stderr);
  return { stderr: exit.stderr, stdout: [...raw.stdoutLines] };
}

function assertPureJsonRpc(lines: string[]): void {
  assert.ok(lines.length >= 4);
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", line);
}

Deno.test("--log-level debug: one stderr line per Bitbucket request, with method, path, status and duration, never the token", async () => {
  const { stderr, stdout } = await session(["--log-level", "debug"]);
  assertPureJsonRpc(stdout);
  const lines = stderr.trimEnd().split("\n");
  assert.ok(
    lines.some((l) =>
      /^bitbucket-mcp: debug: GET \/rest\/api\/latest\/projects\/PROJ\/repos\/web\/branches\?\S*limit=3\S* 200 \d+ms$/
        .test(l)
    ),
    stderr,
  );
  assert.ok(
    lines.some((l) =>
      /^bitbucket-mcp: info: GET \/rest\/api\/latest\/projects\/PROJ\/repos\/web\/pull-requests\/999 404 \d+ms$/
        .test(l)
    ),
    stderr,
  );
  assert.ok(!stderr.includes(TEST_TOKEN), "never the token");
  assert.ok(!/authorization|bearer|x-atlassian/i.test(stderr), "never a header");
  assert.ok(!stderr.includes("displayId"), "never a body");
});

Deno.test("--log-level: the default (warn) logs nothing for a session of successful and 404 requests; info adds the 404", async () => {
  const quiet = await session([]);
  assertPureJsonRpc(quiet.stdout);
  assert.equal(quiet.stderr, "");
  const info = await session(["--log-level", "info"]);
  assert.match(info.stderr, /^bitbucket-mcp: info: GET \S+\/pull-requests\/999 404 \d+ms\n$/);
});

Deno.test("--log-level rejects an unknown level at start-up", async () => {
  const fixture = startFixtureBitbucket([]);
  const raw = new RawStdioSession(stdioServerParams(fixture.url, ["--log-level", "verbose"]));
  const { code, stderr } = await raw.exited();
  await fixture.close();
  assert.equal(code, 2);
  assert.equal(
    stderr.trim(),
    "bitbucket-mcp: --log-level must be one of error, warn, info, debug, not verbose",
  );
});

Deno.test("loggingFetch: a request that gets no answer is a warning, a cancelled one is info", async () => {
  const lines: string[] = [];
  const logger = createLogger("warn", (line) => lines.push(line));
  const base = new URL("https://bitbucket.example.com/bitbucket");
  const refused = loggingFetch(base, logger, () => Promise.reject(new TypeError("fetch failed")));
  await assert.rejects(
    refused(new URL("https://bitbucket.example.com/bitbucket/rest/api/latest/projects")),
  );
  const cancelled = loggingFetch(
    base,
    logger,
    () => Promise.reject(new DOMException("The signal has been aborted", "AbortError")),
  );
  await assert.rejects(cancelled("https://bitbucket.example.com/bitbucket/rest/x"));
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(
    lines[0]!,
    /^bitbucket-mcp: warn: GET \/rest\/api\/latest\/projects no answer \(TypeError\) \d+ms$/,
  );
});
