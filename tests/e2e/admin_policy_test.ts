/**
 * The administrator's policy, end to end: an entry point generated in /tmp
 * with a policy path baked in (as `deno task compile --policy` bakes one),
 * run as a user runs it with read access to that one file, against the
 * fixture Bitbucket. Disabled refuses to start with who decided; read_only
 * hides writes without `--read-only`; under no_yolo `--yolo` still asks;
 * confine is intersected with `--project`/`--repo`; an invalid file refuses
 * to start in one line; `check` shows the policy.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { bakedEntry } from "../../scripts/compile.ts";
import { MANIFEST_TOOLS } from "../../src/tools/manifest.ts";
import { refs } from "../../testing/cases/refs.ts";
import { system } from "../../testing/cases/system.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { scopedPermissions } from "../../testing/spawn.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import { tempDir } from "../support/temp_dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const RUN_MODULE = new URL("../../src/cli/run.ts", import.meta.url).href;

/** An entry point whose policy file is `policy.json` beside it, and that file's contents. */
async function bakedPolicy(
  file: unknown,
): Promise<AsyncDisposable & { entry: string; path: string }> {
  const dir = await tempDir("policy");
  const path = `${dir.path}/policy.json`;
  const entry = `${dir.path}/main.ts`;
  await Deno.writeTextFile(entry, bakedEntry({ policyPath: path }, RUN_MODULE));
  if (file !== undefined) {
    await Deno.writeTextFile(path, typeof file === "string" ? file : JSON.stringify(file), {
      mode: 0o600,
    });
  }
  return { entry, path, [Symbol.asyncDispose]: () => dir[Symbol.asyncDispose]() };
}

/** `deno run` of `entry` as a user runs it, allowed to read the policy file and nothing else. */
function denoArgs(baked: { entry: string; path: string }, host: string, args: string[]): string[] {
  return [
    "run",
    "--no-prompt",
    `--config=${ROOT}deno.json`,
    `--allow-read=${baked.path}`,
    ...scopedPermissions(host),
    baked.entry,
    ...args,
  ];
}

