/**
 * `deno task compile`: the permissions a build bakes in, the URL it can bake
 * in (validated, and overridden by BITBUCKET_URL or --url), and, where Deno
 * has the runtime it embeds (denort), the single binary itself.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { bakedEntry, compilePermissions, parseCompileArgs } from "../../scripts/compile.ts";
import { StartupError } from "../../src/config.ts";
import { defaultPolicyPath } from "../../src/policy/admin_policy.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { VERSION } from "../../src/version.ts";
import { refs } from "../../testing/cases/refs.ts";
import { system } from "../../testing/cases/system.ts";
import { compileRuntime } from "../support/denort.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { ENV_FLAG, scopedPermissions } from "../../testing/spawn.ts";
import { tempDir } from "../support/temp_dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const decoder = new TextDecoder();

/** Runs a command with exactly `env` (plus PATH and HOME) from the repository root. */
async function exec(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const denoDir = Deno.env.get("DENO_DIR");
  const out = await new Deno.Command(command, {
    args,
    cwd: ROOT,
    env: {
      ...env,
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
      ...(denoDir ? { DENO_DIR: denoDir } : {}),
    },
    clearEnv: true,
    stdin: "null",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** The read permission every build bakes in: the administrator's policy file, and nothing else. */
const POLICY_READ = `--allow-read=${defaultPolicyPath()}`;

Deno.test("compile: --host scopes network access to that host; the generic build grants any host and says so", () => {
  const scoped = compilePermissions(parseCompileArgs(["--host", "bitbucket.example.com"]));
  assert.deepEqual(scoped.flags, ["--allow-net=bitbucket.example.com", ENV_FLAG, POLICY_READ]);
  assert.match(scoped.grants, /^network access to bitbucket\.example\.com only; reads /);
  const generic = compilePermissions(parseCompileArgs([]));
  assert.deepEqual(generic.flags, ["--allow-net", ENV_FLAG, POLICY_READ]);
  assert.match(generic.grants, /ANY host/);
  const listening = compilePermissions(
    parseCompileArgs(["--host", "bitbucket.example.com", "--listen", "127.0.0.1:8080"]),
  );
  assert.deepEqual(listening.flags[0], "--allow-net=bitbucket.example.com,127.0.0.1:8080");
});

Deno.test("compile: --url is validated like BITBUCKET_URL and sets the host; --target names the output", () => {
  const baked = parseCompileArgs(["--url", "https://bitbucket.example.com:8443/bitbucket/"]);
  assert.equal(baked.url?.href, "https://bitbucket.example.com:8443/bitbucket");
  assert.equal(baked.host, "bitbucket.example.com:8443");
  assert.equal(baked.output, "dist/bitbucket-mcp");
  assert.equal(
    parseCompileArgs(["--target", "aarch64-apple-darwin"]).output,
    "dist/bitbucket-mcp-aarch64-apple-darwin",
  );
  assert.equal(
    parseCompileArgs(["--target", "x86_64-pc-windows-msvc", "--output", "out/b"]).output,
    "out/b.exe",
  );
  assert.throws(() => parseCompileArgs(["--url", "ftp://bitbucket.example.com"]), StartupError);
  assert.throws(
    () => parseCompileArgs(["--url", "https://u:p@bitbucket.example.com"]),
    StartupError,
  );
  assert.throws(
    () => parseCompileArgs(["--url", "https://a.example.com", "--host", "b.example.com"]),
    /not the --host b\.example\.com/,
  );
  assert.throws(() => parseCompileArgs(["--host", "https://a.example.com"]), /host name/);
});

Deno.test("compile: --policy bakes an absolute policy path in and grants reading it alone; a Windows target reads ProgramData's", () => {
  const baked = parseCompileArgs(["--host", "bitbucket.example.com", "--policy", "/opt/bb/p.json"]);
  assert.equal(baked.bakePolicy, true);
  assert.deepEqual(compilePermissions(baked).flags.slice(2), ["--allow-read=/opt/bb/p.json"]);
  assert.match(bakedEntry({ policyPath: baked.policyPath }), /"policyPath":"\/opt\/bb\/p\.json"/);
  assert.doesNotMatch(bakedEntry(new URL("https://bitbucket.example.com")), /policyPath/);
  const windows = parseCompileArgs(["--target", "x86_64-pc-windows-msvc"]);
  assert.equal(windows.policyPath, defaultPolicyPath("windows"));
  assert.equal(windows.bakePolicy, false);
  assert.throws(() => parseCompileArgs(["--policy", "policy.json"]), /absolute path/);
  assert.throws(() => parseCompileArgs(["--policy", "/a,b.json"]), /without commas/);
});

Deno.test("compile: deno task compile refuses a bad --url before building anything", async () => {
  const out = await exec("deno", ["task", "compile", "--url", "bitbucket.example.com"]);
  assert.equal(out.code, 2, out.stderr);
  assert.match(out.stderr, /compile: BITBUCKET_URL is not a URL/);
});

Deno.test("compile: a baked URL is used when BITBUCKET_URL is unset, and BITBUCKET_URL and --url override it", async () => {
  await using fixture = fixtureWith(system.routes);
  await using dir = await tempDir("baked");
  const entry = `${dir.path}/baked_main.ts`;
  const runModule = new URL("../../src/cli/run.ts", import.meta.url).href;
  await Deno.writeTextFile(entry, bakedEntry(new URL(fixture.url), runModule));
  const host = new URL(fixture.url).host;
  const check = (args: string[], env: Record<string, string>) =>
    exec("deno", [
      "run",
      "--no-prompt",
      `--config=${ROOT}deno.json`,
      ...scopedPermissions(host),
      entry,
      "check",
      ...args,
    ], env);

  const baked = await check([], { BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(baked.code, 0, baked.stdout + baked.stderr);
  assert.match(baked.stdout, new RegExp(`^✓ url +${fixture.url}$`, "m"));
  assert.match(baked.stdout, /^✓ token +authenticated as bwilson/m);

  const fromEnv = await check([], {
    BITBUCKET_TOKEN: TEST_TOKEN,
    BITBUCKET_URL: "https://bitbucket.example.com",
  });
  assert.equal(fromEnv.code, 1);
  assert.match(fromEnv.stdout, /^✓ url +https:\/\/bitbucket\.example\.com$/m);
  assert.match(fromEnv.stdout, /^✗ permission +no network permission for bitbucket\.example\.com/m);

  const fromFlag = await check(["--url", "https://other.example.com"], {
    BITBUCKET_TOKEN: TEST_TOKEN,
    BITBUCKET_URL: "https://bitbucket.example.com",
  });
  assert.match(fromFlag.stdout, /^✓ url +https:\/\/other\.example\.com$/m);

  await Deno.writeTextFile(entry, bakedEntry(new URL("ftp://bitbucket.example.com"), runModule));
  const invalid = await check([], { BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(invalid.code, 1);
  assert.match(invalid.stdout, /^✗ url +BITBUCKET_URL must start with https:\/\/ or http:\/\//m);
});

const runtime = compileRuntime();
/** Where `deno task compile` writes the test binary: the test task may run exactly this path. */
const BINARY = "dist/test/bitbucket-mcp";

Deno.test({
  name:
    `compile: deno task compile --url builds one binary that answers --version, tools --json and a tool call with only BITBUCKET_TOKEN set${
      runtime.available
        ? ""
        : " (ignored: deno compile cannot fetch denort here; set DENORT_BIN or run in the release workflow)"
    }`,
  ignore: !runtime.available,
  fn: async () => {
    await using fixture = fixtureWith([...refs.routes, ...system.routes]);
    const build = await exec(
      "deno",
      ["task", "compile", "--url", fixture.url, "--output", BINARY],
      Deno.env.get("DENORT_BIN") ? { DENORT_BIN: Deno.env.get("DENORT_BIN")! } : {},
    );
    assert.equal(build.code, 0, build.stderr);
    assert.match(build.stdout, /network access to 127\.0\.0\.1:\d+ only/);

    const version = await exec(BINARY, ["--version"]);
    assert.equal(version.stdout.trim(), `bitbucket-mcp ${VERSION}`);
    const listing = JSON.parse((await exec(BINARY, ["tools", "--json"])).stdout) as {
      tools: { name: string }[];
    };
    assert.deepEqual(listing.tools.map((t) => t.name), CATALOGUE.map((t) => t.name));

    const client = new Client({ name: "compiled", version: "0.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: `${ROOT}${BINARY}`,
        env: { BITBUCKET_TOKEN: TEST_TOKEN },
        stderr: "pipe",
      }),
    );
    try {
      // With no flags, a tool of the default set.
      const result = await client.callTool({
        name: "list_branches",
        arguments: { project: "PROJ", repo: "web", limit: 3 },
      });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const { branches } = result.structuredContent as { branches: { displayId: string }[] };
      assert.equal(branches[0]?.displayId, "main");
    } finally {
      await client.close();
    }
    // The permission is baked in: another host stays out of reach, whatever the URL says.
    const elsewhere = await exec(BINARY, ["check", "--url", "https://other.example.com"], {
      BITBUCKET_TOKEN: TEST_TOKEN,
    });
    assert.equal(elsewhere.code, 1);
    assert.match(elsewhere.stdout, /^✗ permission +no network permission for other\.example\.com/m);
  },
});

Deno.test("compile: --client-cert-dir grants reading that directory too, for a binary behind a mutual-TLS proxy", () => {
  const dir = "/etc/bitbucket-mcp/tls";
  const built = parseCompileArgs(["--host", "bitbucket.example.com", "--client-cert-dir", dir]);
  const read = compilePermissions(built).flags.find((flag) => flag.startsWith("--allow-read="));
  assert.deepEqual(read?.slice("--allow-read=".length).split(","), [built.policyPath, dir]);
  assert.match(
    compilePermissions(built).grants,
    /client certificates in \/etc\/bitbucket-mcp\/tls/,
  );
  const plain = parseCompileArgs(["--host", "bitbucket.example.com"]);
  assert.equal(
    compilePermissions(plain).flags.find((f) => f.startsWith("--allow-read=")),
    `--allow-read=${plain.policyPath}`,
  );
  assert.throws(
    () => parseCompileArgs(["--client-cert-dir", "certs"]),
    /--client-cert-dir takes an absolute/,
  );
  assert.throws(() => parseCompileArgs(["--client-cert-dir", "/a,b"]), /without commas/);
});
