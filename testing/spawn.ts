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
