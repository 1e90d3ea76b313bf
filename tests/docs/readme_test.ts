import assert from "node:assert/strict";
import { USAGE } from "../src/cli/flags.ts";
import { ENV_VARS } from "../src/config.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

Deno.test("README documents every flag and environment variable the CLI knows", () => {
  for (const flag of new Set(USAGE.match(/--[a-z-]+/g))) {
    assert.ok(README.includes(`\`${flag}`), `README documents ${flag}`);
  }
  for (const name of ENV_VARS) {
    assert.ok(README.includes(`\`${name}\``), `README documents ${name}`);
  }
});

Deno.test("README's test command is the one CI runs", () => {
  const ci = Deno.readTextFileSync(new URL("../.ci/run", import.meta.url));
  assert.ok(README.includes("deno task test"));
  assert.ok(ci.includes("deno task test"));
});

Deno.test("README leads with two commands, the demo and the tests, both through Deno from npm at CI's version", () => {
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(README);
  assert.ok(
    firstBlock && firstBlock.index < README.indexOf("\n## "),
    "a command block before any section",
  );
  const commands = firstBlock[1]!.trim().split("\n").map((line) => line.replace(/\s+#.*$/, ""));
  const ci = Deno.readTextFileSync(new URL("../.ci/run", import.meta.url));
  const version = /^DENO_VERSION=(\S+)$/m.exec(ci)?.[1];
  assert.deepEqual(commands, [
    `npx -y deno@${version} task demo`,
    `npx -y deno@${version} task test`,
  ]);
  const { tasks } = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  assert.ok(tasks.demo && tasks.test, "both tasks exist");
});

/** Every `--flag` `deno run` accepts, from its own help. */
function denoRunFlags(): Set<string> {
  const help = new TextDecoder().decode(
    new Deno.Command("deno", { args: ["run", "--help"], env: { NO_COLOR: "1" } }).outputSync()
      .stdout,
  );
  return new Set(help.match(/--[a-z][a-z-]*/g));
}

const OUR_FLAGS = new Set(USAGE.match(/--[a-z][a-z-]*/g));
const OUR_VARIABLES: Set<string> = new Set(ENV_VARS);

/** An MCP client's server entry, as the README's snippets write one. */
interface ServerEntry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

/** Checks the arguments of a stdio server entry: deno's flags, then main.ts, then ours; no token. */
function checkArgs(where: string, args: readonly string[], denoFlags: Set<string>): void {
  const flagName = (arg: string) => arg.split("=")[0]!;
  assert.equal(args[0], "run", `${where}: deno run`);
  const script = args.findIndex((a, i) => i > 0 && !a.startsWith("-"));
  assert.ok(script > 0 && args[script]!.endsWith("main.ts"), `${where}: runs main.ts`);
  for (const arg of args.slice(1, script)) {
    assert.ok(denoFlags.has(flagName(arg)), `${where}: ${arg} is a deno run flag`);
  }
  for (const arg of args.slice(script + 1).filter((a) => a.startsWith("-"))) {
    assert.ok(OUR_FLAGS.has(flagName(arg)), `${where}: ${arg} is a bitbucket-mcp flag`);
  }
  const allowEnv = args.find((a) => a.startsWith("--allow-env="));
  assert.ok(allowEnv, `${where}: --allow-env is scoped`);
  for (const name of allowEnv.slice("--allow-env=".length).split(",")) {
    assert.ok(OUR_VARIABLES.has(name), `${where}: --allow-env names ${name}`);
  }
  assert.ok(
    args.some((a) => /^--allow-net=[a-z0-9.-]+$/.test(a)),
    `${where}: --allow-net is scoped`,
  );
  assert.ok(!args.some((a) => a === "-A" || a === "--allow-all" || a === "--allow-net"), where);
  for (const arg of args.filter((a) => !a.startsWith("--allow-env="))) {
    assert.ok(!/token/i.test(arg), `${where}: no token in the arguments (${arg})`);
  }
}

Deno.test("README's client snippets: every JSON snippet parses and names only real flags and variables, with no token in the arguments", () => {
  const denoFlags = denoRunFlags();
  const snippets = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
  let stdioEntries = 0;
  for (const snippet of snippets) {
    const servers: Record<string, ServerEntry> = snippet.mcpServers ?? snippet.servers;
    assert.ok(servers, `a client configuration: ${JSON.stringify(snippet).slice(0, 80)}`);
    for (const [name, entry] of Object.entries(servers)) {
      if (entry.command === undefined) continue; // an HTTP entry (url, headers)
      stdioEntries++;
      const where = `${snippet.servers ? "servers" : "mcpServers"}.${name}`;
      if (snippet.servers) assert.equal(entry.type, "stdio", `${where}: VS Code wants type stdio`);
      assert.equal(entry.command, "deno", where);
      checkArgs(where, entry.args ?? [], denoFlags);
      for (const variable of Object.keys(entry.env ?? {})) {
        assert.ok(OUR_VARIABLES.has(variable), `${where}: env ${variable} is one of ours`);
      }
      assert.ok(entry.env?.BITBUCKET_TOKEN, `${where}: the token comes in the environment`);
    }
  }
  assert.ok(stdioEntries >= 3, "Claude Desktop, VS Code and Cursor snippets");
  assert.ok(snippets.some((s) => s.servers), "a VS Code (servers) snippet");
});

Deno.test("README's Claude Code command passes the token with --env and runs deno with real flags only", () => {
  const line = /^claude mcp add [\s\S]*?main\.ts$/m.exec(README)?.[0].replace(/\\\n\s*/g, "");
  assert.ok(line, "a claude mcp add command");
  const [claudePart, serverPart] = line.split(" -- ");
  assert.match(claudePart!, /--env BITBUCKET_TOKEN="\$BITBUCKET_TOKEN"/);
  checkArgs("claude mcp add", serverPart!.trim().split(/\s+/).slice(1), denoRunFlags());
});
