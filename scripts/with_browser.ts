/**
 * `deno task test` and `deno task view-screenshot`: runs `deno <args>` (the
 * test run) with the view tests' browser, which scripts/find_browser.ts finds
 * or installs, named in CHROME_PATH and added to the run's `--allow-run`, so
 * that the tests may start exactly that binary and nothing else. Without a
 * browser it prints one line saying what to install and exits with 1: the
 * browser tests fail, they never skip.
 *
 *   deno run --allow-read --allow-env=CHROME_PATH,PATH --allow-sys=uid \
 *     --allow-run=deno,/usr/bin/apt-get,/usr/bin/sudo scripts/with_browser.ts test --allow-run=deno …
 */
import { browserForTests, type Machine, NoBrowser } from "./find_browser.ts";
import { writeErr } from "../src/cli/output.ts";

/**
 * `args` with `browser` added to its first `--allow-run=` list before any `--`
 * (or a `--allow-run=<browser>` after the subcommand when there is none; an
 * unscoped `--allow-run` already covers it).
 */
export function grantBrowser(args: readonly string[], browser: string): string[] {
  if (browser.includes(",")) {
    throw new NoBrowser(
      `Cannot grant the browser: ${browser} has a comma, which --allow-run cannot name (hint: link it from a path without one and set CHROME_PATH to the link)`,
    );
  }
  const end = args.includes("--") ? args.indexOf("--") : args.length;
  const flags = args.slice(0, end);
  const at = flags.findIndex((arg) => arg === "--allow-run" || arg.startsWith("--allow-run="));
  if (at === -1) return [...args.slice(0, 1), `--allow-run=${browser}`, ...args.slice(1)];
  const out = [...args];
  if (out[at] !== "--allow-run") out[at] = `${out[at]},${browser}`;
  return out;
}

/** Whether `path` is an executable file; false for a missing one, a broken link or a closed folder. */
async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch (error) {
    const absent = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.PermissionDenied;
    if (absent) return false;
    throw error;
  }
}

/** Runs a command with its output on stderr (stdout is the test run's); true when it exits with 0. */
async function run(command: readonly string[]): Promise<boolean> {
  const [program, ...args] = command;
  try {
    const child = new Deno.Command(program!, {
      args,
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    await child.stdout.pipeTo(Deno.stderr.writable, { preventClose: true });
    return (await child.status).success;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Where Debian and Ubuntu keep the programs the install runs (the paths the task's `--allow-run` names). */
const ABSOLUTE: Record<string, string> = { sudo: "/usr/bin/sudo", "apt-get": "/usr/bin/apt-get" };

/** This machine, as find_browser.ts sees it. */
const MACHINE: Machine = {
  env: (name) => Deno.env.get(name),
  cwd: () => Deno.cwd(),
  isExecutable,
  osRelease: async () => {
    for (const path of ["/etc/os-release", "/usr/lib/os-release"]) {
      try {
        return await Deno.readTextFile(path);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    return undefined;
  },
  isRoot: () => Deno.uid() === 0,
  canSudo: async () => {
    try {
      const probe = new Deno.Command(ABSOLUTE.sudo!, {
        args: ["-n", "true"],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      });
      return (await probe.output()).success;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  },
  // The task grants sudo and apt-get by their Debian paths: a name missing from PATH would be noted on every run.
  run: ([program, ...args]) => run([ABSOLUTE[program!] ?? program!, ...args]),
  say: writeErr,
};

if (import.meta.main) {
  let browser: string;
  let args: string[];
  try {
    const found = await browserForTests(MACHINE);
    browser = found.path;
    args = grantBrowser(Deno.args, browser);
    writeErr(`view tests' browser: ${browser} (${found.how})`);
  } catch (error) {
    if (!(error instanceof NoBrowser)) throw error;
    writeErr(error.message);
    Deno.exit(1);
  }
  const child = new Deno.Command("deno", { args, env: { CHROME_PATH: browser } }).spawn();
  Deno.exit((await child.status).code);
}
