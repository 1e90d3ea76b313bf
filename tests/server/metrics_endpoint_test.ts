/**
 * `/metrics` of the HTTP mode (src/server/metrics_endpoint.ts), scraped
 * around real calls through the v2 client: the series move as the calls did
 * (ok, error, refused, a 429 retried, a confirmation accepted and one
 * declined), every line is in the exposition format, nothing in it names a
 * token, a user or an argument, and a metrics address of its own serves them
 * there and only there.
 */
import assert from "node:assert/strict";
import { VERSION } from "../../src/version.ts";
import { HEALTH_PATH, MCP_PATH, METRICS_PATH } from "../../src/server/http.ts";
import { EXPOSITION_CONTENT_TYPE } from "../../src/metrics/registry.ts";
import {
  CALL_OUTCOMES,
  CONFIRMATION_OUTCOMES,
  LATENCY_BUCKETS_SECONDS,
  ServerMetrics,
} from "../../src/metrics/server_metrics.ts";
import { PR, pullRequests, REPO } from "../../testing/cases/pull_requests.ts";
import type { Route } from "../../testing/fixture_bitbucket.ts";
import { freePort } from "../../testing/free_port.ts";
import { connectHttp, startHttp } from "../support/http_server.ts";
import { HOSTILE_VALUES } from "../support/hostile_values.ts";
import { parseExposition, type Scrape, valueOf } from "../support/prometheus.ts";

const SERVER_TOKEN = "server-wide-SECRET-metrics-4444";
const CALLER_TOKEN = "caller-SECRET-metrics-5555";
const USERNAME = "metrics-user-SECRET";
const PR_ARGS = { project: "PROJ", repo: "web", pr_id: 42 };

async function scrape(url: URL): Promise<{ text: string; parsed: Scrape; type: string | null }> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  const text = await response.text();
  return { text, parsed: parseExposition(text), type: response.headers.get("content-type") };
}

function metricsUrl(mcp: URL): URL {
  return new URL(METRICS_PATH, mcp);
}

const calls = (s: Scrape, tool: string, outcome: string) =>
  valueOf(s, "bitbucket_mcp_tool_calls_total", { tool, outcome });

Deno.test("metrics: tool calls, latency, Bitbucket requests, a 429 retried and refusals move as the calls did", async () => {
  let limited = 0;
  let missing = 0;
  // The first read of #42 is answered 429 (retry at once); the retry gets the real answer.
  const tooMany: Route = {
    method: "GET",
    path: PR,
    status: 429,
    headers: { "Retry-After": "0" },
    once: true,
    respond: () => (limited++, { errors: [{ message: "Rate limit exceeded" }] }),
  };
  // #998 is not there (404): the tool throws.
  const gone: Route = {
    method: "GET",
    path: `${REPO}/pull-requests/998`,
    status: 404,
    respond: () => (missing++, { errors: [{ message: "Pull request 998 does not exist" }] }),
  };
  const metrics = new ServerMetrics(VERSION);
  await using h = startHttp({
    routes: [tooMany, gone, ...pullRequests.routes],
    serverToken: SERVER_TOKEN,
    metrics,
  });
  const client = await connectHttp(h.url, "modern");
  try {
    const before = (await scrape(metricsUrl(h.url))).parsed;
    assert.equal(calls(before, "get_pull_request", "ok"), 0);

    const ok = await client.callTool({ name: "get_pull_request", arguments: PR_ARGS });
    assert.notEqual(ok.isError, true, JSON.stringify(ok));
    const failed = await client.callTool({
      name: "get_pull_request",
      arguments: { ...PR_ARGS, pr_id: 998 },
    });
    assert.equal(failed.isError, true);
    const hostile = HOSTILE_VALUES.filter((v) => typeof v === "string");
    for (const value of hostile) {
      const refused = await client.callTool({
        name: "get_pull_request",
        arguments: { ...PR_ARGS, pr_id: value },
      });
      assert.equal(refused.isError, true);
    }

    const after = (await scrape(metricsUrl(h.url))).parsed;
    const tool = "get_pull_request";
    assert.equal(calls(after, tool, "ok"), 1);
    assert.equal(calls(after, tool, "error"), 1);
    assert.equal(calls(after, tool, "refused"), hostile.length);
    const made = 2 + hostile.length;
    const histogram = "bitbucket_mcp_tool_call_duration_seconds";
    assert.equal(valueOf(after, `${histogram}_count`, { tool }), made);
    assert.equal(valueOf(after, `${histogram}_bucket`, { tool, le: "+Inf" }), made);
    const buckets = LATENCY_BUCKETS_SECONDS.map((le) =>
      valueOf(after, `${histogram}_bucket`, { tool, le: String(le) })
    );
    assert.deepEqual(buckets, [...buckets].sort((a, b) => a - b), "buckets are cumulative");
    assert.ok(valueOf(after, `${histogram}_sum`, { tool }) > 0);
    assert.equal(valueOf(after, "bitbucket_mcp_tool_calls_in_flight"), 0);

    const seen = h.fixture.requests.length;
    assert.equal(limited, 1);
    assert.equal(missing, 1);
    assert.equal(valueOf(after, "bitbucket_mcp_bitbucket_rate_limited_total"), limited);
    assert.equal(valueOf(after, "bitbucket_mcp_bitbucket_retries_total"), limited);
    const byClass = (c: string) =>
      valueOf(after, "bitbucket_mcp_bitbucket_requests_total", { class: c });
    assert.equal(byClass("4xx"), limited + missing);
    assert.equal(byClass("5xx"), 0);
    assert.equal(byClass("2xx"), seen - limited - missing);
    assert.equal(byClass("network"), 0);
    assert.equal(valueOf(after, "bitbucket_mcp_build_info", { version: VERSION }), 1);
    assert.ok(valueOf(after, "process_resident_memory_bytes") > 0);
    assert.ok(valueOf(after, "bitbucket_mcp_heap_bytes", { kind: "used" }) > 0);
  } finally {
    await client.close();
  }
});

