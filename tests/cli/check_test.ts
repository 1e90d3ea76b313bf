/**
 * `bitbucket-mcp check`, spawned as a user runs it (`deno run main.ts check`
 * with scoped permissions) against the fixture Bitbucket set up for each
 * outcome: one line per check on stdout, a diagnosis and a fix for each
 * failure, exit 0 only when all pass, 1 when one fails, 2 for startup errors.
 */
import assert from "node:assert/strict";
import { diagnoseConnection } from "../../src/cli/check_diagnosis.ts";
import { DEFAULT_SET, selectTools, type ToolSelection } from "../../src/policy/selection.ts";
import { CATALOGUE, TOOLSETS } from "../../src/tools/catalogue.ts";
import { APPLICATION_PROPERTIES, RECENT_REPOS, system } from "../../testing/cases/system.ts";
import { versionRoute } from "../../testing/cases/server_version.ts";
import { FEATURES } from "../../src/bitbucket/features.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { type Finished, runMain, scopedPermissions } from "../../testing/spawn.ts";
import { startTlsFront, TEST_TLS } from "../support/tls.ts";

const NAMES = ["url", "permission", "connection", "bitbucket", "token", "policy", "tools"];

/** A finished `check`, its stdout read as one line per check. */
interface CheckRun extends Finished {
  lines: Record<string, { mark: string; text: string }>;
}

/** Runs `check` with the permissions a user grants for `url`'s host (unless `denoFlags` says otherwise). */
async function check(
  env: Record<string, string>,
  args: string[] = [],
  denoFlags?: string[],
): Promise<CheckRun> {
  const host = URL.parse(env.BITBUCKET_URL ?? "")?.host || "bitbucket.example.com";
  const out = await runMain(denoFlags ?? scopedPermissions(host), ["check", ...args], env);
  assert.ok(!out.stdout.includes(TEST_TOKEN) && !out.stderr.includes(TEST_TOKEN), "no token");
  const lines: CheckRun["lines"] = {};
  if (out.code !== 2) {
    const rows = out.stdout.trimEnd().split("\n");
    assert.deepEqual(rows.map((r) => r.split(/\s+/)[1]), NAMES, out.stdout + out.stderr);
    for (const row of rows) {
      const [mark, name] = row.split(/\s+/);
      lines[name!] = { mark: mark!, text: row };
    }
  }
  return { ...out, lines };
}

/**
 * What the tools line says a selection exposes, counted from the catalogue:
 * "N of M tools exposed" and each toolset's "name exposed/all".
 */
function exposure(selection: Partial<ToolSelection>): { total: string; perSet: string[] } {
  const exposed = new Set(selectTools(CATALOGUE, { readOnly: false, ...selection }));
  assert.ok(exposed.size > 0 && exposed.size <= CATALOGUE.length, "the selection exposes some");
  return {
    total: `${exposed.size} of ${CATALOGUE.length} tools exposed`,
    perSet: TOOLSETS.map((set) =>
      `${set.name} ${set.tools.filter((t) => exposed.has(t)).length}/${set.tools.length}`
    ),
  };
}

/** Asserts which checks passed (✓), failed (✗) and did not run (-), in order. */
function assertMarks(run: CheckRun, marks: string): void {
  assert.equal(NAMES.map((n) => run.lines[n]?.mark).join(""), marks, run.stdout);
}

Deno.test("check: a Bitbucket older than a feature needs is named, with what it lacks; still exit 0", async () => {
  await using fixture = fixtureWith([versionRoute("8.19.1"), ...system.routes]);
  const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const { what, since, toolset } = FEATURES.multilineComments;
  assert.match(run.lines.bitbucket!.text, /Bitbucket Data Center 8\.19\.1 \(build 8019001\)/);
  assert.ok(run.lines.bitbucket!.text.includes(`lacks ${what} (${since}, ${toolset})`));
  assert.notEqual(run.lines.bitbucket!.mark, "✓");
});

