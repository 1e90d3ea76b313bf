/**
 * The README tells a new user the truth: its first commands are the demo and
 * CI's tests (which GitHub runs on every pull request), its client snippets
 * run, and every flag and variable the CLI knows is documented (in
 * docs/configuration.md).
 */
import assert from "node:assert/strict";
import { parseFlags, USAGE } from "../../src/cli/flags.ts";
import { exposedTools } from "../../src/policy/choices.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { DEFAULT_SET_LIMIT } from "../../src/tools/kit/default_set.ts";
import { NARROWING_HEADERS, pathAsk } from "../../src/server/connection_selection.ts";
import { MCP_PATH } from "../../src/server/http.ts";
import { ENV_VARS, LOCAL_ENV_VARS } from "../../src/config.ts";
import { parseYamlDocuments } from "../support/yaml_subset.ts";
import { docsPages, fences, readRepoFile, section, tableRows } from "./markdown.ts";

const README = readRepoFile("README.md");
const CONFIGURATION = readRepoFile("docs/configuration.md");
const CI = readRepoFile(".ci/run");

/** The backquoted names (`--flag`, `VARIABLE`) of the first cells of a section's table. */
function firstCellNames(markdown: string, heading: string, pattern: RegExp): Set<string> {
  return new Set(
    tableRows(section(markdown, heading)).flatMap((cells) =>
      [...cells[0]!.matchAll(/`([^`]+)`/g)].map((m) => pattern.exec(m[1]!)?.[0] ?? m[1]!)
    ),
  );
}

/** The flags `--help` lists, one per entry of its Flags section (`-h, --help` as `--help`). */
function helpFlags(): Set<string> {
  const flags = USAGE.slice(USAGE.indexOf("\nFlags:\n"), USAGE.indexOf("\nEnvironment:\n"));
  return new Set([...flags.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!));
}

Deno.test("docs/configuration.md's Flags table has a row for each flag --help lists, and no other", () => {
  const help = helpFlags();
  assert.ok(help.size > 10, `--help lists its flags (${[...help].join(" ")})`);
  assert.deepEqual(firstCellNames(CONFIGURATION, "Flags", /^--[a-z][a-z-]*/), help);
});

Deno.test("docs/configuration.md's Environment table has a row for each variable the server reads, and no other", () => {
  assert.deepEqual(
    firstCellNames(CONFIGURATION, "Environment", /^\S+/),
    new Set([...ENV_VARS, ...LOCAL_ENV_VARS]),
  );
});

Deno.test("docs/configuration.md documents every flag --help mentions, its own or deno's", () => {
  for (const flag of new Set(USAGE.match(/--[a-z][a-z-]*/g))) {
    assert.ok(CONFIGURATION.includes(`\`${flag}`), `docs/configuration.md documents ${flag}`);
  }
});

/** The task a shell line runs with `deno task <name>` (Deno from npm or not); undefined when none. */
function taskOf(line: string): string | undefined {
  return /\bdeno(?:@[\w.-]+)? task ([\w:-]+)/.exec(line)?.[1];
}

/** The one task .ci/run runs, from its commands (comments left out). */
function ciTask(): string {
  const tasks = CI.split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .flatMap((line) => taskOf(line) ?? []);
  assert.equal(tasks.length, 1, `.ci/run runs one deno task (${tasks.join(", ")})`);
  return tasks[0]!;
}

/** The README's first sh block, before any section, as command lines with their comments apart. */
function leadingCommands(): { command: string; comment: string }[] {
  const first = fences(README).find((fence) => fence.lang === "sh");
  assert.ok(first, "README has an sh block");
  assert.ok(
    README.split("\n").slice(0, first.line).every((line) => !line.startsWith("## ")),
    "the first sh block comes before any section",
  );
  return first.body.trim().split("\n").map((line) => {
    const m = /^(.*?)\s+#\s*(.*)$/.exec(line);
    return m ? { command: m[1]!, comment: m[2]! } : { command: line.trim(), comment: "" };
  });
}

