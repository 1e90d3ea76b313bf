/**
 * Bitbucket behind a proxy that demands a client certificate (mutual TLS),
 * driven as a user drives it: the real server spawned with the certificate in
 * BITBUCKET_CLIENT_CERT and BITBUCKET_CLIENT_KEY, the proxy's CA in DENO_CERT
 * (or --cert), and `check` and a tool call against the proxy with a good, no,
 * a wrong (another CA's) and an expired certificate.
 */
import assert from "node:assert/strict";
import { refs } from "../../testing/cases/refs.ts";
import { system } from "../../testing/cases/system.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { type Finished, runMain, scopedPermissions } from "../../testing/spawn.ts";
import { fixtureWith } from "../support/disposable_fixture.ts";
import { certEnv, type CertPair, readFlag, startMtlsProxy, TEST_MTLS } from "../support/mtls.ts";
import { connectHttp } from "../support/http_server.ts";
import { RawStdioSession, stdioServerParams, type ToolAnswer } from "../support/stdio_server.ts";
import { ENV_FLAG, MAIN } from "../../testing/spawn.ts";

const ROUTES = [...system.routes, ...refs.routes];

/** A subject as the server shows it, from node:crypto's reading: most specific name first. */
function shownSubject(pair: CertPair): string {
  return pair.x509.subject.split("\n").reverse().join(", ");
}

/** The day a certificate expires, from node:crypto's reading. */
function expiryDay(pair: CertPair): string {
  return pair.x509.validToDate.toISOString().slice(0, 10);
}

/** The permissions a user grants: the proxy's host, our variables, and the pair's files. */
function permissions(origin: string, pair?: CertPair): string[] {
  const flags = scopedPermissions(new URL(origin).host);
  return pair ? [...flags, readFlag(pair)] : flags;
}

/** Runs `check` against the proxy; its lines by name. */
async function check(
  origin: string,
  pair: CertPair | undefined,
  trust: { env?: Record<string, string>; flags?: string[] } = {
    env: { DENO_CERT: TEST_MTLS.caFile },
  },
): Promise<Finished & { lines: Map<string, string> }> {
  const out = await runMain(
    [...trust.flags ?? [], ...permissions(origin, pair)],
    ["check"],
    {
      BITBUCKET_URL: `${origin}/bitbucket`,
      BITBUCKET_TOKEN: TEST_TOKEN,
      ...trust.env,
      ...(pair ? certEnv(pair) : {}),
    },
  );
  const lines = new Map(
    out.stdout.trimEnd().split("\n").map((row) => [row.split(/\s+/)[1] ?? "", row]),
  );
  return { ...out, lines };
}

/** Starts the real server over stdio against the proxy, calls list_tags once, and stops it. */
async function listTags(
  origin: string,
  pair: CertPair | undefined,
): Promise<ToolAnswer & { stderr: string }> {
  const params = stdioServerParams(`${origin}/bitbucket`, ["--toolsets", "all"]);
  if (pair) {
    params.args.splice(params.args.indexOf("--no-prompt") + 1, 0, readFlag(pair));
    Object.assign(params.env, certEnv(pair));
  }
  params.env.DENO_CERT = TEST_MTLS.caFile;
  const session = new RawStdioSession(params);
  let answer: ToolAnswer;
  try {
    await session.initialize();
    answer = await session.callTool(2, "list_tags", { project: "PROJ", repo: "web" });
  } catch (error) {
    await session.close();
    throw error;
  }
  const { code, stderr } = await session.close();
  assert.equal(code, 0);
  return { ...answer, stderr };
}