Deno.test("check: every check passes against Bitbucket with a good token; exit 0, nothing on stderr", async () => {
  await using fixture = fixtureWith(system.routes);
  const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assertMarks(run, "✓✓✓✓✓✓✓");
  assert.match(run.lines.url!.text, new RegExp(fixture.url));
  assert.match(run.lines.bitbucket!.text, /Bitbucket Data Center 9\.4\.2 \(build 9004002\)/);
  assert.match(run.lines.token!.text, /authenticated as bwilson/);
  // With no --toolsets, the default set: the review loop's tools, and says so.
  const byDefault = exposure({ toolsets: [DEFAULT_SET] });
  const line = run.lines.tools!.text;
  assert.ok(line.includes(`${byDefault.total}, the ${DEFAULT_SET} set (the review loop`), line);
  assert.ok(line.includes(`: ${byDefault.perSet.join(", ")}`), line);
  assert.match(line, /; unsafe writes ask the person first$/);
  assert.equal(run.stderr, "", "the default log level logs nothing for successful requests");
  const probe = fixture.requests.find((r) => r.path === APPLICATION_PROPERTIES);
  assert.equal(
    probe?.headers.authorization,
    undefined,
    "application-properties is asked anonymously",
  );
  const whoAmI = fixture.requests.find((r) => r.path === RECENT_REPOS);
  assert.equal(whoAmI?.headers.authorization, `Bearer ${TEST_TOKEN}`);
});

Deno.test("check: the tools line follows the flags, and no tool at all is a failure", async () => {
  await using fixture = fixtureWith(system.routes);
  const env = { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN };
  const narrow = await check(env, ["--toolsets", "builds", "--read-only"]);
  assert.equal(narrow.code, 0);
  const builds = exposure({ toolsets: ["builds"], readOnly: true });
  assert.ok(
    narrow.lines.tools!.text.includes(`${builds.total}: ${builds.perSet.join(", ")}`),
    narrow.lines.tools!.text,
  );
  assert.match(narrow.lines.tools!.text, /read-only tools only \(--read-only\)$/);
  const all = await check(env, ["--toolsets", "all"]);
  const every = exposure({});
  assert.ok(
    all.lines.tools!.text.includes(`${every.total}: ${every.perSet.join(", ")}`),
    all.lines.tools!.text,
  );
  // The unsafe writes of the default set, which --withhold-unsafe leaves out.
  const unsafe = selectTools(CATALOGUE, { readOnly: false, toolsets: [DEFAULT_SET] })
    .filter((t) => t.access.level === "unsafe write").length;
  assert.ok(unsafe > 0, "the default set has unsafe writes");
  const withheld = await check(env, ["--withhold-unsafe"]);
  assert.match(
    withheld.lines.tools!.text,
    new RegExp(`; ${unsafe} unsafe writes withheld \\(--withhold-unsafe\\)$`),
  );
  const yolo = await check(env, ["--yolo"]);
  assert.match(yolo.lines.tools!.text, /; unsafe writes run without asking \(--yolo\)$/);
  const source = TOOLSETS.find((set) => set.name === "source")!.tools.map((t) => t.name);
  const none = await check(env, ["--toolsets", "source", "--exclude", source.join(",")]);
  assert.equal(none.code, 1);
  assertMarks(none, "✓✓✓✓✓✓✗");
  assert.match(none.lines.tools!.text, /no tool at all\. Fix: .*--toolsets/);
});

Deno.test("check: the views count only with the data tools they draw from, as the server lists them", async () => {
  await using fixture = fixtureWith(system.routes);
  const env = { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN };
  const alone = await check(env, ["--toolsets", "views"]);
  assert.equal(alone.code, 1, "show draws nothing without the pull request tools");
  assert.match(alone.lines.tools!.text, /no tool at all/);
  const views = TOOLSETS.find((set) => set.name === "views")!.tools;
  const withData = await check(env, ["--toolsets", "views,pull_requests"]);
  assert.equal(withData.code, 0);
  assert.ok(
    withData.lines.tools!.text.includes(`views ${views.length}/${views.length}`),
    withData.lines.tools!.text,
  );
});

