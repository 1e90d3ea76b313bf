/**
 * Start-up figures: spawn to `initialize` and to `tools/list`, paired in each
 * round with a one-line script, the SDK floor (loading the SDK and zod, then
 * exiting) and the SDK server floor (a one-tool SDK server answering the same
 * requests).
 */
import { pairedRatios, summarize, type Summary } from "./stats.ts";
import { ServerProcess } from "./server_process.ts";

/** Start-up figures in milliseconds, each paired with a one-line `deno run` in the same round. */
export interface StartupFigures {
  runs: number;
  initialize: Summary;
  toolsList: Summary;
  reference: Summary;
  toolsListOverReference: Summary;
  /** Spawn → tools/list over the SDK floor, paired within each round: the start-up target. */
  toolsListOverFloor: Summary;
  /** Spawn to exit of a script that only loads the SDK and zod: what no server on them can beat. */
  sdkFloor: Summary;
  /** RSS of that script, in MB: the memory floor. */
  sdkFloorRssMb: Summary;
  /** Spawn → tools/list of a one-tool server on the SDK alone: what answering costs any server. */
  sdkServer: Summary;
  /** That server over the SDK floor, paired within each round. */
  sdkServerOverFloor: Summary;
  /** This server over that one, paired within each round: what our own start-up adds. */
  toolsListOverSdkServer: Summary;
}

const ONE_LINE = new URL("./one_line.ts", import.meta.url).pathname;
const SDK_FLOOR = new URL("./sdk_floor.ts", import.meta.url).pathname;
const SDK_SERVER = new URL("./sdk_server.ts", import.meta.url).pathname;

async function floorRun(): Promise<[number, number]> {
  const start = performance.now();
  const { stdout } = await new Deno.Command("deno", { args: ["run", SDK_FLOOR], stderr: "null" })
    .output();
  return [performance.now() - start, Number(new TextDecoder().decode(stdout))];
}

async function referenceRun(): Promise<number> {
  const start = performance.now();
  await new Deno.Command("deno", { args: ["run", ONE_LINE], stdout: "null", stderr: "null" })
    .output();
  return performance.now() - start;
}

async function serverRun(url: string, main?: string): Promise<[number, number]> {
  const server = new ServerProcess(url, [], [], main);
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
  await serverRun(url, SDK_SERVER);
  await referenceRun();
  const init: number[] = [];
  const list: number[] = [];
  const ref: number[] = [];
  const floor: number[] = [];
  const floorRss: number[] = [];
  const sdkServer: number[] = [];
  await floorRun();
  for (let i = 0; i < runs; i++) {
    const [a, b] = await serverRun(url);
    init.push(a);
    list.push(b);
    ref.push(await referenceRun());
    const [wall, rss] = await floorRun();
    floor.push(wall);
    floorRss.push(rss);
    sdkServer.push((await serverRun(url, SDK_SERVER))[1]);
  }
  return {
    runs,
    initialize: summarize(init),
    toolsList: summarize(list),
    reference: summarize(ref),
    toolsListOverReference: summarize(pairedRatios(list, ref)),
    toolsListOverFloor: summarize(pairedRatios(list, floor)),
    sdkFloor: summarize(floor),
    sdkFloorRssMb: summarize(floorRss),
    sdkServer: summarize(sdkServer),
    sdkServerOverFloor: summarize(pairedRatios(sdkServer, floor)),
    toolsListOverSdkServer: summarize(pairedRatios(list, sdkServer)),
  };
}
