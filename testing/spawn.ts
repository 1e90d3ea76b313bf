/**
 * Running the real entry point, main.ts, as a user does: in a child `deno`
 * process with exactly the permissions and environment a user would grant.
 */
import { ENV_VARS } from "../src/config.ts";

/** The environment permission a user grants: exactly the variables the server reads. */
export const ENV_FLAG = `--allow-env=${ENV_VARS.join(",")}`;

/** The permission flags a user would run the server with for a given Bitbucket host. */
export function scopedPermissions(host: string): string[] {
  return [`--allow-net=${host}`, ENV_FLAG];
}

/** The path of main.ts, for spawning the real entry point. */
export const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** What a finished process left behind. */
export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run <flags> main.ts <args>` with exactly the given environment, and waits for it. */
export async function runMain(
  denoFlags: string[],
  args: string[],
  env: Record<string, string>,
): Promise<Finished> {
  const command = new Deno.Command("deno", {
    args: ["run", "--no-prompt", ...denoFlags, MAIN, ...args],
    env: {
      ...env,
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** A `serve --http` child process that has announced where it serves. */
export interface ServingHttp {
  child: Deno.ChildProcess;
  /** The MCP endpoint it announced ("serving MCP at …"). */
  url: string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs `deno run --no-prompt <denoFlags> <main> serve --http <address> <args>`
 * with `env` and waits for its "serving MCP at" line; its stderr is drained
 * after, so a chatty server never blocks. `main` is another checkout's to
 * compare against (the bench's before/after).
 */
export async function serveHttpMain(
  options: {
    denoFlags: string[];
    address: string;
    args?: string[];
    env: Record<string, string>;
    main?: string;
  },
): Promise<ServingHttp> {
  const child = new Deno.Command("deno", {
    args: [
      "run",
      "--no-prompt",
      ...options.denoFlags,
      options.main ?? MAIN,
      "serve",
      "--http",
      options.address,
      ...options.args ?? [],
    ],
    env: { ...options.env, NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already exited
    }
    await child.status;
  };
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await reader.read();
    if (done) {
      await stop();
      throw new Error(`the HTTP server exited before listening: ${seen}`);
    }
    seen += value;
    url = /serving MCP at (\S+)/.exec(seen)?.[1];
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return { child, url, stop };
}
