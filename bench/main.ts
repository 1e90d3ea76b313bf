/**
 * `deno task bench`: every performance figure of the server against the
 * fixture Bitbucket, printed as a table with PASS/MISS against the targets
 * and written to bench/results.json. Figures are medians over repeated runs
 * (min and max beside them), interleaved with their reference.
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

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
const ms = (s: Summary) => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

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
  memory: memory.afterConcurrentCalls <= 70,
};

out(`bitbucket-mcp bench (${RUNS} start-up runs, ${CALLS} calls; medians with min–max)`);
out();
out("| figure | value | target | |");
out("| --- | --- | --- | --- |");
out(`| spawn → initialize answer | ${ms(startup.initialize)} | | |`);
out(
  `| spawn → tools/list answer | ${ms(startup.toolsList)} | ≤ 100 ms | ${
    verdict(targets.startup)
  } |`,
);
out(`| reference: one-line deno run | ${ms(startup.reference)} | | |`);
out(
  `| tools/list ÷ reference (paired) | ${startup.toolsListOverReference.median.toFixed(2)}× | | |`,
);
out(
  `| model-visible catalogue | ${context.modelVisibleBytes} B, ${context.modelVisiblePerTool} B/tool (${context.tools} tools) | ≤ 450 B/tool | ${
    verdict(targets.catalogue)
  } |`,
);
out(
  `| default catalogue (model-visible) | ${context.defaultCatalogueModelVisibleBytes} B | < 15 KB | |`,
);
out(`| whole tools/list result | ${context.toolsListBytes} B | | |`);
for (const [name, set] of Object.entries(context.perToolset)) {
  out(
    `| toolset ${name} (default flags) | ${set.tools} tools: ${set.modelVisible} B model-visible, ${set.toolsList} B tools/list | | |`,
  );
}
out(
  `| tool call p50 / p95 / p99 | ${overhead.toolCall.median.toFixed(2)} / ${
    overhead.toolCall.p95?.toFixed(2)
  } / ${overhead.toolCall.p99?.toFixed(2)} ms | | |`,
);
out(
  `| direct fetch p50 / p95 / p99 | ${overhead.directFetch.median.toFixed(2)} / ${
    overhead.directFetch.p95?.toFixed(2)
  } / ${overhead.directFetch.p99?.toFixed(2)} ms | | |`,
);
out(
  `| call overhead (p50 difference) | ${overhead.p50Difference.toFixed(2)} ms | ≤ 1 ms | ${
    verdict(targets.overhead)
  } |`,
);
for (const s of sizes) {
  const target = s.tool === "list_pull_requests" ? "≤ 0.5×" : "";
  const mark = s.tool === "list_pull_requests" ? verdict(targets.resultSize) : "";
  out(
    `| ${s.tool} text ÷ raw page | ${s.textBytes} B ÷ ${s.rawBytes} B = ${
      s.ratio.toFixed(2)
    }× | ${target} | ${mark} |`,
  );
}
if (!prSize) {
  out("| list_pull_requests text ÷ raw page | tool not in the catalogue | ≤ 0.5× | MISS |");
}
out(`| RSS after tools/list | ${memory.afterToolsList.toFixed(1)} MB | | |`);
out(
  `| RSS after ${memory.concurrentCalls} concurrent calls | ${
    memory.afterConcurrentCalls.toFixed(1)
  } MB | ≤ 70 MB | ${verdict(targets.memory)} |`,
);
out(`| RSS after 2 s idle | ${memory.afterIdle.toFixed(1)} MB | | |`);
out(
  `| paging: ${paging.commits} commits in ${paging.calls} calls | ${
    paging.wallMs.toFixed(0)
  } ms, peak RSS ${paging.peakRssMb.toFixed(1)} MB | | |`,
);

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