Deno.test("mTLS: with a good client certificate, check passes and names it, and tools work", async () => {
  await using fixture = fixtureWith(ROUTES);
  await using proxy = await startMtlsProxy(new URL(fixture.url).origin);
  const good = TEST_MTLS.good;
  const run = await check(proxy.origin, good);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const mtls = run.lines.get("mtls") ?? "";
  assert.ok(mtls.startsWith("✓"), run.stdout);
  assert.ok(mtls.includes(`client certificate ${shownSubject(good)}`), mtls);
  assert.ok(mtls.includes(`valid until ${expiryDay(good)}`), mtls);
  assert.match(run.lines.get("connection") ?? "", /our client certificate accepted/);
  assert.match(run.lines.get("token") ?? "", /^✓ token +authenticated as/);

  const answer = await listTags(proxy.origin, good);
  assert.notEqual(answer.isError, true, answer.text);
  assert.ok(Array.isArray(answer.structuredContent?.tags), answer.text);
  const tags = fixture.requests.filter((r) => r.path.includes("/tags"));
  assert.equal(tags.length, 1);
  assert.equal(tags[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
  assert.ok(proxy.accepted.every((cn) => good.x509.subject.includes(`CN=${cn}`)));
});

Deno.test("mTLS: --cert works for the proxy's CA as DENO_CERT does", async () => {
  await using fixture = fixtureWith(ROUTES);
  await using proxy = await startMtlsProxy(new URL(fixture.url).origin);
  const run = await check(proxy.origin, TEST_MTLS.good, { flags: ["--cert", TEST_MTLS.caFile] });
  assert.equal(run.code, 0, run.stdout + run.stderr);
});

Deno.test("mTLS: without a client certificate, check and the call say the proxy wants one, and what to set", async () => {
  await using fixture = fixtureWith(ROUTES);
  await using proxy = await startMtlsProxy(new URL(fixture.url).origin);
  const run = await check(proxy.origin, undefined);
  assert.equal(run.code, 1);
  assert.equal(run.lines.has("mtls"), false, "no certificate configured: no mtls line");
  const connection = run.lines.get("connection") ?? "";
  assert.match(connection, /^✗ connection +the server at 127\.0\.0\.1:\d+ asked for a client cert/);
  assert.match(connection, /Fix: set BITBUCKET_CLIENT_CERT and BITBUCKET_CLIENT_KEY/);

  const answer = await listTags(proxy.origin, undefined);
  assert.equal(answer.isError, true);
  assert.match(answer.text, /asked for a client certificate .*set BITBUCKET_CLIENT_CERT and BITB/);
  assert.equal(fixture.requests.length, 0, "nothing got past the proxy");
});

Deno.test("mTLS: a certificate from another CA is refused, and check and the call say so, naming it", async () => {
  await using fixture = fixtureWith(ROUTES);
  await using proxy = await startMtlsProxy(new URL(fixture.url).origin);
  const wrong = TEST_MTLS.wrong;
  const run = await check(proxy.origin, wrong);
  assert.equal(run.code, 1);
  assert.ok((run.lines.get("mtls") ?? "").startsWith("✓"), "it is a current certificate");
  const connection = run.lines.get("connection") ?? "";
  assert.ok(
    connection.includes(`refused our client certificate ${shownSubject(wrong)}`),
    connection,
  );
  assert.match(
    connection,
    /Fix: set BITBUCKET_CLIENT_CERT to a current certificate issued by a CA/,
  );

  const answer = await listTags(proxy.origin, wrong);
  assert.equal(answer.isError, true);
  assert.ok(answer.text.includes(`refused our client certificate ${shownSubject(wrong)}`));
  assert.equal(fixture.requests.length, 0);
});

Deno.test("mTLS: an expired certificate fails check's mtls line with its date, and the handshake is refused", async () => {
  await using fixture = fixtureWith(ROUTES);
  await using proxy = await startMtlsProxy(new URL(fixture.url).origin);
  const expired = TEST_MTLS.expired;
  const run = await check(proxy.origin, expired);
  assert.equal(run.code, 1);
  const mtls = run.lines.get("mtls") ?? "";
  assert.ok(mtls.startsWith("✗"), mtls);
  assert.ok(mtls.includes(`${shownSubject(expired)}, issued by`), mtls);
  assert.ok(mtls.includes(`expired on ${expiryDay(expired)}`), mtls);
  assert.match(mtls, /Fix: ask whoever runs the proxy for a new client certificate/);
  assert.match(run.lines.get("connection") ?? "", /refused our client certificate/);

  const answer = await listTags(proxy.origin, expired);
  assert.ok(
    answer.stderr.includes(`warn: client certificate ${shownSubject(expired)}`) &&
      answer.stderr.includes(`expired on ${expiryDay(expired)}`),
    `the server warns at start-up: ${answer.stderr}`,
  );
  assert.equal(answer.isError, true);
  assert.match(answer.text, /refused our client certificate/);
  assert.equal(fixture.requests.length, 0);
});

Deno.test("mTLS: one variable without the other, or files not permitted, stop the start in one line", async () => {
  const good = TEST_MTLS.good;
  const env = { BITBUCKET_URL: "https://127.0.0.1:1/bitbucket", BITBUCKET_TOKEN: TEST_TOKEN };
  const flags = [...permissions("https://127.0.0.1:1", good)];
  for (
    const [only, other] of [
      ["BITBUCKET_CLIENT_CERT", "BITBUCKET_CLIENT_KEY"],
      ["BITBUCKET_CLIENT_KEY", "BITBUCKET_CLIENT_CERT"],
    ] as const
  ) {
    const out = await runMain(flags, [], { ...env, [only]: certEnv(good)[only]! });
    assert.equal(out.code, 2);
    assert.equal(out.stderr.trimEnd().split("\n").length, 1, out.stderr);
    assert.ok(out.stderr.includes(`${only} is set but ${other} is not`), out.stderr);
  }
  const unread = await runMain(scopedPermissions("127.0.0.1:1"), [], { ...env, ...certEnv(good) });
  assert.equal(unread.code, 2);
  assert.equal(
    unread.stderr.trimEnd(),
    `bitbucket-mcp: no read permission for the client certificate: run with ${readFlag(good)}`,
  );
});

Deno.test("mTLS: the HTTP mode presents the certificate too, for every caller's token", async () => {
  await using fixture = fixtureWith(ROUTES);
  await using proxy = await startMtlsProxy(new URL(fixture.url).origin);
  const good = TEST_MTLS.good;
  const child = new Deno.Command("deno", {
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      ENV_FLAG,
      readFlag(good),
      MAIN,
      "serve",
      "--http",
      "127.0.0.1:0",
      "--toolsets",
      "all",
    ],
    env: {
      BITBUCKET_URL: `${proxy.origin}/bitbucket`,
      DENO_CERT: TEST_MTLS.caFile,
      ...certEnv(good),
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let said = "";
    let url: URL | undefined;
    while (!url) {
      const { value, done } = await lines.read();
      if (done) assert.fail(`the server stopped: ${said}`);
      said += value;
      const found = /serving MCP at (\S+)/.exec(said)?.[1];
      if (found) url = new URL(found);
    }
    const client = await connectHttp(url, "modern", TEST_TOKEN);
    try {
      const result = await client.callTool({
        name: "list_tags",
        arguments: { project: "PROJ", repo: "web" },
      });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
    } finally {
      await client.close();
    }
    const tags = fixture.requests.filter((r) => r.path.includes("/tags"));
    assert.equal(tags[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
    assert.ok(
      proxy.accepted.length > 0 &&
        proxy.accepted.every((cn) => good.x509.subject.includes(`CN=${cn}`)),
    );
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.status;
  }
});
