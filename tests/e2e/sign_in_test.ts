/**
 * A person signs in and uses the server with no token anywhere, through the
 * real program: `login` against the fake Bitbucket OAuth provider (the test
 * plays the browser), no keyring tool on PATH so the session goes to a file
 * (0600 in a 0700 directory, said once), a stdio server without
 * BITBUCKET_TOKEN serving a real v2 client with that session, `check` saying
 * who is signed in until when, `logout` forgetting it. Then profiles, chosen
 * by `--profile` and by BITBUCKET_PROFILE, and `check --all-profiles`. No
 * token Bitbucket issued appears in any output of any of these processes.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ENV_VARS, LOCAL_ENV_VARS } from "../../src/config.ts";
import { parseSession } from "../../src/auth/session.ts";
import { startFakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { repositories } from "../../testing/cases/repositories.ts";
import { system } from "../../testing/cases/system.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { MAIN } from "../../testing/spawn.ts";
import { browse, issuedSecrets, LINK_ID } from "../support/sign_in.ts";

const ENV_LIST = [...ENV_VARS, ...LOCAL_ENV_VARS, "LAB_TOKEN"].join(",");

/** The permissions a person grants: Bitbucket and the loopback, the config directory, the keyring tool. */
function grants(config: string): string[] {
  const dir = `${config}/bitbucket-mcp`;
  return [
    "--allow-net=127.0.0.1",
    `--allow-env=${ENV_LIST}`,
    `--allow-read=${dir}`,
    `--allow-write=${dir}/sessions`,
    "--allow-run=secret-tool",
  ];
}

/**
 * The environment: no token, and no session bus, so that no keyring answers:
 * where secret-tool is not installed (as here) Deno cannot run it; where it
 * is, it cannot reach a Secret Service. Either way the session goes to a file.
 */
function environment(config: string, extra: Record<string, string> = {}) {
  return {
    XDG_CONFIG_HOME: config,
    HOME: Deno.env.get("HOME") ?? "",
    PATH: Deno.env.get("PATH") ?? "",
    NO_COLOR: "1",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...extra,
  };
}

