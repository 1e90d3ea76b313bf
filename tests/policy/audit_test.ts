/**
 * The audit log (src/policy/audit.ts, `--audit-file`): one line per call with
 * each field, the token never in it, a caller fingerprint over HTTP, refusal
 * (nothing sent to Bitbucket) when a write tool's call cannot be recorded,
 * `--audit-failure warn`, and the start-up and `check` faces of the flag.
 */
import assert from "node:assert/strict";
import type { ElicitResult } from "@modelcontextprotocol/client";
import { type AuditLog, fingerprint, openAuditFile } from "../../src/policy/audit.ts";
import { CONFIRM_KEY } from "../../src/policy/confirmation.ts";
import { pullRequests } from "../../testing/cases/pull_requests.ts";
import { refs } from "../../testing/cases/refs.ts";
import { Confinement } from "../../src/policy/confinement.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import { connect, TEST_TOKEN } from "../../testing/harness.ts";
import { connectHttp, startHttp } from "../support/http_server.ts";
import { runMain, scopedPermissions } from "../../testing/spawn.ts";
import { RawStdioSession, stdioServerParams } from "../support/stdio_server.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const MERGE = { project: "PROJ", repo: "web", pr_id: 42 };

/** An audit log keeping its lines in memory, or failing every write when `broken`. */
function memoryLog(options: { broken?: boolean; failure?: "refuse" | "warn" } = {}) {
  const lines: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  const raw: string[] = [];
  const log: AuditLog = {
    sink: (line) => {
      if (options.broken) throw new Error("disk full");
      raw.push(line);
      lines.push(JSON.parse(line));
    },
    failure: options.failure ?? "refuse",
    warn: (message) => warnings.push(message),
  };
  return { log, lines, warnings, raw };
}

Deno.test("audit: a read's line holds time, tool, arguments, confirmation, outcome and the requests made; never the token", async () => {
  const audit = memoryLog();
  await using h = await connect({ routes: refs.routes, audit: audit.log });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web", limit: 3 },
  });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(audit.lines.length, 1, "a read writes one line");
  const [line] = audit.lines;
  assert.match(String(line!.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(line!.event, "call");
  assert.equal(line!.tool, "list_branches");
  assert.deepEqual(line!.arguments, { project: "PROJ", repo: "web", limit: 3 });
  assert.equal(line!.confirmation, "not needed");
  assert.deepEqual(line!.outcome, { result: "ok" });
  assert.deepEqual(line!.requests, [
    { method: "GET", path: `${REPO}/branches?start=0&limit=3`, status: 200 },
  ]);
  assert.equal(line!.caller, undefined, "stdio has no caller fingerprint");
  assert.ok(!audit.raw.join("\n").includes(TEST_TOKEN), "the token never appears");
});