Deno.test("metrics: a confirmation accepted and one declined are counted, and the calls' outcomes with them", async () => {
  const metrics = new ServerMetrics(VERSION);
  await using h = startHttp({
    routes: pullRequests.routes,
    serverToken: SERVER_TOKEN,
    ask: true,
    metrics,
  });
  const answers = [
    { action: "accept" as const, content: { confirm: true } },
    { action: "decline" as const },
  ];
  let asked = 0;
  const client = await connectHttp(h.url, "modern", undefined, () => answers[asked++]!);
  try {
    for (const _ of answers) {
      await client.callTool({ name: "merge_pull_request", arguments: PR_ARGS });
    }
    const s = (await scrape(metricsUrl(h.url))).parsed;
    const confirmations = (outcome: string) =>
      valueOf(s, "bitbucket_mcp_confirmations_total", { outcome });
    assert.equal(asked, answers.length);
    assert.equal(confirmations("asked"), asked);
    assert.equal(confirmations("accepted"), answers.filter((a) => a.action === "accept").length);
    assert.equal(confirmations("declined"), answers.filter((a) => a.action === "decline").length);
    const tool = "merge_pull_request";
    assert.equal(calls(s, tool, "input_required"), asked);
    assert.equal(calls(s, tool, "ok"), 1);
    assert.equal(calls(s, tool, "declined"), 1);
  } finally {
    await client.close();
  }
});

Deno.test("metrics: every line is HELP, TYPE or a sample; each family is typed; no token, user name or argument anywhere", async () => {
  const metrics = new ServerMetrics(VERSION);
  await using h = startHttp({
    routes: pullRequests.routes,
    serverToken: SERVER_TOKEN,
    username: USERNAME,
    metrics,
  });
  const hostile = HOSTILE_VALUES.filter((v): v is string => typeof v === "string" && v.length > 3);
  for (const token of [undefined, CALLER_TOKEN]) {
    const client = await connectHttp(h.url, "modern", token);
    try {
      for (const value of hostile) {
        await client.callTool({ name: "get_pull_request", arguments: { ...PR_ARGS, repo: value } });
        await client.callTool({ name: "search_code", arguments: { query: value } });
      }
    } finally {
      await client.close();
    }
  }
  const { text, parsed, type } = await scrape(metricsUrl(h.url));
  assert.equal(type, EXPOSITION_CONTENT_TYPE);
  for (const sample of parsed.samples) {
    const family = sample.name.replace(/_(bucket|sum|count)$/, "");
    assert.ok(
      parsed.types.has(sample.name) || parsed.types.get(family) === "histogram",
      sample.name,
    );
    assert.ok(parsed.help.has(sample.name) || parsed.help.has(family), sample.name);
  }
  const outcomes = new Set(parsed.samples.flatMap((s) => s.labels.outcome ?? []));
  const known: readonly string[] = [...CALL_OUTCOMES, ...CONFIRMATION_OUTCOMES];
  for (const outcome of outcomes) assert.ok(known.includes(outcome), outcome);
  for (const secret of [SERVER_TOKEN, CALLER_TOKEN, USERNAME, ...hostile]) {
    assert.ok(!text.includes(secret), `the scrape carries ${JSON.stringify(secret)}`);
  }
  // Label values are the server's own: tool names, outcomes, classes, the version, kinds.
  const values = new Set(parsed.samples.flatMap((s) => Object.values(s.labels)));
  for (const value of values) assert.match(value, /^[\w.+-]+$/, value);
});