Deno.test("check: no BITBUCKET_URL, or a malformed one, fails the URL check with the fix", async () => {
  const unset = await check({ BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(unset.code, 1);
  assertMarks(unset, "✗----✓✓");
  assert.match(
    unset.lines.url!.text,
    /BITBUCKET_URL is not set\. Fix: export BITBUCKET_URL=https:\/\//,
  );
  const malformed = await check({
    BITBUCKET_URL: "bitbucket.example.com",
    BITBUCKET_TOKEN: TEST_TOKEN,
  });
  assert.equal(malformed.code, 1);
  assert.match(malformed.lines.url!.text, /^✗ url .*not a URL.*Fix: /);
});

Deno.test("check: a host the permissions do not cover names the --allow-net flag to add", async () => {
  await using fixture = fixtureWith(system.routes);
  const host = new URL(fixture.url).host;
  const run = await check(
    { BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN },
    [],
    scopedPermissions("other.example.com"),
  );
  assert.equal(run.code, 1);
  assertMarks(run, "✓✗---✓✓");
  assert.match(run.lines.permission!.text, new RegExp(`Fix: run with --allow-net=${host}`));
  assert.equal(fixture.requests.length, 0, "nothing was sent");
});

Deno.test("check: connection refused is told apart from other network failures", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  const run = await check({
    BITBUCKET_URL: `http://127.0.0.1:${port}/bitbucket`,
    BITBUCKET_TOKEN: TEST_TOKEN,
  });
  assert.equal(run.code, 1);
  assertMarks(run, "✓✓✗--✓✓");
  assert.match(
    run.lines.connection!.text,
    new RegExp(`127\\.0\\.0\\.1:${port} refused the connection.*Fix: check the port`),
  );
});

Deno.test("check: a server that accepts but never answers fails after --timeout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const run = await check(
      { BITBUCKET_URL: `http://127.0.0.1:${port}`, BITBUCKET_TOKEN: TEST_TOKEN },
      ["--timeout", "1"],
    );
    assert.equal(run.code, 1);
    assertMarks(run, "✓✓✗--✓✓");
    assert.match(
      run.lines.connection!.text,
      /no answer from 127\.0\.0\.1:\d+ within 1 s.*--timeout/,
    );
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});

Deno.test("check: a certificate from a private CA fails TLS with the DENO_CERT/--cert fix, which works", async () => {
  await using fixture = fixtureWith(system.routes);
  const front = startTlsFront(TEST_TLS, new URL(fixture.url).origin);
  const caFile = TEST_TLS.caFile;
  try {
    const env = { BITBUCKET_URL: `${front.origin}/bitbucket`, BITBUCKET_TOKEN: TEST_TOKEN };
    const untrusted = await check(env);
    assert.equal(untrusted.code, 1);
    assertMarks(untrusted, "✓✓✗--✓✓");
    assert.match(
      untrusted.lines.connection!.text,
      /TLS to 127\.0\.0\.1:\d+ failed: .*UnknownIssuer/,
    );
    assert.match(untrusted.lines.connection!.text, /Fix: .*DENO_CERT=.*--cert/);

    const viaEnv = await check({ ...env, DENO_CERT: caFile });
    assert.equal(viaEnv.code, 0, viaEnv.stdout);
    assert.match(viaEnv.lines.connection!.text, /over TLS \(certificate trusted\)/);
    const host = new URL(front.origin).host;
    const viaFlag = await check(env, [], ["--cert", caFile, ...scopedPermissions(host)]);
    assert.equal(viaFlag.code, 0, viaFlag.stdout);
  } finally {
    await front.close();
  }
});

Deno.test("check: a wrong context path (404 from the web server) is diagnosed as such", async () => {
  await using fixture = fixtureWith(system.routes);
  // The web server in front of Bitbucket: Bitbucket lives under /bitbucket, anything else is 404.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/bitbucket/")) {
      return fetch(new URL(url.pathname + url.search, fixture.url), { headers: request.headers });
    }
    return new Response("<!doctype html><html><head><title>HTTP Status 404 – Not Found</title>", {
      status: 404,
      headers: { "content-type": "text/html;charset=utf-8" },
    });
  });
  try {
    const { port } = server.addr as Deno.NetAddr;
    const run = await check({
      BITBUCKET_URL: `http://127.0.0.1:${port}`,
      BITBUCKET_TOKEN: TEST_TOKEN,
    });
    assert.equal(run.code, 1);
    assertMarks(run, "✓✓✓✗-✓✓");
    assert.match(
      run.lines.bitbucket!.text,
      /\(404\): the context path is probably wrong\. Fix: .*context path/,
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("check: an SSO login page where JSON belongs is named, by its title", async () => {
  await using fixture = fixtureWith([{
    method: "GET",
    path: APPLICATION_PROPERTIES,
    body:
      "<!DOCTYPE html>\n<html><head><title>Sign in to Example Corp</title></head><body></body></html>",
    headers: { "content-type": "text/html;charset=UTF-8" },
  }, ...system.routes]);
  const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(run.code, 1);
  assertMarks(run, "✓✓✓✗-✓✓");
  assert.match(
    run.lines.bitbucket!.text,
    /HTML page \("Sign in to Example Corp"\).*login \(SSO\) or proxy page/,
  );
});

Deno.test("check: a redirect to another site (an SSO gateway) is diagnosed without following it", async () => {
  await using fixture = fixtureWith([{
    method: "GET",
    path: APPLICATION_PROPERTIES,
    status: 302,
    headers: { location: "https://sso.example.com/login?service=bitbucket" },
  }, ...system.routes]);
  const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(run.code, 1);
  assertMarks(run, "✓✓✓✗-✓✓");
  assert.match(
    run.lines.bitbucket!.text,
    /redirected \(302\) to https:\/\/sso\.example\.com\/login: a login \(SSO\) page/,
  );
});

Deno.test("check: a missing, an expired (401) and an under-privileged (403) token each get their fix", async () => {
  const missing = await (async () => {
    await using fixture = fixtureWith(system.routes);
    return await check({ BITBUCKET_URL: fixture.url });
  })();
  assert.equal(missing.code, 1);
  assertMarks(missing, "✓✓✓✓✗✓✓");
  assert.match(
    missing.lines.token!.text,
    /BITBUCKET_TOKEN is not set\. Fix: create an HTTP access token/,
  );

  for (
    const [status, fixtureFile, says] of [
      [
        401,
        "errors/unauthorized.json",
        /refused the token \(401\): it is wrong, expired or revoked\. Fix: create a new HTTP access token/,
      ],
      [
        403,
        "errors/forbidden.json",
        /refused the request \(403\).*lacks permission\. Fix: .*Repository read/,
      ],
    ] as const
  ) {
    await using fixture = fixtureWith([{
      method: "GET",
      path: RECENT_REPOS,
      status,
      fixture: fixtureFile,
    }, ...system.routes]);
    const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN });
    assert.equal(run.code, 1, `${status}`);
    assertMarks(run, "✓✓✓✓✗✓✓");
    assert.match(run.lines.token!.text, says);
  }
});

