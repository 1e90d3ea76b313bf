/**
 * `--log-level`: diagnostics go to stderr, at debug one line per Bitbucket
 * request (method, path relative to the base URL, status, duration) and never
 * the token, a header or a body; stdout stays pure JSON-RPC; at the default
 * level a session of successful requests logs nothing. `--log-format json`:
 * the same lines as JSON objects naming the call (tool, request id) and status.
 */
import assert from "node:assert/strict";
import { createLogger, LOG_FORMATS, loggingFetch } from "../../src/cli/log.ts";
import { pullRequests } from "../../testing/cases/pull_requests.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { runMain, scopedPermissions } from "../../testing/spawn.ts";
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

/** Every stderr line parsed as one JSON object; throws naming a line that is not. */
function jsonLines(stderr: string): Record<string, unknown>[] {
  return stderr.trimEnd().split("\n").map((line) => {
    const parsed = JSON.parse(line);
    assert.equal(typeof parsed, "object", line);
    return parsed as Record<string, unknown>;
  });
}

Deno.test("--log-format json: one object per stderr line, with time (ISO 8601 UTC), level, message, and each request's tool, request id and Bitbucket status", async () => {
  const { stderr, stdout } = await session(["--log-level", "debug", "--log-format", "json"]);
  assertPureJsonRpc(stdout);
  const lines = jsonLines(stderr);
  for (const line of lines) {
    assert.equal(typeof line.message, "string");
    assert.ok(["error", "warn", "info", "debug"].includes(line.level as string));
    assert.equal(new Date(line.time as string).toISOString(), line.time, "ISO 8601 UTC");
  }
  const branches = lines.find((l) => String(l.path).includes("/branches"));
  assert.deepEqual(
    { tool: branches?.tool, requestId: branches?.requestId, status: branches?.status },
    { tool: "list_branches", requestId: 3, status: 200 },
  );
  assert.equal(branches?.level, "debug");
  assert.equal(branches?.method, "GET");
  assert.equal(typeof branches?.durationMs, "number");
  const missing = lines.find((l) => String(l.path).endsWith("/pull-requests/999"));
  assert.deepEqual(
    { tool: missing?.tool, requestId: missing?.requestId, status: missing?.status },
    { tool: "get_pull_request", requestId: 4, status: 404 },
  );
  assert.equal(missing?.level, "info");
  assert.ok(!stderr.includes(TEST_TOKEN), "never the token");
  assert.ok(!/authorization|bearer|x-atlassian/i.test(stderr), "never a header");
});

Deno.test("--log-format rejects an unknown format in one line naming the flag and the choices; in JSON, a start-up problem is a JSON line", async () => {
  // stdin is closed: a server that started anyway would end at once, with status 0.
  const env = { BITBUCKET_URL: "http://127.0.0.1:1", BITBUCKET_TOKEN: TEST_TOKEN };
  const permissions = scopedPermissions("127.0.0.1:1");
  const bad = await runMain(permissions, ["--log-format", "yaml"], env);
  assert.equal(bad.code, 2, bad.stderr);
  assert.equal(
    bad.stderr.trim(),
    `bitbucket-mcp: --log-format must be one of ${LOG_FORMATS.join(", ")}, not "yaml"`,
  );
  const json = await runMain(permissions, ["--log-format", "json", "--log-level", "verbose"], env);
  assert.equal(json.code, 2, json.stderr);
  const [line, ...more] = jsonLines(json.stderr);
  assert.deepEqual(more, []);
  assert.equal(line?.level, "error");
  assert.match(String(line?.message), /^--log-level must be one of/);
});

Deno.test("createLogger json: the level filter holds, fields and the current call are merged in; text ignores them", () => {
  const lines: string[] = [];
  const call = { tool: "list_branches", requestId: "r-1" };
  let current: typeof call | undefined;
  const json = createLogger("info", (l) => lines.push(l), {
    format: "json",
    context: () => current,
  });
  json.log("debug", "dropped");
  current = call;
  json.log("info", "kept", { status: 503 });
  current = undefined;
  json.notice("serving");
  const [kept, notice, ...rest] = lines.map((l) => JSON.parse(l));
  assert.deepEqual(rest, []);
  assert.deepEqual({ ...kept, time: undefined }, {
    time: undefined,
    level: "info",
    message: "kept",
    ...call,
    status: 503,
  });
  assert.deepEqual({ ...notice, time: undefined }, {
    time: undefined,
    level: "info",
    message: "serving",
  });
  const text: string[] = [];
  const plain = createLogger("info", (l) => text.push(l));
  plain.log("info", "kept", { status: 503 });
  plain.notice("serving");
  assert.deepEqual(text, ["bitbucket-mcp: info: kept", "bitbucket-mcp: serving"]);
});
