/**
 * Running by URL, as the README shows, with nothing but the URL: `deno run
 * <tag>/main.ts` from a directory with no deno.json, and `deno install -g
 * <tag>/main.ts` putting a `bitbucket-mcp` command in place, each with the
 * same scoped permissions as a local run. The checkout is served the way a
 * raw-file host serves a tag (every file as text/plain).
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseFlags } from "../../src/cli/flags.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";
import { refs } from "../../testing/cases/refs.ts";
import { system } from "../../testing/cases/system.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { startRawHost } from "../support/raw_host.ts";
import { scopedPermissions } from "../../testing/spawn.ts";
import { tempDir } from "../support/temp_dir.ts";

/** Passed through to the server when set: Deno's cache, trusted CAs, proxies, registry. */
const NETWORK_SETTINGS = [
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "NPM_CONFIG_REGISTRY",
];

/**
 * Where the install test puts `bitbucket-mcp`: a fixed path, because running
 * the installed command needs `--allow-run` for exactly this file (deno.json's
 * test task grants it).
 */
export const INSTALL_ROOT = "/tmp/bitbucket-mcp-install-test";
const INSTALLED = `${INSTALL_ROOT}/bin/bitbucket-mcp`;

/** The environment a user's shell would give: PATH and HOME, plus how this machine reaches npm. */
function userEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "",
    NO_COLOR: "1",
    ...extra,
  };
  // Deno's cache, and how this machine reaches the npm registry (a first run resolves the npm
  // dependencies there, as there is no lockfile beside a URL).
  for (const name of NETWORK_SETTINGS) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return env;
}

Deno.test("run by URL: main.ts alone, from a raw-file host, in an empty directory, with no other flag, serves tools over stdio", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const host = startRawHost();
  await using cwd = await tempDir("url-run");
  const transport = new StdioClientTransport({
    command: "deno",
    args: [
      "run",
      "--no-prompt",
      ...scopedPermissions(new URL(fixture.url).host),
      `${host.base}/main.ts`,
    ],
    env: userEnv({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN }),
    cwd: cwd.path,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "url-run", version: "0.0.0" });
  try {
    await client.connect(transport).catch((error) => {
      throw new Error(`the server did not start: ${error}\n${stderr}`);
    });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      // The view tools only to a client that declares MCP Apps (this one does not).
      selectTools(CATALOGUE, parseFlags([])).filter((t) => !isAppTool(t.config._meta))
        .map((t) => t.name),
      `the default selection is listed; stderr: ${stderr}`,
    );
    const result = await client.callTool({
      name: "list_branches",
      arguments: { project: "PROJ", repo: "web", limit: 3 },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const { branches } = result.structuredContent as { branches: { displayId: string }[] };
    assert.equal(branches[0]?.displayId, "main");
  } finally {
    await client.close();
    await host.close();
    await fixture.close();
  }
  for (
    const path of ["/main.ts", "/src/cli/run.ts", "/src/tools/catalogue.ts", "/src/deps/mcp.ts"]
  ) {
    assert.ok(host.requested.includes(path), `${path} was fetched from the host`);
  }
  assert.ok(!host.requested.includes("/deno.json"), "no import map is needed, so none is fetched");
  // Removing the directory without `recursive` succeeds only if the run wrote nothing there.
  await Deno.remove(cwd.path);
  assert.ok(!stderr.includes(TEST_TOKEN));
});

/** Holds an exclusive lock on a file beside the install root until disposed: one install test at a time. */
async function installLock(): Promise<AsyncDisposable> {
  const file = await Deno.open(`${INSTALL_ROOT}.lock`, { create: true, write: true });
  await file.lock(true);
  return {
    async [Symbol.asyncDispose]() {
      await file.unlock();
      file.close();
    },
  };
}

Deno.test("install by URL: deno install -g <url>/main.ts puts a bitbucket-mcp command in place, sandboxed to the permissions granted at install", async () => {
  const fixture = startFixtureBitbucket(system.routes);
  const host = startRawHost();
  await using cwd = await tempDir("url-install");
  await using _lock = await installLock();
  await Deno.remove(INSTALL_ROOT, { recursive: true }).catch(() => {});
  const env = userEnv({ DENO_INSTALL_ROOT: INSTALL_ROOT });
  /** Runs a command as a user's shell would, in the empty directory. */
  const run = async (command: string, args: string[], extra: Record<string, string> = {}) => {
    try {
      const { code, stdout, stderr } = await new Deno.Command(command, {
        args,
        env: { ...env, ...extra },
        clearEnv: true,
        cwd: cwd.path,
        stdin: "null",
      }).output();
      const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      return { code, stdout: text(stdout), stderr: text(stderr) };
    } catch (error) {
      if (!(error instanceof Deno.errors.NotCapable)) throw error;
      throw new Error(`run this test with --allow-run=${command} (deno.json's test task has it)`);
    }
  };
  try {
    const installed = await run("deno", [
      "install",
      "-g",
      "-f",
      "--name",
      "bitbucket-mcp",
      ...scopedPermissions(new URL(fixture.url).host),
      `${host.base}/main.ts`,
    ]);
    assert.equal(installed.code, 0, installed.stderr);
    const tools = await run(INSTALLED, ["tools"]);
    assert.equal(tools.code, 0, tools.stderr);
    const listed = tools.stdout.split("\n").map((line) => line.slice(2).split(/\s+/)[0]);
    for (const tool of CATALOGUE) assert.ok(listed.includes(tool.name), `${tool.name} is listed`);
    // The command reaches the host it was installed for, with the token from the environment...
    const passed = await run(INSTALLED, ["check"], {
      BITBUCKET_URL: fixture.url,
      BITBUCKET_TOKEN: TEST_TOKEN,
    });
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    assert.ok(!(passed.stdout + passed.stderr).includes(TEST_TOKEN));
    // ...and no other: another port on the same address is outside its --allow-net.
    const elsewhere = await run(INSTALLED, ["check"], {
      BITBUCKET_URL: host.base,
      BITBUCKET_TOKEN: TEST_TOKEN,
    });
    assert.equal(elsewhere.code, 1, elsewhere.stdout + elsewhere.stderr);
    assert.match(elsewhere.stdout, /--allow-net/);
  } finally {
    await host.close();
    await fixture.close();
    await Deno.remove(INSTALL_ROOT, { recursive: true }).catch(() => {});
  }
  assert.ok(host.requested.includes("/main.ts"));
  assert.ok(!host.requested.includes("/deno.json"), "no import map is needed, so none is fetched");
  // Removing the directory without `recursive` succeeds only if nothing was written there.
  await Deno.remove(cwd.path);
});
