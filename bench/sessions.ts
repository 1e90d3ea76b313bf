/**
 * What 2025-era sessions cost: the real entry point serving `serve --http` in
 * a child process, its resident memory read from /proc before any session,
 * then with 50 and with 100 sessions open (each an `initialize` declaring
 * elicitation, `notifications/initialized` and a `tools/list`, as VS Code
 * opens one), sent with plain `fetch` so the figures are the server's.
 * Medians of {@link ROUNDS} fresh servers; per session is the growth from 0
 * to 100 over 100.
 */
import { freePort } from "../testing/free_port.ts";
import { TEST_TOKEN } from "../testing/harness.ts";
import { ENV_FLAG, serveHttpMain } from "../testing/spawn.ts";
import { processMemory } from "./server_process.ts";
import { summarize, type Summary } from "./stats.ts";

const ROUNDS = 3;

/** The session figures, in MB of the server's resident set. */
export interface SessionFigures {
  idleMb: Summary;
  with50Mb: Summary;
  with100Mb: Summary;
  /** (RSS with 100 − RSS with none) / 100, in KB. */
  perSessionKb: Summary;
}

const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  Authorization: `Bearer ${TEST_TOKEN}`,
};

/** Opens one session as a 2025-era client that can be asked does; returns its id. */
async function openSession(url: URL, n: number): Promise<string> {
  const init = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: `bench-${n}`, version: "0" },
      },
    }),
  });
  await init.text();
  const id = init.headers.get("mcp-session-id");
  if (id === null) throw new Error(`session ${n} was not opened (${init.status})`);
  const inSession = { ...HEADERS, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25" };
  const initialized = await fetch(url, {
    method: "POST",
    headers: inSession,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.body?.cancel();
  const list = await fetch(url, {
    method: "POST",
    headers: inSession,
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
  });
  await list.text();
  return id;
}

/** One fresh server: its RSS with no session, with 50 and with 100. */
async function round(bitbucketUrl: string): Promise<[number, number, number]> {
  const port = await freePort();
  const server = await serveHttpMain({
    denoFlags: [`--allow-net=127.0.0.1:${port},${new URL(bitbucketUrl).host}`, ENV_FLAG],
    address: `127.0.0.1:${port}`,
    args: ["--http-max-sessions", "100"],
    env: { BITBUCKET_URL: bitbucketUrl },
  });
  const { child } = server;
  try {
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    // Warm: one stateless initialize and tools/list, so the catalogue is built before the baseline.
    const warm = await fetch(url, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await warm.text();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = (await processMemory(child.pid)).rssMb;
    for (let n = 0; n < 50; n++) await openSession(url, n);
    const with50 = (await processMemory(child.pid)).rssMb;
    for (let n = 50; n < 100; n++) await openSession(url, n);
    const with100 = (await processMemory(child.pid)).rssMb;
    return [idle, with50, with100];
  } finally {
    await server.stop();
  }
}

/** Measures {@link ROUNDS} fresh servers against the Bitbucket at `bitbucketUrl`. */
export async function measureSessions(bitbucketUrl: string): Promise<SessionFigures> {
  const rounds: [number, number, number][] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round(bitbucketUrl));
  return {
    idleMb: summarize(rounds.map((r) => r[0])),
    with50Mb: summarize(rounds.map((r) => r[1])),
    with100Mb: summarize(rounds.map((r) => r[2])),
    perSessionKb: summarize(rounds.map((r) => (r[2] - r[0]) * 1000 / 100)),
  };
}