Deno.test("README's test command runs the task CI runs", () => {
  const tests = leadingCommands().filter((c) => /\btests?\b/i.test(c.comment));
  assert.equal(tests.length, 1, "the README's first sh block gives one command for the tests");
  const task = taskOf(tests[0]!.command);
  assert.ok(task, `the README's test command runs a deno task: ${tests[0]!.command}`);
  assert.equal(task, ciTask(), "the README's test command and .ci/run run the same task");
  const { tasks } = JSON.parse(readRepoFile("deno.json"));
  assert.ok(tasks[task], `deno.json has the task ${task}`);
});

Deno.test("docs/development.md's test command runs the task CI runs", () => {
  const test = section(readRepoFile("docs/development.md"), "Test");
  const block = fences(test).find((fence) => fence.lang === "sh");
  assert.ok(block, "the Test section has an sh block");
  assert.deepEqual(block.body.trim().split("\n").map(taskOf), [ciTask()]);
});

Deno.test("GitHub runs .ci/run on every pull request and push to main, on ubuntu-latest, with a timeout", () => {
  const [workflow] = parseYamlDocuments(readRepoFile(".github/workflows/ci.yml")) as {
    on: { pull_request: unknown; push?: { branches?: string[] } };
    jobs: Record<
      string,
      { "runs-on"?: string; "timeout-minutes"?: number; steps: { run?: string }[] }
    >;
  }[];
  assert.ok(workflow && "pull_request" in workflow.on, "on every pull request");
  assert.deepEqual(workflow.on.push?.branches, ["main"], "and on pushes to main");
  const runs = Object.values(workflow.jobs).filter((job) =>
    job.steps.some((step) => step.run === ".ci/run")
  );
  assert.equal(runs.length, 1, "one job runs .ci/run");
  assert.equal(runs[0]!["runs-on"], "ubuntu-latest");
  assert.ok((runs[0]!["timeout-minutes"] ?? 0) > 0, "with a timeout");
});

Deno.test("README leads with two commands, the demo and the tests, both through Deno from npm at CI's version", () => {
  const commands = leadingCommands().map((c) => c.command);
  const version = /^DENO_VERSION=(\S+)$/m.exec(CI)?.[1];
  assert.ok(version, ".ci/run pins a Deno version");
  assert.deepEqual(commands, [
    `npx -y deno@${version} task demo`,
    `npx -y deno@${version} task test`,
  ]);
  const { tasks } = JSON.parse(readRepoFile("deno.json"));
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
const OUR_VARIABLES: Set<string> = new Set([...ENV_VARS, ...LOCAL_ENV_VARS]);

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
  // A profile's token_env names a variable of the person's choosing (docs/configuration.md#profiles).
  const profiled = args.includes("--profile");
  for (const name of allowEnv.slice("--allow-env=".length).split(",")) {
    assert.ok(
      OUR_VARIABLES.has(name) || (profiled && /^[A-Z][A-Z0-9_]*_TOKEN$/.test(name)),
      `${where}: --allow-env names ${name}`,
    );
  }
  assert.ok(
    args.some((a) => /^--allow-net=[a-z0-9.-]+(:\d+)?(,[a-z0-9.-]+(:\d+)?)*$/.test(a)),
    `${where}: --allow-net is scoped`,
  );
  assert.ok(!args.some((a) => a === "-A" || a === "--allow-all" || a === "--allow-net"), where);
  for (const arg of args.filter((a) => !a.startsWith("--allow-env="))) {
    assert.ok(!/token/i.test(arg), `${where}: no token in the arguments (${arg})`);
  }
}

Deno.test("README's client snippets: every JSON snippet parses and names only real flags and variables, with no token in the arguments", () => {
  const denoFlags = denoRunFlags();
  const snippets = fences(README).filter((f) => f.lang === "json").map((f) => JSON.parse(f.body));
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
      // The token comes in the environment, or from a profile (its variable, or a signed-in session).
      assert.ok(
        entry.env?.BITBUCKET_TOKEN || entry.args?.includes("--profile"),
        `${where}: the token comes in the environment or from a profile`,
      );
    }
  }
  assert.ok(stdioEntries >= 3, "Claude Desktop, VS Code and Cursor snippets");
  assert.ok(snippets.some((s) => s.servers), "a VS Code (servers) snippet");
});