Deno.test("metrics: served with no token and no Host check, GET and HEAD only", async () => {
  await using h = startHttp({ metrics: new ServerMetrics(VERSION) });
  const url = metricsUrl(h.url);
  const head = await fetch(url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  const post = await fetch(url, { method: "POST", body: "{}" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
  await post.body?.cancel();
  const health = await fetch(new URL(HEALTH_PATH, h.url));
  assert.equal(health.status, 200);
  await health.body?.cancel();
});

Deno.test("metrics: with an address of their own, served there and not on the MCP port", async () => {
  const port = freePort();
  const metrics = new ServerMetrics(VERSION);
  await using h = startHttp({
    metrics,
    metricsAddress: { hostname: "127.0.0.1", port },
    serverToken: SERVER_TOKEN,
    routes: pullRequests.routes,
  });
  assert.equal(h.metricsUrl?.href, `http://127.0.0.1:${port}${METRICS_PATH}`);
  const client = await connectHttp(h.url, "modern");
  try {
    await client.callTool({ name: "get_pull_request", arguments: PR_ARGS });
  } finally {
    await client.close();
  }
  const there = await scrape(h.metricsUrl!);
  assert.equal(calls(there.parsed, "get_pull_request", "ok"), 1);
  const onMcpPort = await fetch(metricsUrl(h.url));
  assert.equal(onMcpPort.status, 404);
  await onMcpPort.body?.cancel();
  const mcpThere = await fetch(new URL(MCP_PATH, h.metricsUrl));
  assert.equal(mcpThere.status, 404);
  await mcpThere.body?.cancel();
});

Deno.test("metrics: a call waiting on Bitbucket is in flight until it answers", async () => {
  const slow: Route = {
    method: "GET",
    path: PR,
    delayMs: 300,
    fixture: "pull_requests/pr-42.json",
  };
  await using h = startHttp({
    metrics: new ServerMetrics(VERSION),
    serverToken: SERVER_TOKEN,
    routes: [slow, ...pullRequests.routes],
  });
  const client = await connectHttp(h.url, "modern");
  try {
    const call = client.callTool({ name: "get_pull_request", arguments: PR_ARGS });
    await h.fixture.until(() => h.fixture.requests.length > 0);
    const during = (await scrape(metricsUrl(h.url))).parsed;
    assert.equal(valueOf(during, "bitbucket_mcp_tool_calls_in_flight"), 1);
    await call;
    const after = (await scrape(metricsUrl(h.url))).parsed;
    assert.equal(valueOf(after, "bitbucket_mcp_tool_calls_in_flight"), 0);
  } finally {
    await client.close();
  }
});

Deno.test("metrics: under the audit log, refusals and confirmations are still counted, and the audit still records them", async () => {
  const lines: Record<string, unknown>[] = [];
  const audit = {
    sink: (l: string) => lines.push(JSON.parse(l)),
    failure: "refuse",
    warn() {},
  } as const;
  const metrics = new ServerMetrics(VERSION);
  await using h = startHttp({
    routes: pullRequests.routes,
    serverToken: SERVER_TOKEN,
    ask: true,
    audit,
    metrics,
  });
  const client = await connectHttp(h.url, "modern", undefined, () => ({ action: "decline" }));
  try {
    await client.callTool({ name: "merge_pull_request", arguments: PR_ARGS });
    await client.callTool({ name: "get_pull_request", arguments: { ...PR_ARGS, pr_id: "x" } });
  } finally {
    await client.close();
  }
  const s = (await scrape(metricsUrl(h.url))).parsed;
  const recorded = lines.filter((l) => l.event === "call");
  const declined = recorded.filter((l) => l.confirmation === "declined").length;
  const invalid =
    recorded.filter((l) => (l.outcome as { kind?: string }).kind === "invalid_arguments").length;
  assert.equal(declined, 1);
  assert.equal(invalid, 1);
  assert.equal(valueOf(s, "bitbucket_mcp_confirmations_total", { outcome: "declined" }), declined);
  assert.equal(calls(s, "merge_pull_request", "declined"), declined);
  assert.equal(calls(s, "get_pull_request", "refused"), invalid);
});
