/**
 * Memory under concurrency, run by hand (not part of `deno task bench`):
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=. --allow-run=deno,cat --allow-env bench/concurrency.ts
 *
 * A spawned server answers rounds of 50 concurrent get_commit calls, each for
 * its own repository (every answer is checked against its call), and its
 * resident memory is read from /proc before, during and after: it should
 * level off rather than grow with the number of calls. A second argument is
 * passed to V8 (e.g. `--max-old-space-size=48`): if memory still levels off
 * under a small heap cap, what it grew by was garbage V8 had not yet collected.
 */
import { ALL_ROUTES } from "../testing/cases/mod.ts";
import { commitArgs, commitIdFor, distinctCommitRoutes } from "../testing/distinct_commits.ts";
import { startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { ServerProcess } from "./server_process.ts";

const CONCURRENT = 50;
const ROUNDS = Number(Deno.args[0] ?? 40);
const V8_FLAGS = Deno.args[1];

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

const fixture = startFixtureBitbucket([...distinctCommitRoutes(CONCURRENT, 20), ...ALL_ROUTES]);
const server = new ServerProcess(fixture.url, [], V8_FLAGS ? [`--v8-flags=${V8_FLAGS}`] : []);
let wrong = 0;
/** One round: 50 calls at once, every answer checked. */
async function round(): Promise<void> {
  const answers = await Promise.all(
    Array.from(
      { length: CONCURRENT },
      (_, n) => server.request("tools/call", { name: "get_commit", arguments: commitArgs(n) }),
    ),
  );
  answers.forEach((answer, n) => {
    const result = answer.result as { structuredContent?: { commit?: { id?: string } } };
    if (result?.structuredContent?.commit?.id !== commitIdFor(n)) wrong++;
  });
}

try {
  await server.initialize();
  await server.request("tools/list");
  const started = (await server.memory()).rssMb;
  await round();
  const baseline = (await server.memory()).rssMb;
  const samples: [number, number][] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    await round();
    if (r % 10 === 0 || r === ROUNDS) samples.push([r * CONCURRENT, (await server.memory()).rssMb]);
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = await server.memory();
  out(
    `bitbucket-mcp: RSS of a spawned server, ${CONCURRENT} concurrent get_commit calls per round`,
  );
  out();
  out("| after | RSS (MB) |");
  out("| --- | --- |");
  out(`| initialize + tools/list | ${started.toFixed(1)} |`);
  out(`| first round (${CONCURRENT} calls): baseline | ${baseline.toFixed(1)} |`);
  for (const [calls, rss] of samples) out(`| ${calls} more calls | ${rss.toFixed(1)} |`);
  out(`| 3 s idle | ${idle.rssMb.toFixed(1)} (peak ${idle.peakMb.toFixed(1)}) |`);
  out();
  out(`answers for the wrong call: ${wrong}`);
} finally {
  await server.close();
  await fixture.close();
}