Deno.test("README's client snippets each list at most as many tools as Cursor takes, views included", () => {
  for (const fence of fences(README).filter((f) => f.lang === "json")) {
    const snippet = JSON.parse(fence.body);
    const servers: Record<string, ServerEntry> = snippet.mcpServers ?? snippet.servers;
    for (const [name, entry] of Object.entries(servers)) {
      if (entry.command === undefined) continue;
      const args = entry.args ?? [];
      const ours = args.slice(args.findIndex((a) => a.endsWith("main.ts")) + 1);
      const flags = parseFlags(ours);
      const listed = exposedTools(selectTools(CATALOGUE, flags), flags.confinement);
      assert.ok(
        listed.length <= DEFAULT_SET_LIMIT,
        `${name} (${ours.join(" ") || "no flags"}) lists ${listed.length} tools`,
      );
    }
  }
});

Deno.test("README's Claude Code command passes the token with --env and runs deno with real flags only", () => {
  const line = /^claude mcp add [\s\S]*?main\.ts$/m.exec(README)?.[0].replace(/\\\n\s*/g, "");
  assert.ok(line, "a claude mcp add command");
  const [claudePart, serverPart] = line.split(" -- ");
  assert.match(claudePart!, /--env BITBUCKET_TOKEN="\$BITBUCKET_TOKEN"/);
  checkArgs("claude mcp add", serverPart!.trim().split(/\s+/).slice(1), denoRunFlags());
});

Deno.test("docs pages' JSON blocks parse, and docs/http.md's client entries send the token as a Bearer header, each narrowing form among them", () => {
  const http = fences(readRepoFile("docs/http.md")).filter((f) => f.lang === "json");
  const entries = http.flatMap((fence) =>
    Object.values(JSON.parse(fence.body).mcpServers ?? {}) as (ServerEntry & {
      url?: string;
      headers?: Record<string, string>;
    })[]
  );
  const forms = new Set<string>();
  const headerNames = new Map(
    Object.values(NARROWING_HEADERS).map((name) => [name.toLowerCase(), name]),
  );
  for (const entry of entries) {
    assert.equal(entry.type, "http");
    assert.match(entry.headers?.Authorization ?? "", /^Bearer \S+$/);
    const url = new URL(entry.url ?? "");
    const path = pathAsk(url.pathname, MCP_PATH);
    assert.ok(path, `${url}: an MCP path`);
    if (path.toolsets) {
      forms.add(path.readOnly ? "/mcp/x/{toolsets}/readonly" : "/mcp/x/{toolsets}");
    } else if (path.readOnly) forms.add("/mcp/readonly");
    for (const name of Object.keys(entry.headers ?? {})) {
      if (name === "Authorization") continue;
      assert.equal(headerNames.get(name.toLowerCase()), name, `${name}: a narrowing header`);
      forms.add(name);
    }
  }
  assert.deepEqual(
    [...forms].sort(),
    [
      ...Object.values(NARROWING_HEADERS),
      "/mcp/readonly",
      "/mcp/x/{toolsets}",
      "/mcp/x/{toolsets}/readonly",
    ].sort(),
    "a snippet for each form",
  );
  assert.ok(
    entries.some((e) => /^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(e.url ?? "")),
    "the first entry: the local server at /mcp",
  );
  for (const page of docsPages()) {
    for (const fence of fences(readRepoFile(page)).filter((f) => f.lang === "json")) {
      assert.doesNotThrow(() => JSON.parse(fence.body), `${page}:${fence.line}: the JSON parses`);
    }
  }
});
