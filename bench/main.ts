/**
 * `deno task bench`: every performance figure of the server against the
 * fixture Bitbucket, printed as a table with PASS/MISS against the targets
 * and written to bench/results.json. Figures are medians over repeated runs
 * (min and max beside them), interleaved with their reference. `--quick`
 * runs fewer repetitions.
 */
import { ALL_ROUTES } from "../tests/cases/mod.ts";
import { startFixtureBitbucket } from "../tests/support/fixture_bitbucket.ts";
import { measureOverheadAndMemory, measurePaging, measureResultSizes } from "./calls.ts";
import { measureContext } from "./context.ts";
import { measureStartup } from "./startup.ts";
import type { Summary } from "./stats.ts";

const quick = Deno.args.includes("--quick");
const RUNS = quick ? 3 : 10;
const CALLS = quick ? 100 : 1000;

const fixture = startFixtureBitbucket(ALL_ROUTES);
const startup = await measureStartup(fixture.url, RUNS);
await fixture.close();
const context = await measureContext();
const { overhead, memory } = await measureOverheadAndMemory(CALLS, 50);
const sizes = await measureResultSizes([
  "list_pull_requests",
  "get_pull_request",
  "list_commits",
  "list_branches",
]);
const paging = await measurePaging(5000);

const prSize = sizes.find((s) => s.tool === "list_pull_requests");
const targets = {
  startup: startup.toolsList.median <= 100,
  catalogue: context.modelVisiblePerTool <= 450 &&
    context.defaultCatalogueModelVisibleBytes < 15_000,
  overhead: overhead.p50Difference <= 1,
  resultSize: prSize !== undefined && prSize.ratio <= 0.5,
  memory: memory.afterIdle <= 70,
};

const ms = (s: Summary) => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
const pct = (s: Summary) =>
  `${s.median.toFixed(2)} / ${s.p95?.toFixed(2)} / ${s.p99?.toFixed(2)} ms`;
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

/** One table row: figure, value, target, verdict. */
const rows: [string, string, string, string][] = [
  ["spawn → initialize answer", ms(startup.initialize), "", ""],
  ["spawn → tools/list answer", ms(startup.toolsList), "≤ 100 ms", verdict(targets.startup)],
  ["reference: one-line deno run", ms(startup.reference), "", ""],
  [
    "tools/list ÷ reference (paired)",
    `${startup.toolsListOverReference.median.toFixed(2)}×`,
    "",
    "",
  ],
  ["floor: spawn → exit loading only the SDK and zod", ms(startup.sdkFloor), "", ""],
  [
    "model-visible catalogue",
    `${context.modelVisibleBytes} B, ${context.modelVisiblePerTool} B/tool (${context.tools} tools)`,
    "≤ 450 B/tool",
    verdict(targets.catalogue),
  ],
  ["floor: schema structure without any description", `${context.structurePerTool} B/tool`, "", ""],
  [
    "default catalogue (model-visible)",
    `${context.defaultCatalogueModelVisibleBytes} B`,
    "< 15 KB",
    "",
  ],
  ["whole tools/list result", `${context.toolsListBytes} B`, "", ""],
  ...Object.entries(context.perToolset).map(([name, set]): [string, string, string, string] => [
    `toolset ${name} (default flags)`,
    `${set.tools} tools: ${set.modelVisible} B model-visible, ${set.toolsList} B tools/list`,
    "",
    "",
  ]),
  ["tool call p50 / p95 / p99", pct(overhead.toolCall), "", ""],
  ["direct fetch p50 / p95 / p99", pct(overhead.directFetch), "", ""],
  [
    "call overhead (p50 difference)",
    `${overhead.p50Difference.toFixed(2)} ms`,
    "≤ 1 ms",
    verdict(targets.overhead),
  ],
  ...sizes.map((s): [string, string, string, string] => [
    `${s.tool} text ÷ raw page`,
    `${s.textBytes} B ÷ ${s.rawBytes} B = ${s.ratio.toFixed(2)}×`,
    s.tool === "list_pull_requests" ? "≤ 0.5×" : "",
    s.tool === "list_pull_requests" ? verdict(targets.resultSize) : "",
  ]),
  ["RSS after tools/list", `${memory.afterToolsList.toFixed(1)} MB`, "", ""],
  [
    `RSS right after ${memory.concurrentCalls} concurrent calls`,
    `${memory.afterConcurrentCalls.toFixed(1)} MB`,
    "",
    "",
  ],
  [
    "RSS after those calls and a return to idle (2 s)",
    `${memory.afterIdle.toFixed(1)} MB`,
    "≤ 70 MB",
    verdict(targets.memory),
  ],
  [
    "floor: RSS of a process loading only the SDK and zod",
    `${startup.sdkFloorRssMb.median.toFixed(1)} MB`,
    "",
    "",
  ],
  [
    `paging: ${paging.commits} commits in ${paging.calls} calls`,
    `${paging.wallMs.toFixed(0)} ms, peak RSS ${paging.peakRssMb.toFixed(1)} MB`,
    "",
    "",
  ],
];
if (!prSize) {
  rows.push(["list_pull_requests text ÷ raw page", "tool not in the catalogue", "≤ 0.5×", "MISS"]);
}

const lines = [
  `bitbucket-mcp bench (${RUNS} start-up runs, ${CALLS} calls; medians with min–max)`,
  "",
  "| figure | value | target | |",
  "| --- | --- | --- | --- |",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
];
Deno.stdout.writeSync(new TextEncoder().encode(lines.join("\n") + "\n"));

await Deno.writeTextFile(
  new URL("./results.json", import.meta.url),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      runs: RUNS,
      calls: CALLS,
      startup,
      context,
      overhead,
      sizes,
      memory,
      paging,
      targets,
    },
    null,
    2,
  ) + "\n",
);