Deno.test("audit: a Bitbucket failure is recorded with its kind and status", async () => {
  const audit = memoryLog();
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/branches`,
      status: 404,
      body: { errors: [{ message: "Repository web does not exist." }] },
    }],
    audit: audit.log,
  });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.equal(result.isError, true);
  assert.deepEqual(audit.lines[0]!.outcome, { result: "error", kind: "not_found", status: 404 });
  assert.equal((audit.lines[0]!.requests as { status: number }[])[0]!.status, 404);
});

const answers: [string, ElicitResult, string, number][] = [
  ["accepted", { action: "accept", content: { [CONFIRM_KEY]: true } }, "accepted", 1],
  ["declined", { action: "decline" }, "declined", 0],
  ["cancelled", { action: "cancel" }, "cancelled", 0],
];
for (const [why, answer, recorded, posts] of answers) {
  Deno.test(`audit: a merge the person ${why} is recorded as started, then with confirmation '${recorded}'`, async () => {
    const audit = memoryLog();
    await using h = await connect({
      routes: pullRequests.routes,
      audit: audit.log,
      era: "legacy",
      elicit: () => answer,
    });
    await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
    assert.equal(h.fixture.requests.filter((r) => r.method === "POST").length, posts);
    const events = audit.lines.map((l) => [l.event, l.confirmation]);
    assert.deepEqual(events.at(-2), ["started", undefined], "the start is recorded first");
    const last = audit.lines.at(-1)!;
    assert.equal(last.confirmation, recorded);
    assert.equal(last.call, audit.lines.at(-2)!.call, "both lines name the same call");
    const methods = (last.requests as { method: string }[]).map((r) => r.method);
    assert.equal(methods.filter((m) => m === "POST").length, posts);
  });
}

Deno.test("audit, 2026-07-28: the round that answers with the form is recorded as 'asked', the retry as 'accepted'", async () => {
  const audit = memoryLog();
  await using h = await connect({
    routes: pullRequests.routes,
    audit: audit.log,
    elicit: () => ({ action: "accept", content: { [CONFIRM_KEY]: true } }),
  });
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.deepEqual(
    audit.lines.map((l) => [l.event, l.confirmation, (l.outcome as { result?: string })?.result]),
    [
      ["started", undefined, undefined],
      ["call", "asked", "input_required"],
      ["started", undefined, undefined],
      ["call", "accepted", "ok"],
    ],
  );
});

Deno.test("audit: a client that cannot ask is recorded as 'unavailable'", async () => {
  const audit = memoryLog();
  await using h = await connect({ routes: pullRequests.routes, audit: audit.log, era: "legacy" });
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
  assert.equal(result.isError, true);
  assert.equal(audit.lines.at(-1)!.confirmation, "unavailable");
  assert.deepEqual(audit.lines.at(-1)!.outcome, { result: "error", kind: "refused" });
});

/** Calls refused before they run: by the schema, and by the confinement (one repository, PROJ/web). */
const refusals: [string, string, Record<string, unknown>, RegExp][] = [
  ["the schema refuses", "list_branches", { project: "PROJ", repo: "web", limit: "many" }, /limit/],
  [
    "the schema refuses, of a write tool,",
    "delete_branch",
    { project: "PROJ", repo: "web" },
    /branch/,
  ],
  [
    "the confinement refuses",
    "list_branches",
    { project: "PROJ", repo: "api" },
    /PROJ\/api is outside/,
  ],
];
for (const [by, tool, args, names] of refusals) {
  Deno.test(`audit: a call ${by} is recorded once, with nothing sent, and answered as without the log`, async () => {
    const audit = memoryLog();
    const confinement = new Confinement([], [{ project: "PROJ", repo: "web" }]);
    await using h = await connect({ routes: refs.routes, audit: audit.log, confinement });
    await using plain = await connect({ routes: refs.routes, confinement });
    const result = await h.client.callTool({ name: tool, arguments: args });
    assert.equal(result.isError, true);
    assert.deepEqual(result, await plain.client.callTool({ name: tool, arguments: args }));
    assert.deepEqual(await h.client.listTools(), await plain.client.listTools(), "same schemas");
    assert.equal(audit.lines.length, 1, "one line, no `started`: nothing ran");
    const [line] = audit.lines;
    assert.equal(line!.tool, tool);
    assert.deepEqual(line!.arguments, args);
    const outcome = line!.outcome as { result: string; kind: string; message: string };
    assert.equal(outcome.result, "error");
    assert.equal(outcome.kind, "invalid_arguments");
    assert.match(outcome.message, names);
    assert.deepEqual(line!.requests, []);
    assert.deepEqual(h.fixture.requests, []);
  });
}

Deno.test("audit: a write tool's call that cannot be recorded is refused, and nothing reaches Bitbucket", async () => {
  const audit = memoryLog({ broken: true });
  await using h = await connect({
    routes: pullRequests.routes,
    audit: audit.log,
    selection: { yolo: true },
  });
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
  assert.equal(result.isError, true);
  assert.match(
    JSON.stringify(result),
    /audit log could not record it \(disk full\); nothing was sent to Bitbucket.*--audit-failure warn/,
  );
  assert.deepEqual(h.fixture.requests, []);
});

Deno.test("audit: a read whose line cannot be written has its result withheld", async () => {
  const audit = memoryLog({ broken: true });
  await using h = await connect({ routes: refs.routes, audit: audit.log });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.equal(result.isError, true);
  assert.match(JSON.stringify(result), /result is withheld/);
  assert.ok(!JSON.stringify(result).includes("feature/login"), "no branch in the answer");
});

Deno.test("audit: with --audit-failure warn a call that cannot be recorded goes on, with a warning", async () => {
  const audit = memoryLog({ broken: true, failure: "warn" });
  await using h = await connect({
    routes: pullRequests.routes,
    audit: audit.log,
    selection: { yolo: true },
  });
  const result = await h.client.callTool({ name: "merge_pull_request", arguments: MERGE });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(h.fixture.requests.filter((r) => r.method === "POST").length, 1);
  assert.equal(audit.warnings.length, 2, "the start and the end each warned");
  assert.match(audit.warnings[0]!, /could not record a call of merge_pull_request \(disk full\)/);
});

Deno.test("audit over HTTP: each line names the caller by a fingerprint of their token, never the token", async () => {
  const audit = memoryLog();
  const callerToken = "caller-SECRET-token-4444";
  await using h = startHttp({
    routes: refs.routes,
    serverToken: "server-SECRET-5555",
    audit: audit.log,
  });
  const client = await connectHttp(h.url, "modern", callerToken);
  try {
    await client.callTool({ name: "list_branches", arguments: { project: "PROJ", repo: "web" } });
  } finally {
    await client.close();
  }
  const expected = await fingerprint(callerToken);
  assert.match(expected, /^[0-9a-f]{12}$/);
  assert.equal(audit.lines[0]!.caller, expected);
  const all = audit.raw.join("\n");
  assert.ok(!all.includes(callerToken) && !all.includes("server-SECRET-5555"), "no token");
});

Deno.test("audit file, end to end: the server started with --audit-file appends one flushed line per call", async () => {
  await using fixture = fixtureWith(refs.routes);
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, '{"earlier":true}\n');
    const params = stdioServerParams(fixture.url, ["--audit-file", path, "--toolsets", "all"]);
    params.args.splice(2, 0, `--allow-write=${path}`);
    const session = new RawStdioSession(params);
    await session.initialize();
    await session.callTool(2, "list_branches", { project: "PROJ", repo: "web" });
    await session.callTool(3, "list_tags", { project: "PROJ", repo: "web" });
    const { code } = await session.close();
    assert.equal(code, 0);
    const text = await readOutside(path);
    assert.ok(!text.includes(TEST_TOKEN), "the token never appears");
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.tool ?? "kept"), ["kept", "list_branches", "list_tags"]);
    assert.deepEqual(lines[2].requests.map((r: { status: number }) => r.status), [200]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("audit file: SIGHUP reopens the path, so a rotated file gets no more lines", async () => {
  await using fixture = fixtureWith(refs.routes);
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const rotated = `${path}.1`;
  const repo = { project: "PROJ", repo: "web" };
  const linesOf = async (file: string) =>
    (await readOutside(file)).trimEnd().split("\n").filter((l) => l !== "").map((l) =>
      JSON.parse(l) as { tool: string; arguments: { limit?: number } }
    );
  try {
    const params = stdioServerParams(fixture.url, [
      "--audit-file",
      path,
      "--log-level",
      "info",
      "--toolsets",
      "all",
    ]);
    params.args.splice(2, 0, `--allow-write=${path}`);
    const session = new RawStdioSession(params);
    await session.initialize();
    await session.callTool(2, "list_branches", repo);
    await outside(`Deno.renameSync(${JSON.stringify(path)}, ${JSON.stringify(rotated)})`);
    session.signal("SIGHUP");
    // The signal arrives in its own time: calls go on until one is recorded at the path.
    let id = 3;
    do await session.callTool(id++, "list_tags", repo); while (
      id < 300 && (await linesOf(path).catch(() => [])).length === 0
    );
    const marker = await session.callTool(id, "list_branches", { ...repo, limit: 3 });
    const { code, stderr } = await session.close();
    assert.equal(code, 0);
    assert.notEqual(marker.isError, true);
    assert.match(stderr, /audit log: reopened /);
    const before = await linesOf(rotated);
    assert.equal(before[0]?.tool, "list_branches", "the rotated file keeps its lines");
    assert.ok(!before.some((l) => l.arguments.limit === 3), "and gets none after the reopening");
    const after = await linesOf(path);
    assert.deepEqual(after.at(-1)?.arguments, { ...repo, limit: 3 });
  } finally {
    await outside(
      `for (const p of ${JSON.stringify([path, rotated])}) try { Deno.removeSync(p) } catch {}`,
    );
  }
});

/** Runs `code` in a child process that may read and write /tmp (the tests may only write it). */
async function outside(code: string): Promise<void> {
  const { success } = await new Deno.Command("deno", {
    args: ["eval", code],
    stdout: "null",
  }).output();
  assert.ok(success, code);
}

/** A file's text, read by a child process (the tests may write /tmp but not read it). */
async function readOutside(path: string): Promise<string> {
  const out = await new Deno.Command("deno", {
    args: ["eval", `Deno.stdout.writeSync(Deno.readFileSync(${JSON.stringify(path)}))`],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

Deno.test("startup: --audit-file without write permission prints the exact flag and exits 2", async () => {
  const path = `${Deno.cwd()}/not-permitted-audit.jsonl`;
  const out = await runMain(scopedPermissions("bitbucket.example.com"), ["--audit-file", path], {
    BITBUCKET_URL: "https://bitbucket.example.com",
    BITBUCKET_TOKEN: TEST_TOKEN,
  });
  assert.equal(out.code, 2, out.stderr);
  assert.equal(
    out.stderr.trim(),
    `bitbucket-mcp: no write permission for the audit file ${path}: run with --allow-write=${path}`,
  );
});

Deno.test("check: the tools line names the audit file and how unrecordable calls are handled", async () => {
  await using fixture = fixtureWith(refs.routes);
  const host = new URL(fixture.url).host;
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const env = { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN };
  try {
    const granted = await runMain(
      [...scopedPermissions(host), `--allow-write=${path}`],
      ["check", "--audit-file", path, "--audit-failure", "warn"],
      env,
    );
    const tools = granted.stdout.split("\n").find((l) => /^\S+\s+tools\b/.test(l)) ?? "";
    assert.match(tools, /unsafe writes ask the person first/);
    assert.match(
      tools,
      new RegExp(`audit file ${path}: a call it cannot record goes on with a warning`),
    );
    const denied = await runMain(scopedPermissions(host), ["check", "--audit-file", path], env);
    assert.equal(denied.code, 1);
    assert.match(denied.stdout, new RegExp(`✗\\s+tools .*audit file ${path} is not writable`));
    assert.match(denied.stdout, new RegExp(`--allow-write=${path}`));
  } finally {
    await Deno.remove(path);
  }
});

/** The permission bits of `path`, read by a child process (the tests may write /tmp but not read it). */
async function modeOutside(path: string): Promise<number> {
  return Number(await readOutsideText(`Deno.statSync(${JSON.stringify(path)}).mode & 0o777`));
}

/** What `expression` evaluates to in a child process, as text. */
async function readOutsideText(expression: string): Promise<string> {
  const out = await new Deno.Command("deno", {
    args: ["eval", `console.log(${expression})`],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "audit file: created 0600 (whatever the umask), and kept 0600 when reopened",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/audit.jsonl`;
    try {
      const file = openAuditFile(path);
      file.sink("{}");
      assert.equal(await modeOutside(path), 0o600, "created owner-only");
      // A rotation tool that made the new file world-readable (logrotate's `create 0644`).
      Deno.chmodSync(path, 0o644);
      file.reopen();
      assert.equal(await modeOutside(path), 0o600, "narrowed again on reopen");
      Deno.removeSync(path);
      file.reopen();
      assert.equal(await modeOutside(path), 0o600, "re-created owner-only on reopen");
      Deno.chmodSync(path, 0o666);
      openAuditFile(path).sink("{}");
      assert.equal(await modeOutside(path), 0o600, "an existing wide file is narrowed on open");
    } finally {
      await outside(`Deno.removeSync(${JSON.stringify(dir)}, { recursive: true })`);
    }
  },
});

