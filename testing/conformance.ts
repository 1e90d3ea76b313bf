/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * pinned by scripts/conformance.lock) against `serve --http`, at every
 * revision the server speaks on the wire: 2025-11-25 (the initialize
 * handshake, which covers the 2025 revisions' scenarios) and 2026-07-28
 * (stateless, per-request `_meta`). The server runs as a user runs it, in
 * front of the fixture Bitbucket, so the scenarios that read Bitbucket read
 * it. Each revision has its own baseline, scripts/conformance-baseline-<rev>.yml,
 * listing single failing checks (`scenario:check-id`) with their reasons; the
 * run fails on any other failure and on a baseline entry that passes.
 *
 * `deno task conformance` runs it; tests/e2e/conformance_test.ts runs it in
 * `deno task test`. The CLI needs Node ≥ 22 (fs.globSync), so it runs under
 * Deno's npm support, reading only its own package and the baseline, and
 * reaching only the server.
 */
import { ALL_ROUTES } from "./cases/mod.ts";
import { startFixtureBitbucket } from "./fixture_bitbucket.ts";
import { TEST_TOKEN } from "./harness.ts";
import { serveHttpMain } from "./spawn.ts";

/** The suite's pinned version. */
export const SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";

/** The revisions run, each with its own baseline. */
export const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

const ROOT = new URL("../", import.meta.url);

/** The baseline of one revision, relative to the repository. */
export function baselineOf(revision: string): string {
  return `scripts/conformance-baseline-${revision}.yml`;
}

/** One revision's run: whether it passed against its baseline, and the suite's last lines. */
export interface RevisionRun {
  revision: string;
  passed: boolean;
  summary: string;
  output: string;
}

/** Where Deno keeps npm packages, so the CLI may read its own and nothing else. */
async function npmCache(): Promise<string> {
  const { stdout } = await new Deno.Command("deno", { args: ["info", "--json"], stderr: "null" })
    .output();
  return JSON.parse(new TextDecoder().decode(stdout)).npmCache;
}

/** Runs the suite at every revision against a fresh server; one {@link RevisionRun} each. */
export async function runConformance(): Promise<RevisionRun[]> {
  const fixture = startFixtureBitbucket(ALL_ROUTES);
  const server = await serveHttpMain({
    denoFlags: [
      "--allow-net=127.0.0.1",
      "--allow-env=BITBUCKET_URL,BITBUCKET_TOKEN,BITBUCKET_USERNAME",
    ],
    address: "127.0.0.1:0",
    args: ["--toolsets", "all"],
    env: { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN },
  });
  try {
    const port = new URL(server.url).port;
    const pkg = `${await npmCache()}/registry.npmjs.org/${SUITE.replace(/@([^@]+)$/, "/$1")}`;
    const runs: RevisionRun[] = [];
    const results = Deno.env.get("CONFORMANCE_RESULTS");
    for (const revision of REVISIONS) {
      const baseline = new URL(baselineOf(revision), ROOT).pathname;
      const { code, stdout, stderr } = await new Deno.Command("deno", {
        args: [
          "run",
          "--no-config",
          `--lock=${new URL("scripts/conformance.lock", ROOT).pathname}`,
          "--frozen",
          "--no-prompt",
          // The CLI reads the whole environment (process.env).
          "--allow-env",
          `--allow-read=${pkg},${baseline}`,
          `--allow-net=127.0.0.1:${port},localhost:${port}`,
          // CONFORMANCE_RESULTS=dir keeps each check's JSON there (to write a baseline from).
          ...(results ? [`--allow-write=${results}`] : []),
          `npm:${SUITE}`,
          "server",
          "--url",
          server.url,
          "--suite",
          "all",
          "--spec-version",
          revision,
          "--expected-failures",
          baseline,
          ...(results ? ["-o", `${results}/${revision}`] : []),
        ],
        env: { NO_COLOR: "1" },
        stdin: "null",
      }).output();
      const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
      const summary = output.split("\n").filter((line) => /^Total:|baseline|regression/i.test(line))
        .join("\n");
      runs.push({ revision, passed: code === 0, summary, output });
    }
    return runs;
  } finally {
    await server.stop();
    await fixture.close();
  }
}

if (import.meta.main) {
  const runs = await runConformance();
  const lines = runs.flatMap((run) => [
    `== ${SUITE} at ${run.revision}: ${run.passed ? "as the baseline says" : "FAILED"}`,
    run.passed ? run.summary : run.output,
  ]);
  await Deno.stdout.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  Deno.exit(runs.every((run) => run.passed) ? 0 : 1);
}
