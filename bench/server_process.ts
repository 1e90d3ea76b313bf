/** A server spawned as a client would run it, spoken to in raw JSON-RPC, with its memory and CPU read from /proc. */
import { TEST_TOKEN } from "../testing/harness.ts";
import { MAIN, scopedPermissions } from "../testing/spawn.ts";
import { TOOLSET_NAMES } from "../src/tools/manifest.ts";

/**
 * The server flags that list every tool, for the figures that call tools
 * outside the default set (list_tags, list_commits): every toolset by name,
 * which an older checkout compared against understands too.
 */
export const EVERY_TOOLSET: readonly string[] = ["--toolsets", TOOLSET_NAMES.join(",")];

/** A spawned server speaking raw JSON-RPC over its stdio, as an MCP client would see it. */
export class ServerProcess {
  readonly child: Deno.ChildProcess;
  readonly spawnedAt: number;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";
  #nextId = 1;
  #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #pump: Promise<void>;

  /**
   * `extraArgs` go to the server; `denoFlags` to `deno run` (e.g. `--v8-flags=...`);
   * `main` is the script to run (another server, such as the SDK floor).
   */
  constructor(
    bitbucketUrl: string,
    extraArgs: string[] = [],
    denoFlags: string[] = [],
    main = MAIN,
  ) {
    const host = new URL(bitbucketUrl).host;
    this.spawnedAt = performance.now();
    this.child = new Deno.Command("deno", {
      args: [
        "run",
        "--no-prompt",
        ...denoFlags,
        ...scopedPermissions(host),
        main,
        ...extraArgs,
      ],
      env: { BITBUCKET_URL: bitbucketUrl, BITBUCKET_TOKEN: TEST_TOKEN },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#reader = this.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    this.#pump = this.#read();
  }

  async #read(): Promise<void> {
    for (;;) {
      const { value, done } = await this.#reader.read();
      if (done) return;
      this.#buffer += value;
      let newline;
      while ((newline = this.#buffer.indexOf("\n")) >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        const message = JSON.parse(line) as Record<string, unknown>;
        const resolve = this.#waiting.get(message.id as number);
        this.#waiting.delete(message.id as number);
        resolve?.(message);
      }
    }
  }

  /** Sends a request and resolves with its response (and the byte length of its line). */
  request(method: string, params?: unknown): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) =>
      this.#waiting.set(id, resolve)
    );
    const line = JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n";
    void this.#writer.write(new TextEncoder().encode(line));
    return answer;
  }

  /** Sends a notification. */
  async notify(method: string): Promise<void> {
    await this.#writer.write(
      new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", method }) + "\n"),
    );
  }

  /** The 2025-era handshake. */
  async initialize(): Promise<Record<string, unknown>> {
    const answer = await this.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    });
    await this.notify("notifications/initialized");
    return answer;
  }

  /** Current and peak resident set size of the server process in MB. */
  memory(): Promise<{ rssMb: number; peakMb: number }> {
    return processMemory(this.child.pid);
  }

  /** Closes stdin and waits for the process to exit. */
  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.child.status;
    await this.#pump.catch(() => {});
  }
}

/**
 * Current and peak resident set size of a process in MB, from Linux /proc
 * (read through `cat`: Deno grants /proc/<pid> only with all permissions,
 * which the bench never asks for).
 */
export async function processMemory(pid: number): Promise<{ rssMb: number; peakMb: number }> {
  const { stdout } = await new Deno.Command("cat", { args: [`/proc/${pid}/status`] }).output();
  const status = new TextDecoder().decode(stdout);
  const field = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { rssMb: field("VmRSS"), peakMb: field("VmHWM") };
}

/** CPU time a process has used (user + system, all its threads), in ms, from Linux /proc. */
export async function processCpuMs(pid: number): Promise<number> {
  const { stdout } = await new Deno.Command("cat", { args: [`/proc/${pid}/stat`] }).output();
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = new TextDecoder().decode(stdout).split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return ticks * 10; // the kernel's clock ticks are 100 per second on Linux
}