Deno.test("audit: a call of a tool the server does not have is recorded, and answered as without the log", async () => {
  const audit = memoryLog();
  await using h = await connect({ routes: refs.routes, audit: audit.log });
  await using plain = await connect({ routes: refs.routes });
  const call = { name: "no_such_tool", arguments: { project: "PROJ" } };
  const answer = await failure(h.client.callTool(call));
  assert.deepEqual(answer, await failure(plain.client.callTool(call)), "the SDK's own answer");
  assert.equal(audit.lines.length, 1);
  const [line] = audit.lines;
  assert.equal(line!.event, "call");
  assert.equal(line!.tool, "no_such_tool");
  assert.deepEqual(line!.arguments, { project: "PROJ" });
  assert.deepEqual(line!.outcome, {
    result: "error",
    kind: "unknown_tool",
    message: "Tool no_such_tool not found",
  });
  assert.deepEqual(line!.requests, []);
  assert.deepEqual(h.fixture.requests, []);
  const listed = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web" },
  });
  assert.notEqual(listed.isError, true, "known tools go on as before");
  assert.equal(audit.lines.length, 2);
});

Deno.test("audit over HTTP: a call of a tool the server does not have is recorded with its caller", async () => {
  const audit = memoryLog();
  const callerToken = "caller-SECRET-token-6666";
  await using h = startHttp({ routes: refs.routes, audit: audit.log });
  const client = await connectHttp(h.url, "modern", callerToken);
  try {
    await failure(client.callTool({ name: "constructor", arguments: {} }));
  } finally {
    await client.close();
  }
  assert.equal(audit.lines.length, 1);
  assert.equal(audit.lines[0]!.tool, "constructor");
  assert.equal((audit.lines[0]!.outcome as { kind: string }).kind, "unknown_tool");
  assert.equal(audit.lines[0]!.caller, await fingerprint(callerToken));
});

/**
 * The protocol error a request rejected with, or the tool-error result it
 * answered with; fails when the call succeeded (or threw anything else).
 */
async function failure(call: Promise<unknown>): Promise<unknown> {
  let result: { isError?: boolean };
  try {
    result = await call as { isError?: boolean };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code !== "number") throw error;
    return { code, message };
  }
  assert.equal(result.isError, true, `the call should fail; it answered ${JSON.stringify(result)}`);
  return result;
}
