/**
 * `--oauth-client-id` as an operator meets it: without `--http`, or with a
 * server-wide BITBUCKET_TOKEN, the start stops with one line; with it, the
 * start-up line names the client, the scopes and where clients discover the
 * sign-in, the documents are served, and a signed-in token is served
 * (the link's secret is never printed); a refused token's fix is to sign in again.
 */
import assert from "node:assert/strict";
import { hintsFor, oauthStartLine } from "../../src/cli/oauth_setup.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { MCP_PATH } from "../../src/server/http.ts";
import { scopesFor } from "../../src/server/oauth/metadata.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFakeOAuthBitbucket } from "../../testing/fixture_oauth.ts";
import { freePort } from "../../testing/free_port.ts";
import { ENV_FLAG, MAIN, runMain } from "../../testing/spawn.ts";
import { connectHttp, spawnHttpMain } from "../support/http_server.ts";

const CLIENT_ID = "link-client-id";
const SECRET = "link-SECRET-4444";

Deno.test("startup: --oauth-client-id without --http serves a signed-in session; with nowhere to keep it, one actionable line and exit 2", async () => {
  const out = await runMain(
    ["--allow-net=bitbucket.example.com", ENV_FLAG],
    ["serve", "--oauth-client-id", CLIENT_ID],
    { BITBUCKET_URL: "https://bitbucket.example.com" },
  );
  assert.equal(out.code, 2, out.stderr);
  assert.equal(out.stdout, "");
  assert.equal(out.stderr.trimEnd().split("\n").length, 1, out.stderr);
  assert.match(out.stderr, /cannot keep the sign-in: .*add it to --allow-env/);
});

/** Runs main.ts with exactly `env`, killed after 20 s: a server that should have refused to start cannot hang the test. */
async function runBounded(denoFlags: string[], args: string[], env: Record<string, string>) {
  const { code, stderr } = await new Deno.Command("deno", {
    args: ["run", "--no-prompt", ...denoFlags, MAIN, ...args],
    env: { ...env, PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(20_000),
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test("startup: --oauth-client-id with BITBUCKET_TOKEN set refuses to start, in one line", async () => {
  const port = freePort();
  const out = await runBounded(
    [`--allow-net=127.0.0.1:${port},bitbucket.example.com`, ENV_FLAG],
    ["serve", "--http", `127.0.0.1:${port}`, "--oauth-client-id", CLIENT_ID],
    { BITBUCKET_URL: "https://bitbucket.example.com", BITBUCKET_TOKEN: "server-wide-SECRET" },
  );
  assert.equal(out.code, 2, out.stderr);
  assert.equal(out.stderr.trimEnd().split("\n").length, 1, out.stderr);
  assert.match(out.stderr, /unset BITBUCKET_TOKEN/);
  assert.ok(!out.stderr.includes("server-wide-SECRET"));
});

Deno.test("end to end: serve --http --oauth-client-id announces the sign-in, serves its documents and a signed-in token", async () => {
  const fake = startFakeOAuthBitbucket({ routes: refs.routes, clientId: CLIENT_ID, user: "alice" });
  const port = freePort();
  const server = await spawnHttpMain(
    [`--allow-net=127.0.0.1:${port},${new URL(fake.url).host}`, ENV_FLAG],
    ["serve", "--http", `127.0.0.1:${port}`, "--oauth-client-id", CLIENT_ID, "--toolsets", "all"],
    { BITBUCKET_URL: fake.url, BITBUCKET_OAUTH_CLIENT_SECRET: SECRET },
  );
  let stopped;
  try {
    const metadata = new URL(`/.well-known/oauth-protected-resource${MCP_PATH}`, server.url);
    const prm = await fetch(metadata);
    assert.equal((await prm.json()).resource, server.url.href);
    // A narrowed path is the same resource: its challenge names /mcp's metadata.
    const narrowed = new URL(`${MCP_PATH}/x/refs`, server.url);
    const challenge = await fetch(narrowed, { method: "POST", body: "{}" });
    await challenge.body?.cancel();
    assert.equal(challenge.status, 401);
    assert.ok(
      challenge.headers.get("www-authenticate")?.includes(`resource_metadata="${metadata.href}"`),
      challenge.headers.get("www-authenticate") ?? "no challenge",
    );
    const token = fake.issue("alice", scopesFor(CATALOGUE));
    const refsOnly = await connectHttp(narrowed, "modern", token);
    try {
      const { tools } = await refsOnly.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        CATALOGUE.filter((t) => t.toolset === "refs").map((t) => t.name),
      );
    } finally {
      await refsOnly.close();
    }
    const client = await connectHttp(server.url, "modern", token);
    try {
      const result = await client.callTool({
        name: "list_tags",
        arguments: refs.toolArguments.list_tags!.args,
      });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
    } finally {
      await client.close();
    }
    // A write Bitbucket refuses tells the person to sign in again, not to set BITBUCKET_TOKEN.
    const reader = await connectHttp(server.url, "modern", fake.issue("bob", ["REPO_READ"]));
    try {
      const refused = await reader.callTool({
        name: "create_branch",
        arguments: refs.toolArguments.create_branch!.args,
      });
      assert.equal(refused.isError, true);
      const text = (refused.content as { text: string }[])[0]!.text;
      const settings = { clientId: CLIENT_ID, confidential: true };
      assert.ok(text.includes(hintsFor(settings).renew_token), text);
    } finally {
      await reader.close();
    }
  } finally {
    stopped = await server.stop();
    await fake.close();
  }
  const expected = oauthStartLine(
    { clientId: CLIENT_ID, confidential: true },
    server.url,
    selectTools(CATALOGUE, { readOnly: false, toolsets: ["all"] }),
  );
  assert.ok(stopped.stderr.includes(expected), stopped.stderr);
  assert.ok(!stopped.stderr.includes("no BITBUCKET_TOKEN"), "no talk of a server-wide token");
  assert.ok(!stopped.stderr.includes(SECRET), "the link's secret is never printed");
  assert.equal(stopped.stdout, "");
});