Deno.test("check: an answer that names no user (the token was dropped on the way) fails the token check", async () => {
  await using fixture = fixtureWith([{
    method: "GET",
    path: RECENT_REPOS,
    fixture: "system/recent-repos.json",
  }, ...system.routes]);
  const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN });
  assert.equal(run.code, 1);
  assert.match(run.lines.token!.text, /^✗ token .*no X-AUSERNAME.*Fix: .*Authorization header/);
});

Deno.test("check: startup errors (a bad flag, no env permission) print one line and exit 2", async () => {
  const badFlag = await check({ BITBUCKET_URL: "https://bitbucket.example.com" }, ["--frobnicate"]);
  assert.equal(badFlag.code, 2);
  assert.equal(badFlag.stdout, "");
  assert.match(badFlag.stderr.trim(), /^bitbucket-mcp: .*frobnicate/);
  const noEnv = await check({ BITBUCKET_URL: "https://bitbucket.example.com" }, [], [
    "--allow-net=bitbucket.example.com",
  ]);
  assert.equal(noEnv.code, 2);
  assert.match(
    noEnv.stderr.trim(),
    /^bitbucket-mcp: cannot read BITBUCKET_URL: run with --allow-env=/,
  );
});

Deno.test("check: with --log-level debug, each request is logged on stderr, never the token", async () => {
  await using fixture = fixtureWith(system.routes);
  const run = await check({ BITBUCKET_URL: fixture.url, BITBUCKET_TOKEN: TEST_TOKEN }, [
    "--log-level",
    "debug",
  ]);
  assert.equal(run.code, 0);
  const logged = run.stderr.trimEnd().split("\n");
  assert.match(
    logged[0]!,
    /^bitbucket-mcp: debug: GET \/rest\/api\/latest\/application-properties 200 \d+ms$/,
  );
  assert.match(
    logged[1]!,
    /^bitbucket-mcp: debug: GET \/rest\/api\/latest\/profile\/recent\/repos\?limit=1 200 \d+ms$/,
  );
});

Deno.test("check diagnosis: a DNS failure names the host and the fix (not provoked: it would query a real resolver)", () => {
  // The shape of Deno's fetch failure for a name that does not resolve.
  const error = new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url (https://bitbucket.internal.example/rest/api/latest/application-properties): client error (Connect): dns error: failed to lookup address information: Name or service not known",
    ),
  });
  const diagnosis = diagnoseConnection(
    error,
    new URL("https://bitbucket.internal.example/x"),
    30_000,
  );
  assert.match(
    diagnosis.detail,
    /^cannot resolve bitbucket\.internal\.example: .*Name or service not known/,
  );
  assert.match(diagnosis.fix, /host name in BITBUCKET_URL/);
});
