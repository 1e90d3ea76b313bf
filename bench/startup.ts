import { pairedRatios, summarize, type Summary } from "./stats.ts";
import { ServerProcess } from "./server_process.ts";

/** Start-up figures in milliseconds, each paired with a one-line `deno run` in the same round. */
export interface StartupFigures {
  runs: number;
  initialize: Summary;
  toolsList: Summary;
  reference: Summary;
  toolsListOverReference: Summary;
}

const ONE_LINE = new URL("./one_line.ts", import.meta.url).pathname;

async function referenceRun(): Promise<number> {
  const start = performance.now();
  await new Deno.Command("deno", { args: ["run", ONE_LINE], stdout: "null", stderr: "null" })
    .output();
  return performance.now() - start;
}

async function serverRun(url: string): Promise<[number, number]> {
  const server = new ServerProcess(url);
  await server.initialize();
  const initialized = performance.now() - server.spawnedAt;
  await server.request("tools/list");
  const listed = performance.now() - server.spawnedAt;
  await server.close();
  return [initialized, listed];
}

/** Spawn to `initialize` answer and to `tools/list` answer, interleaved with the reference. */
export async function measureStartup(url: string, runs: number): Promise<StartupFigures> {
  await serverRun(url); // warm-up: caches, code cache
  await referenceRun();
  const init: number[] = [];
  const list: number[] = [];
  const ref: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [a, b] = await serverRun(url);
    init.push(a);
    list.push(b);
    ref.push(await referenceRun());
  }
  return {
    runs,
    initialize: summarize(init),
    toolsList: summarize(list),
    reference: summarize(ref),
    toolsListOverReference: summarize(pairedRatios(list, ref)),
  };
}
