/**
 * The container's memory, measured without a container runtime, run by hand (not part of
 * `deno task bench`):
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=. --allow-run=sh,cat --allow-env bench/container.ts [--bare] [ROUNDS]
 *
 * Runs the image's own entry point (`deploy/docker/entrypoint.sh`) with the image's `CMD` (its
 * port swapped for a free one on 127.0.0.1) and the Dockerfile's `ENV` (with `--bare`: without
 * it, as a plain `deno run` would), against the fixture Bitbucket, under the load of
 * `bench/concurrency.ts` over HTTP: rounds of 50 concurrent get_commit calls, each for its own
 * repository and checked against it, then 50 clients calling back to back. Prints the server's
 * resident memory (sampled every 50 ms during the load, at its end, after 3 s idle, and the
 * kernel's peak) and the calls per second.
 */
import { ALL_ROUTES } from "../testing/cases/mod.ts";
import { commitArgs, commitIdFor, distinctCommitRoutes } from "../testing/distinct_commits.ts";
import { readDockerfile } from "../testing/dockerfile.ts";
import { startFixtureBitbucket } from "../testing/fixture_bitbucket.ts";
import { freePort } from "../testing/free_port.ts";
import { TEST_TOKEN } from "../testing/harness.ts";
import { MCP_PATH } from "../src/server/http.ts";
import { processMemory } from "./server_process.ts";

const CONCURRENT = 50;
const bare = Deno.args.includes("--bare");
const ROUNDS = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 40);
const ENTRYPOINT = new URL("../deploy/docker/entrypoint.sh", import.meta.url).pathname;

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

const image = await readDockerfile();
const port = freePort();
const at = image.cmd.indexOf("--http") + 1;
const cmd = image.cmd.map((arg, i) => i === at ? `127.0.0.1:${port}` : arg);
const fixture = startFixtureBitbucket([...distinctCommitRoutes(CONCURRENT, 20), ...ALL_ROUTES]);
const env: Record<string, string> = {
  PATH: Deno.env.get("PATH") ?? "",
  HOME: Deno.env.get("HOME") ?? "",
  ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
  ...(bare ? {} : image.env),
  BITBUCKET_URL: fixture.url,
};
const child = new Deno.Command("sh", {
  args: [ENTRYPOINT, ...cmd],
  env,
  clearEnv: true,
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();

const url = `http://127.0.0.1:${port}${MCP_PATH}`;
const headers = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  Authorization: `Bearer ${TEST_TOKEN}`,
  "MCP-Protocol-Version": "2025-11-25",
};
let wrong = 0;
/** One get_commit call for repository `n`, its answer checked. */
async function call(n: number): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name: "get_commit", arguments: commitArgs(n) },
    }),
  });
  const text = await response.text();
  if (!text.includes(`"id":"${commitIdFor(n)}"`)) wrong++;
}

let peak = 0;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    peak = Math.max(peak, (await processMemory(child.pid)).rssMb);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();

try {
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("serving MCP at")) {
    const { value, done } = await stderr.read();
    if (done) throw new Error(`the server exited before listening: ${seen}`);
    seen += value;
  }
  void (async () => {
    while (!(await stderr.read()).done);
  })();
  const started = (await processMemory(child.pid)).rssMb;
  for (let r = 0; r < ROUNDS; r++) {
    await Promise.all(Array.from({ length: CONCURRENT }, (_, n) => call(n)));
  }
  const afterRounds = (await processMemory(child.pid)).rssMb;
  let left = ROUNDS * CONCURRENT * 2;
  const total = left;
  const begun = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, async (_, n) => {
    while (left-- > 0) await call(n);
  }));
  const perSecond = total / ((performance.now() - begun) / 1000);
  const afterLoad = (await processMemory(child.pid)).rssMb;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idle = await processMemory(child.pid);
  sampling = false;
  await sampler;
  const settings = bare
    ? "none (plain deno run)"
    : Object.entries(image.env).map(([k, v]) => `${k}=${v}`).join(" ");
  out(`bitbucket-mcp container memory, settings: ${settings}`);
  out(
    `| started | ${ROUNDS} rounds of ${CONCURRENT} | then ${total} back to back | ` +
      `peak sampled | 3 s idle | kernel peak | calls/s back to back | wrong answers |`,
  );
  out(
    `| ${started.toFixed(1)} | ${afterRounds.toFixed(1)} | ${afterLoad.toFixed(1)} | ` +
      `${peak.toFixed(1)} | ${idle.rssMb.toFixed(1)} | ${idle.peakMb.toFixed(1)} | ` +
      `${perSecond.toFixed(0)} | ${wrong} |`,
  );
} finally {
  sampling = false;
  child.kill("SIGTERM");
  await child.status;
  await fixture.close();
}
