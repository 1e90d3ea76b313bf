import { MAIN, scopedPermissions } from "../../testing/spawn.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";

/** How any stdio MCP client (any SDK generation, or a raw pipe) starts the real server. */
export interface StdioServerParams {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * `deno run` of main.ts with the permissions a user would grant for the
 * fixture's host, the fixture's URL and the test token, and `--yolo
 * --toolsets all` (every tool of the catalogue listed, none asking) unless
 * other server flags are given. The
 * environment is complete on its own: some clients pass nothing else through.
 */
export function stdioServerParams(
  fixtureUrl: string,
  serverArgs: string[] = ["--yolo", "--toolsets", "all"],
): StdioServerParams {
  const env: Record<string, string> = {
    BITBUCKET_URL: fixtureUrl,
    BITBUCKET_TOKEN: TEST_TOKEN,
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "",
    NO_COLOR: "1",
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  return {
    command: "deno",
    args: [
      "run",
      "--no-prompt",
      ...scopedPermissions(new URL(fixtureUrl).host),
      MAIN,
      ...serverArgs,
    ],
    env,
  };
}

/** A JSON-RPC message as it travels on the wire. */
export type Wire = Record<string, unknown> & { id?: number | string; method?: string };

/** A `tools/call` result as a test reads it: the error flag, the first text block, the payload. */
export interface ToolAnswer {
  isError?: boolean;
  text: string;
  structuredContent?: Record<string, unknown>;
}

/**
 * A raw JSON-RPC conversation with the real server over its stdio: send
 * messages, await the response to an id, and end by closing stdin.
 */
export class RawStdioSession {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #waiting = new Map<
    number | string,
    { resolve: (message: Wire) => void; reject: (error: Error) => void }
  >();
  readonly #lines: string[] = [];
  readonly #reading: Promise<void>;
  readonly #stderr: Promise<string>;

  constructor(params: StdioServerParams) {
    this.#child = new Deno.Command(params.command, {
      args: params.args,
      env: params.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#stderr = new Response(this.#child.stderr).text();
    this.#reading = this.#read();
  }

  async #read(): Promise<void> {
    let buffer = "";
    for await (const chunk of this.#child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        this.#lines.push(line);
        const message = JSON.parse(line) as Wire;
        if (message.id !== undefined && !("method" in message)) {
          this.#waiting.get(message.id)?.resolve(message);
          this.#waiting.delete(message.id);
        }
      }
    }
    if (buffer.length > 0) this.#lines.push(buffer);
    for (const { reject } of this.#waiting.values()) {
      reject(new Error("the server closed stdout without answering"));
    }
  }

  /** Every line the server wrote to stdout so far. */
  get stdoutLines(): readonly string[] {
    return this.#lines;
  }

  /** Sends one message (a notification, or a request whose answer is not awaited). */
  async send(message: Wire): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Sends a request and resolves with the response carrying its id. */
  async request(message: Wire & { id: number | string }): Promise<Wire> {
    const answered = new Promise<Wire>((resolve, reject) =>
      this.#waiting.set(message.id, { resolve, reject })
    );
    await this.send(message);
    return await answered;
  }

  /** The 2025-era handshake as request id 1, at the given revision; resolves with the answer. */
  initialize(protocolVersion = "2025-11-25"): Promise<Wire> {
    return this.request({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "tests", version: "0" } },
    });
  }

  /** Calls a tool as request `id` and reads its result. */
  async callTool(id: number, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const answer = await this.request({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    const result = answer.result as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
    };
    return {
      isError: result.isError,
      text: result.content[0]!.text,
      structuredContent: result.structuredContent,
    };
  }

  /** Writes text to stdin exactly as given (for malformed input). */
  async sendRaw(text: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(text));
  }

  /** Closes stdin and waits for the process to exit. */
  async close(): Promise<{ code: number; stderr: string }> {
    await this.#writer.close();
    return await this.exited();
  }

  /** Sends the process a signal it goes on after (SIGHUP). */
  signal(signal: Deno.Signal): void {
    this.#child.kill(signal);
  }

  /** Sends the process a signal and waits for it to exit (stdin left open). */
  async kill(signal: Deno.Signal): Promise<{ code: number; stderr: string }> {
    this.#child.kill(signal);
    const exit = await this.exited();
    await this.#writer.close().catch(() => {});
    return exit;
  }

  /** Waits for the process to exit on its own. */
  async exited(): Promise<{ code: number; stderr: string }> {
    await this.#reading;
    const { code } = await this.#child.status;
    return { code, stderr: await this.#stderr };
  }
}
