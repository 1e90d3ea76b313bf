import assert from "node:assert/strict";
import { z } from "zod";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { ENV_VARS } from "../../src/config.ts";
import { type Route, startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { connect, TEST_TOKEN } from "../../testing/harness.ts";
import { runMain, scopedPermissions } from "../../testing/spawn.ts";
import { RawStdioSession, stdioServerParams } from "../support/stdio_server.ts";

/**
 * The token must never show: not in a tool result, not on stderr, not in an
 * error's message, stack or inspection, whatever goes wrong. Every error path
 * below is run with the recognisable TEST_TOKEN, as Bearer and as Basic auth.
 */
const USERNAME = "jdoe";
const SECRETS = [TEST_TOKEN, btoa(`${USERNAME}:${TEST_TOKEN}`), "SECRET"];

function assertNoSecret(text: string, where: string): void {
  // Our variables' names may be printed (BITBUCKET_OAUTH_CLIENT_SECRET in an --allow-env hint).
  const unnamed = ENV_VARS.reduce((t, name) => t.replaceAll(name, "<variable>"), text);
  for (const secret of SECRETS) {
    assert.ok(!unnamed.includes(secret), `${where} shows ${secret}: ${text.slice(0, 300)}`);
  }
}

/** Another origin a redirect may point at, answering anything; closed on `await using` disposal. */
function startOtherOrigin(): { origin: string } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(),
  );
  return {
    origin: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** One repository per way of failing; list_branches on `fault-<name>` meets it. */
function faults(otherOrigin: string): Record<string, Omit<Route, "method" | "path">> {
  return {
    ...Object.fromEntries(
      [400, 401, 403, 404, 409, 429, 500, 502, 503].map((status) => [
        `status-${status}`,
        { status, body: { errors: [{ message: `Bitbucket says ${status}` }] } },
      ]),
    ),
    timeout: { delayMs: 3000 },
    "cross-origin-redirect": {
      status: 302,
      headers: { location: `${otherOrigin}/bitbucket/rest/api/latest/x` },
    },
    "redirect-loop": { status: 302, headers: { location: "branches" } },
    "malformed-body": { body: '{"values": [' },
    "oversized-body": { fault: "endless" },
    "html-body": {
      body: "<!DOCTYPE html><html><body>Sign in</body></html>",
      headers: { "content-type": "text/html" },
    },
    "no-content": { status: 204 },
    "dropped-connection": { fault: "drop" },
  };
}
/** The name of every way of failing (they do not depend on where the other origin is). */
const FAULT_NAMES = Object.keys(faults("http://127.0.0.1:1"));
/** What list_branches expects, so an empty answer is an error too. */
const Page = z.object({ values: z.array(z.unknown()) });
const branchesOf = (repo: string) => `/api/latest/projects/PROJ/repos/${repo}/branches`;
/** The fixture routes of every way of failing, each on its own repository. */
function faultRoutes(otherOrigin: string): Route[] {
  return Object.entries(faults(otherOrigin)).map(([name, fault]) => ({
    method: "GET",
    path: branchesOf(`fault-${name}`),
    ...fault,
  }));
}
const callFor = (name: string) => ({
  name: "list_branches",
  arguments: { project: "PROJ", repo: `fault-${name}` },
});

for (const username of [undefined, USERNAME]) {
  const auth = username ? "Basic" : "Bearer";
  Deno.test(`secrets (${auth}): no tool result of any error path shows the token`, async () => {
    await using other = startOtherOrigin();
    await using h = await connect({
      routes: faultRoutes(other.origin),
      username,
      timeoutMs: 150,
      client: { maxResponseBytes: 64 * 1024 },
    });
    for (const name of FAULT_NAMES) {
      const result = await h.client.callTool(callFor(name));
      assert.equal(result.isError, true, `${name} is an error`);
      assertNoSecret(JSON.stringify(result), `the result of ${name}`);
    }
    // Each fault did reach the fixture with the token: the absence above is not for lack of one.
    for (const name of FAULT_NAMES) {
      const path = branchesOf(`fault-${name}`);
      assert.ok(h.fixture.requests.some((r) => r.path === path), `${name} reached the fixture`);
    }
    assert.ok(
      h.fixture.requests.every((r) =>
        r.headers.authorization?.includes(SECRETS[username ? 1 : 0]!)
      ),
    );
  });
}

Deno.test("secrets: no thrown error of any error path shows the token, in its message, stack or inspection", async () => {
  await using other = startOtherOrigin();
  const fixture = startFixtureBitbucket(faultRoutes(other.origin));
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const unreachable = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
  closed.close();
  try {
    const targets: [string, string, string][] = [
      ...FAULT_NAMES.map((name): [string, string, string] => [
        name,
        fixture.url,
        branchesOf(`fault-${name}`),
      ]),
      ["unreachable", unreachable, "/api/latest/x"],
      ["tls-to-plain-http", fixture.url.replace("http:", "https:"), "/api/latest/x"],
      ["refused-path", fixture.url, "/../../admin"],
    ];
    for (const username of [undefined, USERNAME]) {
      const client = new BitbucketClient({
        baseUrl: new URL(fixture.url),
        token: TEST_TOKEN,
        username,
        timeoutMs: 150,
        maxResponseBytes: 64 * 1024,
        retry: { baseDelayMs: 1 },
      });
      for (const [name, base, path] of targets) {
        const target = base === fixture.url ? client : new BitbucketClient({
          baseUrl: new URL(base),
          token: TEST_TOKEN,
          username,
          timeoutMs: 150,
        });
        const error = await target.request({ path, schema: Page }).then(() => undefined, (e) => e);
        assert.ok(error instanceof Error, `${name} throws`);
        for (
          const [part, text] of [
            ["message", error.message],
            ["stack", String(error.stack)],
            ["inspection", Deno.inspect(error, { depth: 10, showHidden: true })],
            ["JSON", JSON.stringify(error)],
          ]
        ) {
          assertNoSecret(text!, `the ${part} of ${name}`);
        }
      }
    }
  } finally {
    await fixture.close();
  }
});

/** The logging a spawned server meets the error paths with: the default, every request as text, as JSON. */
const LOGGING: Record<string, string[]> = {
  "default logging": [],
  "text at debug": ["--log-level", "debug"],
  "JSON at debug": ["--log-level", "debug", "--log-format", "json"],
};

for (const [logging, logArgs] of Object.entries(LOGGING)) {
  Deno.test(`secrets (${logging}): a spawned server meeting every error path prints the token nowhere, stdout or stderr`, async () => {
    await errorPathsSpawned(logArgs);
  });
}

async function errorPathsSpawned(logArgs: string[]): Promise<void> {
  await using other = startOtherOrigin();
  const fixture = startFixtureBitbucket(faultRoutes(other.origin));
  const session = new RawStdioSession(
    stdioServerParams(fixture.url, [
      "--timeout",
      "0.2",
      "--max-response-mb",
      "0.0625",
      ...logArgs,
    ]),
  );
  let stderr = "";
  try {
    await session.request({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    });
    const answers = await Promise.all(
      FAULT_NAMES.map((name, i) =>
        session.request({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: callFor(name) })
      ),
    );
    for (const answer of answers) {
      assert.equal((answer.result as { isError?: boolean }).isError, true);
    }
  } finally {
    ({ stderr } = await session.close());
    await fixture.close();
  }
  assertNoSecret(session.stdoutLines.join("\n"), "stdout");
  assertNoSecret(stderr, "stderr");
  if (logArgs.includes("debug")) assert.ok(stderr.length > 0, "the requests were logged");
  if (logArgs.includes("json")) {
    for (const line of stderr.trimEnd().split("\n")) {
      assert.equal(typeof JSON.parse(line), "object");
    }
  }
}

const STARTUP_FAILURES: [string, string[], string[], Record<string, string>][] = [
  ["no BITBUCKET_URL", scopedPermissions("127.0.0.1:1"), [], {}],
  ["a BITBUCKET_URL that is no URL", scopedPermissions("127.0.0.1:1"), [], {
    BITBUCKET_URL: "bitbucket example com",
  }],
  ["credentials in BITBUCKET_URL", scopedPermissions("127.0.0.1:1"), [], {
    BITBUCKET_URL: `https://${USERNAME}:${TEST_TOKEN}@127.0.0.1:1`,
  }],
  ["no network permission", scopedPermissions("127.0.0.1:2"), [], {
    BITBUCKET_URL: "http://127.0.0.1:1",
  }],
  ["no environment permission", ["--allow-net=127.0.0.1:1"], [], {
    BITBUCKET_URL: "http://127.0.0.1:1",
  }],
  ["the token as a flag", scopedPermissions("127.0.0.1:1"), [`--token=${TEST_TOKEN}`], {
    BITBUCKET_URL: "http://127.0.0.1:1",
  }],
  ["the token as a flag, JSON logs", scopedPermissions("127.0.0.1:1"), [
    "--log-format",
    "json",
    `--token=${TEST_TOKEN}`,
  ], { BITBUCKET_URL: "http://127.0.0.1:1" }],
  ["a mistyped token flag", scopedPermissions("127.0.0.1:1"), [`--tokn=${TEST_TOKEN}`], {
    BITBUCKET_URL: "http://127.0.0.1:1",
  }],
  ["an unknown tool", scopedPermissions("127.0.0.1:1"), ["--tools", "no_such_tool"], {
    BITBUCKET_URL: "http://127.0.0.1:1",
  }],
];

Deno.test("secrets: every start-up failure stops with status 2 and a reason, never printing the token", async (t) => {
  const runs = await Promise.all(
    STARTUP_FAILURES.map(([, permissions, args, env]) =>
      runMain(permissions, args, { BITBUCKET_TOKEN: TEST_TOKEN, ...env })
    ),
  );
  for (const [i, [what]] of STARTUP_FAILURES.entries()) {
    await t.step(what, () => {
      const run = runs[i]!;
      assert.equal(run.code, 2, run.stderr);
      assert.ok(run.stderr.length > 0, "it says why");
      assertNoSecret(run.stderr, "stderr");
      assertNoSecret(run.stdout, "stdout");
    });
  }
});
