/**
 * The real entry point in HTTP mode with `--metrics-listen` and
 * `--log-format json`, as an operator runs it: the metrics are served on their
 * own address (and not on the MCP port) and count the calls made; every
 * stderr line is one JSON object, the Bitbucket request lines naming the
 * call's tool, request id and status; and no line names the caller's token.
 */
import assert from "node:assert/strict";
import { MCP_PATH, METRICS_PATH } from "../../src/server/http.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { freePort } from "../../testing/free_port.ts";
import { ENV_FLAG } from "../../testing/spawn.ts";
import { connectHttp, spawnHttpMain } from "../support/http_server.ts";
import { parseExposition, valueOf } from "../support/prometheus.ts";

const CALLER_TOKEN = "caller-SECRET-e2e-metrics-6666";

Deno.test("serve --http --metrics-listen --log-format json: metrics on their own address, JSON lines naming the call", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const port = freePort();
  const metricsPort = freePort();
  const server = await spawnHttpMain(
    [
      `--allow-net=127.0.0.1:${port},127.0.0.1:${metricsPort},${new URL(fixture.url).host}`,
      ENV_FLAG,
    ],
    [
      "serve",
      "--http",
      `127.0.0.1:${port}`,
      "--metrics-listen",
      `127.0.0.1:${metricsPort}`,
      "--log-format",
      "json",
      "--log-level",
      "debug",
    ],
    { BITBUCKET_URL: fixture.url },
  );
  let stopped: { code: number; stdout: string; stderr: string } | undefined;
  const metricsUrl = new URL(`http://127.0.0.1:${metricsPort}${METRICS_PATH}`);
  const calls = 2;
  try {
    const client = await connectHttp(server.url, "modern", CALLER_TOKEN);
    try {
      for (let i = 0; i < calls; i++) {
        const result = await client.callTool({
          name: "list_branches",
          arguments: { project: "PROJ", repo: "web", limit: 3 },
        });
        assert.notEqual(result.isError, true, JSON.stringify(result));
      }
    } finally {
      await client.close();
    }
    const scraped = await fetch(metricsUrl);
    const scrape = parseExposition(await scraped.text());
    const labels = { tool: "list_branches", outcome: "ok" };
    assert.equal(valueOf(scrape, "bitbucket_mcp_tool_calls_total", labels), calls);
    assert.equal(
      valueOf(scrape, "bitbucket_mcp_bitbucket_requests_total", { class: "2xx" }),
      fixture.requests.length,
    );
    const onMcpPort = await fetch(new URL(METRICS_PATH, server.url));
    assert.equal(onMcpPort.status, 404);
    await onMcpPort.body?.cancel();
    const mcpOnMetrics = await fetch(new URL(MCP_PATH, metricsUrl));
    assert.equal(mcpOnMetrics.status, 404);
    await mcpOnMetrics.body?.cancel();
  } finally {
    stopped = await server.stop();
    await fixture.close();
  }
  assert.equal(stopped.code, 0, stopped.stderr);
  const lines = stopped.stderr.trimEnd().split("\n").map((l) => JSON.parse(l));
  for (const line of lines) {
    assert.equal(new Date(line.time).toISOString(), line.time);
    assert.equal(typeof line.level, "string");
    assert.equal(typeof line.message, "string");
  }
  assert.ok(lines.some((l) => l.message === `metrics at ${metricsUrl.href}`), stopped.stderr);
  const requests = lines.filter((l) => String(l.path).includes("/branches"));
  assert.equal(requests.length, calls, stopped.stderr);
  for (const line of requests) {
    assert.equal(line.tool, "list_branches");
    assert.equal(line.status, 200);
    assert.ok(line.requestId !== undefined, "the call's JSON-RPC id");
  }
  assert.ok(!stopped.stderr.includes(CALLER_TOKEN), "never the token");
});
