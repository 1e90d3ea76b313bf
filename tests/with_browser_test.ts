/**
 * The test task's runner: the browser it settles on reaches the test run as
 * CHROME_PATH and as the one browser in its `--allow-run`, and a CHROME_PATH
 * naming nothing stops it with one line before any test runs. Driven as the
 * task drives it, with deno.json's own runner permissions.
 */
import assert from "node:assert/strict";
import { grantBrowser } from "../scripts/with_browser.ts";
import { NoBrowser } from "../scripts/find_browser.ts";
import { tempDir } from "./support/temp_dir.ts";

const TASKS: Record<string, string> = JSON.parse(
  await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
).tasks;
const RUNNER = "scripts/with_browser.ts";

/** The runner's `deno run` flags in a task (everything between `deno run` and the script). */
function runnerFlags(task: string): string[] {
  const words = task.split(/\s+/);
  const at = words.indexOf(RUNNER);
  assert.ok(at > 0, `the task runs ${RUNNER}: ${task}`);
  const start = words.lastIndexOf("run", at);
  assert.equal(words[start - 1], "deno", `deno run ${RUNNER}: ${task}`);
  return words.slice(start + 1, at);
}

Deno.test("with browser: the browser joins the run's --allow-run list, every other argument kept in place", () => {
  const args = ["test", "--allow-read=.", "--allow-run=deno,npx", "--allow-env", "tests/"];
  assert.deepEqual(grantBrowser(args, "/usr/bin/chromium"), [
    "test",
    "--allow-read=.",
    "--allow-run=deno,npx,/usr/bin/chromium",
    "--allow-env",
    "tests/",
  ]);
});

Deno.test("with browser: without --allow-run the browser gets one of its own; an unscoped one and the script's own arguments are left alone", () => {
  assert.deepEqual(grantBrowser(["test", "tests/"], "/b"), ["test", "--allow-run=/b", "tests/"]);
  assert.deepEqual(grantBrowser(["test", "--allow-run", "x.ts"], "/b"), [
    "test",
    "--allow-run",
    "x.ts",
  ]);
  assert.deepEqual(grantBrowser(["test", "x.ts", "--", "--allow-run=y"], "/b"), [
    "test",
    "--allow-run=/b",
    "x.ts",
    "--",
    "--allow-run=y",
  ]);
});

Deno.test("with browser: a browser path with a comma, which --allow-run cannot name, is refused", () => {
  assert.throws(
    () => grantBrowser(["test", "--allow-run=deno"], "/opt/a,b/chrome"),
    (error: unknown) => error instanceof NoBrowser && error.message.includes("/opt/a,b/chrome"),
  );
});

Deno.test("with browser: the test and view-screenshot tasks grant no browser of their own, the runner adds the one it settles on", () => {
  for (const name of ["test", "view-screenshot"]) {
    const task = TASKS[name]!;
    runnerFlags(task);
    const test = task.slice(task.indexOf(RUNNER));
    assert.ok(!/chrom/i.test(test), `${name}: names no browser after the runner: ${test}`);
    assert.ok(!/(^|\s)-A(\s|$)|--allow-all/.test(task), `${name}: no -A`);
    assert.ok(!/--allow-run(\s|$)/.test(task), `${name}: every --allow-run is a list`);
  }
});

/** Runs the runner as the test task does, on `args`, with `env`. */
async function runRunner(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command("deno", {
    args: ["run", ...runnerFlags(TASKS.test!), RUNNER, ...args],
    cwd: new URL("..", import.meta.url).pathname,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("with browser: the run gets CHROME_PATH's browser, allowed to run it and nothing else new", async () => {
  await using dir = await tempDir("with-browser");
  const browser = `${dir.path}/chrome`;
  await Deno.writeTextFile(browser, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(browser, 0o755);
  const probe = `${dir.path}/probe.ts`;
  await Deno.writeTextFile(
    probe,
    `const browser = Deno.env.get("CHROME_PATH");
const state = (command) => Deno.permissions.querySync({ name: "run", command }).state;
console.log(JSON.stringify({ browser, browserRun: state(browser), otherRun: state("/usr/bin/true") }));`,
  );
  const { code, stdout, stderr } = await runRunner(
    ["run", "--no-prompt", "--allow-env=CHROME_PATH", "--allow-run=deno", probe],
    { CHROME_PATH: browser },
  );
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), { browser, browserRun: "granted", otherRun: "prompt" });
  assert.ok(stderr.includes(browser), `names the browser on stderr: ${stderr}`);
});

Deno.test("with browser: a CHROME_PATH naming nothing stops the run with one line naming it, before anything runs", async () => {
  await using dir = await tempDir("with-browser");
  const missing = `${dir.path}/no-such-chrome`;
  const probe = `${dir.path}/probe.ts`;
  await Deno.writeTextFile(probe, `console.log("the run started");`);
  const { code, stdout, stderr } = await runRunner(["run", probe], { CHROME_PATH: missing });
  assert.equal(code, 1);
  assert.equal(stdout, "", "the run never started");
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, /^Cannot use the browser CHROME_PATH names: /);
  assert.ok(lines[0]!.includes(missing), lines[0]);
});
