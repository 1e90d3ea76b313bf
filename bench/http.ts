/**
 * HTTP mode figures: the real entry point serving `serve --http` in a child
 * process, against the fixture Bitbucket. A real MCP client's `tools/call`
 * request is recorded once (headers and body as the SDK sends them) and then
 * replayed with plain `fetch`, so the figures measure the server, not the
 * client library; a direct fetch of the same fixture page runs beside it.
 * The concurrent calls run again while `/metrics` is scraped every
 * {@link SCRAPE_EVERY_MS}, to show what a scrape costs the calls. The SDK
 * floor (`sdk_http_server.ts`: the SDK's handler serving the same call with
 * nothing of ours) runs in the same rounds, so each figure has beside it what
 * no server on this SDK and runtime can beat.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ALL_ROUTES } from "../testing/cases/mod.ts";
import { startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { freePort } from "../testing/free_port.ts";
import { TEST_TOKEN } from "../testing/harness.ts";
import { ENV_FLAG, MAIN, serveHttpMain } from "../testing/spawn.ts";
import { EVERY_TOOLSET, processCpuMs, processMemory } from "./server_process.ts";
import { pairedRatios, summarize, type Summary } from "./stats.ts";

/** Rounds of the concurrent run, direct fetches and tool calls in turn. */
const ROUNDS = 5;

/** How often `/metrics` is scraped during the scraped rounds: 150 times Prometheus's default 15 s. */
export const SCRAPE_EVERY_MS = 100;

/** One era's figures: one call at a time, then `concurrency` at once. */
export interface HttpEraFigures {
  era: "modern" | "legacy";
  calls: number;
  toolCall: Summary;
  directFetch: Summary;
  p50Difference: number;
  concurrency: number;
  concurrentCalls: number;
  toolCallsPerSecond: number;
  directFetchesPerSecond: number;
  /** Tool calls per second over direct fetches per second, paired round by round. */
  ratio: Summary;
  /** The SDK floor's tool calls per second at `concurrency`. */
  sdkServerCallsPerSecond: number;
  /** The SDK floor's calls per second over direct fetches per second, paired round by round. */
  sdkServerRatio: Summary;
  /** This server's calls per second over the SDK floor's, paired round by round. */
  overSdkServer: Summary;
  /** The server process's CPU time (user + system, all threads) per concurrent call, in ms. */
  serverCpuMsPerCall: number;
  /** Tool calls per second at `concurrency` while `/metrics` is scraped every {@link SCRAPE_EVERY_MS}. */
  scrapedToolCallsPerSecond: number;
  /** Scraped over unscraped calls per second, paired round by round (1: a scrape costs nothing). */
  scrapedRatio: Summary;
  /** Scrapes answered during the scraped rounds (each a full exposition, checked). */
  scrapes: number;
}

/** The HTTP figures: both eras, and the server's resident memory in MB. */
export interface HttpFigures {
  eras: HttpEraFigures[];
  rssAfterConcurrentMb: number;
  rssAfterIdleMb: number;
  /** The SDK floor's resident memory after the same load, and after the same idle wait. */
  sdkServerRssAfterConcurrentMb: number;
  sdkServerRssAfterIdleMb: number;
}

const SDK_HTTP_SERVER = new URL("./sdk_http_server.ts", import.meta.url).pathname;

/** `serve --http` of `main` on a free port, with net permission for it and the fixture only. */
function serveOn(fixtureUrl: string, main: string, args: string[], env: Record<string, string>) {
  const port = freePort();
  return serveHttpMain({
    denoFlags: [`--allow-net=127.0.0.1:${port},${new URL(fixtureUrl).host}`, ENV_FLAG],
    address: `127.0.0.1:${port}`,
    args,
    env: { BITBUCKET_URL: fixtureUrl, ...env },
    main,
  });
}

/** A request as the client sent it, to replay. */
interface Recorded {
  url: string;
  headers: [string, string][];
  body: string;
}

const TAGS = { name: "list_tags", arguments: { project: "PROJ", repo: "web" } };

/** Connects a real client in `era`, calls list_tags once, and returns that call's HTTP request. */
async function recordToolCall(url: URL, era: "modern" | "legacy"): Promise<Recorded> {
  let recorded: Recorded | undefined;
  const transport = new StreamableHTTPClientTransport(url, {
    authProvider: { token: () => Promise.resolve(TEST_TOKEN) },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const body = await request.clone().text();
      if (body.includes('"tools/call"')) {
        recorded = { url: request.url, headers: [...request.headers], body };
      }
      return fetch(request);
    },
  });
  const client = new Client(
    { name: "bench-http", version: "0" },
    { versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" } },
  );
  await client.connect(transport);
  await client.callTool(TAGS);
  await client.close();
  if (!recorded) throw new Error("the client sent no tools/call request");
  return recorded;
}

/** Replays a recorded call; fails unless the answer carries the fixture's first tag. */
async function replay(call: Recorded): Promise<void> {
  const response = await fetch(call.url, {
    method: "POST",
    headers: call.headers,
    body: call.body,
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes("v1.0.0")) {
    throw new Error(`unexpected answer ${response.status}: ${text.slice(0, 200)}`);
  }
}

/**
 * Runs `body` while `/metrics` at `url` is fetched every {@link SCRAPE_EVERY_MS};
 * its result, and how many scrapes were answered.
 */
async function scraped<T>(url: URL, body: () => Promise<T>): Promise<[T, number]> {
  let scrapes = 0;
  let running = true;
  const scraper = (async () => {
    while (running) {
      const text = await (await fetch(url)).text();
      if (!text.includes("bitbucket_mcp_tool_calls_total")) throw new Error("not the metrics");
      scrapes++;
      await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS));
    }
  })();
  try {
    return [await body(), scrapes];
  } finally {
    running = false;
    await scraper;
  }
}

