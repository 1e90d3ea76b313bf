/** The per-call overhead and memory figures: tool calls over stdio against direct fetches of the same fixture. */
import { ALL_ROUTES, toolArguments } from "../testing/cases/mod.ts";
import { type Route, startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { connect, firstText, TEST_TOKEN } from "../testing/harness.ts";
import { EVERY_TOOLSET, ServerProcess } from "./server_process.ts";
import { summarize, type Summary } from "./stats.ts";

/** One read-only call over stdio against a direct fetch of the same fixture, in milliseconds. */
export interface OverheadFigures {
  calls: number;
  toolCall: Summary;
  directFetch: Summary;
  p50Difference: number;
}

/** Resident memory of the server process in MB. */
export interface MemoryFigures {
  afterToolsList: number;
  afterConcurrentCalls: number;
  afterIdle: number;
  concurrentCalls: number;
}

const TAGS_CALL = { name: "list_tags", arguments: { project: "PROJ", repo: "web" } };

/** p50/p95/p99 of `calls` sequential tool calls and as many direct fetches, alternated. */
export async function measureOverheadAndMemory(
  calls: number,
  concurrent: number,
): Promise<{ overhead: OverheadFigures; memory: MemoryFigures }> {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const server = new ServerProcess(fixture.url, [...EVERY_TOOLSET]);
  try {
    await server.initialize();
    await server.request("tools/list");
    const afterToolsList = (await server.memory()).rssMb;
    const direct = `${fixture.url}/rest/api/latest/projects/PROJ/repos/web/tags?start=0&limit=25`;
    const headers = { Authorization: `Bearer ${TEST_TOKEN}`, Accept: "application/json" };
    const viaTool: number[] = [];
    const viaFetch: number[] = [];
    for (let i = 0; i < calls + 50; i++) {
      let start = performance.now();
      await server.request("tools/call", TAGS_CALL);
      const tool = performance.now() - start;
      start = performance.now();
      await (await fetch(direct, { headers })).json();
      const plain = performance.now() - start;
      if (i >= 50) { // the first 50 pairs warm both paths up
        viaTool.push(tool);
        viaFetch.push(plain);
      }
    }
    await Promise.all(
      Array.from({ length: concurrent }, () => server.request("tools/call", TAGS_CALL)),
    );
    const afterConcurrentCalls = (await server.memory()).rssMb;
    await new Promise((r) => setTimeout(r, 2000));
    const afterIdle = (await server.memory()).rssMb;
    const toolCall = summarize(viaTool, true);
    const directFetch = summarize(viaFetch, true);
    return {
      overhead: {
        calls,
        toolCall,
        directFetch,
        p50Difference: toolCall.median - directFetch.median,
      },
      memory: { afterToolsList, afterConcurrentCalls, afterIdle, concurrentCalls: concurrent },
    };
  } finally {
    await server.close();
    await fixture.close();
  }
}

/** A tool's text block against the raw Bitbucket bodies it was made from, in bytes. */
export interface ResultSize {
  tool: string;
  textBytes: number;
  rawBytes: number;
  ratio: number;
}

/** Text block size versus raw page size for the tools a model calls most. */
export async function measureResultSizes(tools: string[]): Promise<ResultSize[]> {
  const sizes: ResultSize[] = [];
  for (const tool of tools) {
    const entry = toolArguments[tool];
    if (!entry) continue;
    await using h = await connect({ routes: entry.routes, selection: { yolo: true } });
    const result = await h.client.callTool({ name: tool, arguments: entry.args });
    const textBytes = new TextEncoder().encode(firstText(result)).length;
    const rawBytes = h.fixture.requests.reduce((n, r) => n + r.responseBytes, 0);
    sizes.push({ tool, textBytes, rawBytes, ratio: textBytes / rawBytes });
  }
  return sizes;
}

/** Collecting a long history page by page, as an agent following nextPageStart would. */
export interface PagingFigures {
  commits: number;
  calls: number;
  wallMs: number;
  peakRssMb: number;
}

function generatedCommit(n: number) {
  const id = n.toString(16).padStart(40, "0");
  const parent = (n + 1).toString(16).padStart(40, "0");
  return {
    id,
    displayId: id.slice(0, 11),
    author: { name: `Author ${n % 17}`, emailAddress: `author${n % 17}@example.com` },
    authorTimestamp: 1_700_000_000_000 - n * 60_000,
    committer: { name: `Author ${n % 17}`, emailAddress: `author${n % 17}@example.com` },
    committerTimestamp: 1_700_000_000_000 - n * 60_000,
    message: `Change number ${n}: adjust the widget factory`,
    parents: [{ id: parent, displayId: parent.slice(0, 11) }],
  };
}

/** Wall time and peak RSS to collect `total` commits with limit 1000 per call. */
export async function measurePaging(total: number): Promise<PagingFigures> {
  const history: Route = {
    method: "GET",
    path: "/api/latest/projects/PROJ/repos/web/commits",
    respond: (seen) => {
      const start = Number(seen.query.start ?? 0);
      const limit = Number(seen.query.limit ?? 25);
      const end = Math.min(total, start + limit);
      const values = Array.from({ length: end - start }, (_, i) => generatedCommit(start + i));
      return end >= total
        ? { size: values.length, limit, isLastPage: true, values, start }
        : { size: values.length, limit, isLastPage: false, values, start, nextPageStart: end };
    },
  };
  const fixture = startFixtureBitbucket([history]);
  const server = new ServerProcess(fixture.url, [...EVERY_TOOLSET]);
  try {
    await server.initialize();
    const begin = performance.now();
    let start: number | undefined = 0;
    let collected = 0;
    let calls = 0;
    while (start !== undefined) {
      const answer = await server.request("tools/call", {
        name: "list_commits",
        arguments: { project: "PROJ", repo: "web", limit: 1000, start },
      });
      calls++;
      const out =
        (answer.result as { structuredContent: { commits: unknown[]; nextPageStart?: number } })
          .structuredContent;
      collected += out.commits.length;
      start = out.nextPageStart;
    }
    const wallMs = performance.now() - begin;
    const peakRssMb = (await server.memory()).peakMb;
    return { commits: collected, calls, wallMs, peakRssMb };
  } finally {
    await server.close();
    await fixture.close();
  }
}