/** Runs main.ts to the end. */
async function run(config: string, args: string[], extra: Record<string, string>) {
  const out = await new Deno.Command("deno", {
    args: ["run", "--no-prompt", ...grants(config), MAIN, ...args],
    env: environment(config, extra),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/**
 * The session files in `dir`, their modes and text, read by a child allowed
 * to read that directory alone (this test may read the checkout only).
 */
async function sessionsIn(
  dir: string,
): Promise<{ dirMode: number; files: { mode: number; text: string }[] }> {
  const script = `const dir = ${JSON.stringify(dir)};
    const files = [...Deno.readDirSync(dir)].map((e) => ({
      mode: Deno.statSync(dir + "/" + e.name).mode & 0o777,
      text: Deno.readTextFileSync(dir + "/" + e.name),
    }));
    console.log(JSON.stringify({ dirMode: Deno.statSync(dir).mode & 0o777, files }));`;
  const child = new Deno.Command("deno", {
    args: ["run", "--no-prompt", `--allow-read=${dir}`, "-"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const { stdout, success } = await child.output();
  assert.ok(success, "the files could be read");
  return JSON.parse(new TextDecoder().decode(stdout));
}

/** Runs `login`, playing the browser once the page's address is printed. */
async function login(config: string, extra: Record<string, string>) {
  const child = new Deno.Command("deno", {
    args: ["run", "--no-prompt", ...grants(config), MAIN, "login"],
    env: environment(config, extra),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  let page: { status: number; text: string } | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
    const url = /^ {2}(http\S+)$/m.exec(stdout)?.[1];
    if (url && !page) page = await browse(url);
  }
  return { code: (await child.status).code, stdout, stderr: await stderr, page };
}

Deno.test("sign-in, end to end: login, a stdio server with no token in its configuration, check, logout; no token in any output", async () => {
  const fake = startFakeOAuthBitbucket({
    routes: [...repositories.routes, ...system.routes],
    clientId: LINK_ID,
    user: "bwilson",
  });
  const config = await Deno.makeTempDir();
  const env = { BITBUCKET_URL: fake.url, BITBUCKET_OAUTH_CLIENT_ID: LINK_ID };
  const outputs: string[] = [];
  try {
    const signed = await login(config, env);
    outputs.push(signed.stdout, signed.stderr);
    assert.equal(signed.code, 0, signed.stderr);
    assert.equal(signed.page?.status, 200);
    assert.match(signed.stdout, /Signed in to http:\/\/127\.0\.0\.1:\d+\/bitbucket as bwilson/);
    assert.equal(signed.stderr.match(/no keyring/g)?.length, 1, "said once");
    assert.match(signed.stderr, /no keyring \((secret-tool is not installed|secret-tool failed)/);
    const dir = `${config}/bitbucket-mcp/sessions`;
    const kept = await sessionsIn(dir);
    assert.equal(kept.files.length, 1);
    assert.equal(kept.files[0]!.mode, 0o600);
    assert.equal(kept.dirMode, 0o700);
    const session = parseSession(kept.files[0]!.text)!;
    assert.ok(fake.tokens.has(session.accessToken));

    // The MCP client's server entry: the URL and the link's id, no token.
    const transport = new StdioClientTransport({
      command: "deno",
      args: ["run", "--no-prompt", ...grants(config), MAIN],
      env: environment(config, env),
      stderr: "pipe",
    });
    let serverErr = "";
    transport.stderr?.on("data", (c: Uint8Array) => serverErr += new TextDecoder().decode(c));
    const client = new Client({ name: "e2e-sign-in", version: "0.0.0" });
    try {
      await client.connect(transport);
      const result = await client.callTool({
        name: "get_repository",
        arguments: { project: "PROJ", repo: "web" },
      });
      outputs.push(JSON.stringify(result));
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const sent = fake.upstream.requests.find((r) => r.path.endsWith("/repos/web"));
      assert.equal(sent?.headers.authorization, `Bearer ${session.accessToken}`);
    } finally {
      await client.close();
    }
    outputs.push(serverErr);

    const checked = await run(config, ["check"], env);
    outputs.push(checked.stdout, checked.stderr);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(
      checked.stdout,
      /^✓ session +signed in as bwilson, scopes REPO_READ REPO_WRITE; the access token is good until \d{4}-\d\d-\d\dT[\d:.]+Z and is refreshed by itself; kept in a file in /m,
    );
    assert.match(checked.stdout, /^✓ sign-in +a client that opens URLs/m);

    const out = await run(config, ["logout"], env);
    outputs.push(out.stdout, out.stderr);
    assert.equal(out.code, 0);
    assert.match(out.stdout, /^Signed out of /);
    assert.deepEqual((await sessionsIn(dir)).files, []);
    const again = await run(config, ["check"], env);
    outputs.push(again.stdout, again.stderr);
    assert.equal(again.code, 1);
    assert.match(
      again.stdout,
      /^✗ session +not signed in .* Fix: run bitbucket-mcp login --oauth-client-id /m,
    );
  } finally {
    await fake.close();
  }
  const all = outputs.join("\n");
  for (const secret of issuedSecrets(fake)) {
    assert.ok(!all.includes(secret), "no token in any output");
  }
});

Deno.test("profiles: --profile and BITBUCKET_PROFILE each pick one instance; check --all-profiles checks both", async () => {
  const work = startFakeOAuthBitbucket({
    routes: system.routes,
    clientId: LINK_ID,
    user: "bwilson",
  });
  const lab = startFixtureBitbucket(system.routes);
  const config = await Deno.makeTempDir();
  Deno.mkdirSync(`${config}/bitbucket-mcp`);
  Deno.writeTextFileSync(
    `${config}/bitbucket-mcp/config.json`,
    JSON.stringify({
      profiles: {
        work: { url: work.url, oauth_client_id: LINK_ID },
        lab: { url: lab.url, token_env: "LAB_TOKEN" },
      },
    }),
  );
  // A token set for some other instance must not reach either.
  const extra = { LAB_TOKEN: TEST_TOKEN, BITBUCKET_TOKEN: "other-instance-token-XYZ-987" };
  try {
    const byFlag = await run(config, ["check", "--profile", "lab"], extra);
    assert.equal(byFlag.code, 0, byFlag.stdout + byFlag.stderr);
    assert.ok(byFlag.stdout.includes(`✓ url         ${lab.url}`), byFlag.stdout);
    assert.equal(lab.requests.at(-1)?.headers.authorization, `Bearer ${TEST_TOKEN}`);

    const byEnv = await run(config, ["check"], { ...extra, BITBUCKET_PROFILE: "work" });
    assert.equal(byEnv.code, 1, "not signed in to work yet");
    assert.ok(byEnv.stdout.includes(`✓ url         ${work.url}`), byEnv.stdout);
    assert.match(byEnv.stdout, /✗ session .* Fix: run bitbucket-mcp login --profile work/);

    const all = await run(config, ["check", "--all-profiles"], extra);
    assert.match(all.stdout, /^profile work \(/m);
    assert.match(all.stdout, /^profile lab \(/m);
    assert.equal(all.code, 1, "work is not signed in");

    const both = await run(config, ["check", "--profile", "lab", "--url", lab.url], extra);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--url and a profile \(lab\) both say where to go/);
    for (const request of [...lab.requests, ...work.upstream.requests]) {
      assert.ok(!request.headers.authorization?.includes("other-instance-token"));
    }
  } finally {
    await work.close();
    await lab.close();
  }
});