/** `total` calls of `once`, `concurrency` at a time; calls per second. */
async function throughput(
  once: () => Promise<void>,
  total: number,
  concurrency: number,
): Promise<number> {
  let left = total;
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (left-- > 0) await once();
  }));
  return total / ((performance.now() - start) / 1000);
}

/**
 * Spawns `main.ts serve --http` (another checkout's `main` to compare) with
 * net permission for its listen address and the fixture only, measures both
 * eras, then reads its memory at the end of the concurrent runs and after 2 s
 * idle.
 */
export async function measureHttp(
  calls: number,
  concurrency: number,
  main = MAIN,
): Promise<HttpFigures> {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const server = await serveOn(fixture.url, main, [...EVERY_TOOLSET], {});
  // The floor has no sign-in of its own: it sends the fixture the token it is given.
  const floor = await serveOn(fixture.url, SDK_HTTP_SERVER, [], { BITBUCKET_TOKEN: TEST_TOKEN });
  const { child } = server;
  try {
    const url = new URL(server.url);
    const direct = `${fixture.url}/rest/api/latest/projects/PROJ/repos/web/tags?start=0&limit=25`;
    const headers = { Authorization: `Bearer ${TEST_TOKEN}`, Accept: "application/json" };
    const directOnce = async () => {
      await (await fetch(direct, { headers })).json();
    };
    const eras: HttpEraFigures[] = [];
    for (const era of ["modern", "legacy"] as const) {
      const call = await recordToolCall(url, era);
      const floorCall = await recordToolCall(new URL(floor.url), era);
      for (let i = 0; i < 50; i++) await replay(floorCall);
      const viaTool: number[] = [];
      const viaFetch: number[] = [];
      for (let i = 0; i < calls + 50; i++) {
        let start = performance.now();
        await replay(call);
        const tool = performance.now() - start;
        start = performance.now();
        await directOnce();
        const plain = performance.now() - start;
        if (i >= 50) { // the first 50 pairs warm both paths up
          viaTool.push(tool);
          viaFetch.push(plain);
        }
      }
      // Rounds of direct fetches and tool calls in turn, so that machine drift cancels out.
      const concurrentCalls = calls * 2;
      const perRound = Math.ceil(concurrentCalls / ROUNDS);
      const direct: number[] = [];
      const tool: number[] = [];
      const viaFloor: number[] = [];
      const withScrapes: number[] = [];
      let scrapes = 0;
      let cpuMs = 0;
      const metricsUrl = new URL("/metrics", url);
      for (let round = 0; round < ROUNDS; round++) {
        const scrapedRound = async () => {
          const [perSecond, scrapesNow] = await scraped(
            metricsUrl,
            () => throughput(() => replay(call), perRound, concurrency),
          );
          withScrapes.push(perSecond);
          scrapes += scrapesNow;
        };
        // The scraped round goes first every other round, so that drift cancels out.
        if (round % 2 === 1) await scrapedRound();
        direct.push(await throughput(directOnce, perRound, concurrency));
        const before = await processCpuMs(child.pid);
        tool.push(await throughput(() => replay(call), perRound, concurrency));
        cpuMs += await processCpuMs(child.pid) - before;
        viaFloor.push(await throughput(() => replay(floorCall), perRound, concurrency));
        if (round % 2 === 0) await scrapedRound();
      }
      const directFetchesPerSecond = summarize(direct).median;
      const toolCallsPerSecond = summarize(tool).median;
      const ratio = summarize(pairedRatios(tool, direct));
      const toolCall = summarize(viaTool, true);
      const directFetch = summarize(viaFetch, true);
      eras.push({
        era,
        calls,
        toolCall,
        directFetch,
        p50Difference: toolCall.median - directFetch.median,
        concurrency,
        concurrentCalls,
        toolCallsPerSecond,
        directFetchesPerSecond,
        ratio,
        sdkServerCallsPerSecond: summarize(viaFloor).median,
        sdkServerRatio: summarize(pairedRatios(viaFloor, direct)),
        overSdkServer: summarize(pairedRatios(tool, viaFloor)),
        serverCpuMsPerCall: cpuMs / (perRound * ROUNDS),
        scrapedToolCallsPerSecond: summarize(withScrapes).median,
        scrapedRatio: summarize(pairedRatios(withScrapes, tool)),
        scrapes,
      });
    }
    const rssAfterConcurrentMb = (await processMemory(child.pid)).rssMb;
    const sdkServerRssAfterConcurrentMb = (await processMemory(floor.child.pid)).rssMb;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfterIdleMb = (await processMemory(child.pid)).rssMb;
    const sdkServerRssAfterIdleMb = (await processMemory(floor.child.pid)).rssMb;
    return {
      eras,
      rssAfterConcurrentMb,
      rssAfterIdleMb,
      sdkServerRssAfterConcurrentMb,
      sdkServerRssAfterIdleMb,
    };
  } finally {
    await server.stop();
    await floor.stop();
    await fixture.close();
  }
}