/** Runs the entry to its end with only the Bitbucket variables set. */
async function runBaked(
  baked: { entry: string; path: string },
  url: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command("deno", {
    args: denoArgs(baked, new URL(url).host, args),
    env: { BITBUCKET_URL: url, BITBUCKET_TOKEN: TEST_TOKEN, PATH: Deno.env.get("PATH") ?? "" },
    clearEnv: true,
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/** A client connected over stdio to the entry; it answers each confirmation form with `elicit`. */
async function connectBaked(
  baked: { entry: string; path: string },
  url: string,
  args: string[],
  elicit?: () => { action: "decline" },
): Promise<{ client: Client; stderr: () => string } & AsyncDisposable> {
  const transport = new StdioClientTransport({
    command: "deno",
    args: denoArgs(baked, new URL(url).host, args),
    env: { BITBUCKET_URL: url, BITBUCKET_TOKEN: TEST_TOKEN, PATH: Deno.env.get("PATH") ?? "" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client(
    { name: "policy-e2e", version: "0.0.0" },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) client.setRequestHandler("elicitation/create", () => elicit());
  await client.connect(transport);
  return { client, stderr: () => stderr, [Symbol.asyncDispose]: () => client.close() };
}

Deno.test("admin policy e2e: disabled refuses to start, in one line saying who decided", async () => {
  await using fixture = fixtureWith(refs.routes);
  await using baked = await bakedPolicy({
    disabled: true,
    reason: "under security review",
    contact: "it-tools@example.com",
  });
  for (const args of [[], ["--read-only"], ["serve", "--http", "127.0.0.1:0"]]) {
    const out = await runBaked(baked, fixture.url, args);
    assert.equal(out.code, 2, args.join(" "));
    assert.equal(out.stdout, "");
    assert.equal(
      out.stderr,
      `bitbucket-mcp: the administrator's policy ${baked.path} disables bitbucket-mcp on this machine: under security review (contact: it-tools@example.com)\n`,
    );
  }
  assert.equal(fixture.requests.length, 0, "nothing reached Bitbucket");
});

Deno.test("admin policy e2e: invalid JSON or a wrong type refuses to start, in one line naming the file and the problem", async () => {
  await using fixture = fixtureWith(refs.routes);
  for (
    const [file, problem] of [
      ['{"read_only": true,', /not JSON: /],
      [{ read_only: "yes" }, /read_only: .*boolean/],
      [{ read_only: true, no_delete: true }, /no_delete/],
    ] as const
  ) {
    await using baked = await bakedPolicy(file);
    const out = await runBaked(baked, fixture.url, []);
    assert.equal(out.code, 2, out.stderr);
    const lines = out.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, out.stderr);
    assert.ok(
      lines[0]!.startsWith(`bitbucket-mcp: the administrator's policy ${baked.path} is invalid (`),
    );
    assert.match(lines[0]!, problem);
    assert.match(lines[0]!, /nothing is served until it is fixed/);
  }
});

Deno.test("admin policy e2e: read_only lists read-only tools only, without --read-only, and the instructions say so", async () => {
  await using fixture = fixtureWith(refs.routes);
  await using baked = await bakedPolicy({ read_only: true });
  await using server = await connectBaked(baked, fixture.url, []);
  const { tools } = await server.client.listTools();
  const listed = new Set(tools.map((t) => t.name));
  const writes = MANIFEST_TOOLS.filter((t) => t.access.level !== "read-only").map((t) => t.name);
  assert.ok(writes.length > 0);
  assert.deepEqual(writes.filter((name) => listed.has(name)), [], "no write is listed");
  const reads = MANIFEST_TOOLS.filter((t) => t.access.level === "read-only" && listed.has(t.name));
  assert.ok(reads.length > 0, "reads are");
  assert.match(server.client.getInstructions() ?? "", /An administrator's policy .*read-only/);
});

Deno.test("admin policy e2e: under no_yolo, --yolo still asks before an unsafe write, and says it has no effect", async () => {
  await using fixture = fixtureWith(refs.routes);
  await using baked = await bakedPolicy({ no_yolo: true });
  let asked = 0;
  await using server = await connectBaked(
    baked,
    fixture.url,
    ["--yolo", "--toolsets", "all"],
    () => {
      asked++;
      return { action: "decline" };
    },
  );
  const result = await server.client.callTool({
    name: "delete_tag",
    arguments: { project: "PROJ", repo: "web", name: "v1.0.0" },
  });
  assert.equal(asked, 1, "the person was asked");
  assert.ok(!fixture.requests.some((r) => r.method === "DELETE"), JSON.stringify(result));
  assert.match(server.stderr(), /--yolo has no effect: the administrator's policy/);
});

Deno.test("admin policy e2e: confine is intersected with --project; a --project outside it stops start-up", async () => {
  await using fixture = fixtureWith(refs.routes);
  await using baked = await bakedPolicy({ confine: { repos: ["PROJ/web", "OPS/infra"] } });
  const outside = await runBaked(baked, fixture.url, ["--project", "SECRET"]);
  assert.equal(outside.code, 2);
  assert.equal(
    outside.stderr,
    `bitbucket-mcp: --project SECRET is outside the administrator's policy ${baked.path}, which confines this server to PROJ/web, OPS/infra\n`,
  );
  // --project PROJ under the policy is PROJ/web alone: tools take no project or repo.
  await using server = await connectBaked(baked, fixture.url, [
    "--project",
    "PROJ",
    "--toolsets",
    "all",
  ]);
  const inside = await server.client.callTool({ name: "list_tags", arguments: {} });
  assert.notEqual(inside.isError, true, JSON.stringify(inside.content));
  const seen = fixture.requests.length;
  for (const args of [{ project: "OPS", repo: "infra" }, { project: "PROJ", repo: "api" }]) {
    const refused = await server.client.callTool({ name: "list_tags", arguments: args });
    assert.equal(refused.isError, true, JSON.stringify(args));
  }
  assert.equal(fixture.requests.length, seen, "nothing outside the intersection reached Bitbucket");
});

Deno.test("admin policy e2e: check shows the policy in force, its path and keys, and the tools it leaves", async () => {
  await using fixture = fixtureWith(system.routes);
  await using baked = await bakedPolicy({
    read_only: true,
    no_yolo: true,
    confine: { projects: ["PROJ"] },
    reason: "pilot",
    contact: "it-tools@example.com",
  });
  const out = await runBaked(baked, fixture.url, ["check"]);
  assert.equal(out.code, 0, out.stdout + out.stderr);
  assert.match(
    out.stdout,
    new RegExp(
      `^✓ policy +${baked.path}: read-only, unsafe writes always ask, confined to project PROJ; why: pilot \\(contact: it-tools@example\\.com\\)$`,
      "m",
    ),
  );
  assert.match(
    out.stdout,
    /^✓ tools .*; read-only tools only \(the administrator's policy\); confined to project PROJ/m,
  );

  await using disabled = await bakedPolicy({ disabled: true, reason: "paused" });
  const off = await runBaked(disabled, fixture.url, ["check"]);
  assert.equal(off.code, 1, off.stdout + off.stderr);
  assert.match(off.stdout, /^✗ policy +.*: disabled, nothing is served: paused\. Fix: /m);
  assert.match(off.stdout, /^- tools +not checked: the administrator's policy serves nothing$/m);

  await using none = await bakedPolicy(undefined);
  const missing = await runBaked(none, fixture.url, ["check"]);
  assert.equal(missing.code, 0, missing.stdout);
  assert.match(missing.stdout, new RegExp(`^✓ policy +none \\(no ${none.path}\\)$`, "m"));
});
