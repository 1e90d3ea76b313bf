/**
 * Redirects (src/bitbucket/redirect.ts): the rule inside the client, against
 * real servers (another origin never sees the token or any request, the
 * context path bounds what is followed, loops end), then the rule on its own:
 * which Location headers are followed, from a base URL at the root and one
 * under a context path, and why the others are refused, with no network.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { z } from "zod";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../../src/bitbucket/transport/errors.ts";
import { CLI_HINTS } from "../../../src/cli/hints.ts";
import { type Route, startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import { firstText, TEST_TOKEN } from "../../../testing/harness.ts";
import { ENV_FLAG, MAIN } from "../../../testing/spawn.ts";
import { restPrefix } from "../../../src/bitbucket/transport/base_path.ts";
import {
  MAX_REDIRECTS,
  type RedirectRefusal,
  redirectTarget,
} from "../../../src/bitbucket/transport/redirect.ts";

const Any = z.unknown();
const PATH = "/api/latest/x";

/**
 * Another origin that records every contact. It listens on 127.0.0.1 with its
 * own port (a different origin: scheme, host and port must all match), since
 * the test permissions grant 127.0.0.1 only.
 */
function startOtherOrigin() {
  const seen: { path: string; authorization: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({ path: new URL(req.url).pathname, authorization: req.headers.get("authorization") });
    return Response.json({ stolen: true });
  });
  return {
    origin: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    seen,
    close: () => server.shutdown(),
  };
}

function clientFor(url: string) {
  return new BitbucketClient({
    baseUrl: new URL(url),
    token: TEST_TOKEN,
    timeoutMs: 2000,
    hints: CLI_HINTS,
  });
}

async function failure(promise: Promise<unknown>): Promise<BitbucketError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof BitbucketError, `expected a BitbucketError, got ${error}`);
  return error;
}

for (const status of [301, 302, 303, 307, 308]) {
  Deno.test(`a ${status} to another origin is refused, and that origin never sees the token or any request`, async () => {
    const other = startOtherOrigin();
    const fixture = startFixtureBitbucket([]);
    const port = new URL(fixture.url).port;
    const targets = [
      `${other.origin}/bitbucket/rest/api/latest/x`,
      `//127.0.0.1:${new URL(other.origin).port}/bitbucket/rest/api/latest/x`,
      `https://127.0.0.1:${port}/bitbucket/rest/api/latest/x`,
      `http://localhost:${port}/bitbucket/rest/api/latest/x`,
    ];
    fixture.prepend(targets.map((location, i): Route => ({
      method: "GET",
      path: `${PATH}/${i}`,
      status,
      headers: { location },
    })));
    try {
      for (const i of targets.keys()) {
        const error = await failure(
          clientFor(fixture.url).request({ path: `${PATH}/${i}`, schema: Any }),
        );
        assert.equal(error.kind, "refused");
        assert.match(error.message, /redirected to another origin .* not followed.*BITBUCKET_URL/);
        assert.ok(!error.message.includes(TEST_TOKEN));
      }
      assert.deepEqual(other.seen, [], "the other origin was never contacted");
      assert.equal(fixture.requests.length, targets.length, "no redirect was followed");
    } finally {
      await fixture.close();
      await other.close();
    }
  });
}

Deno.test("a redirect outside the base URL's context path is refused, though on the same origin", async () => {
  const fixture = startFixtureBitbucket([
    {
      method: "GET",
      path: PATH,
      status: 302,
      headers: { location: "/other-app/rest/api/latest/x" },
    },
  ]);
  try {
    const error = await failure(clientFor(fixture.url).request({ path: PATH, schema: Any }));
    assert.equal(error.kind, "refused");
    assert.match(error.message, /redirected outside http:\/\/127\.0\.0\.1:\d+\/bitbucket\//);
    assert.equal(fixture.requests.length, 1);
  } finally {
    await fixture.close();
  }
});

Deno.test("a redirect within the base URL is followed, with the token", async () => {
  const fixture = startFixtureBitbucket([
    {
      method: "GET",
      path: PATH,
      status: 307,
      headers: { location: "/bitbucket/rest/api/latest/y" },
    },
    { method: "GET", path: "/api/latest/y", body: { ok: true } },
  ]);
  try {
    assert.deepEqual((await clientFor(fixture.url).request({ path: PATH, schema: Any })).body, {
      ok: true,
    });
    assert.equal(fixture.requests[1]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
  } finally {
    await fixture.close();
  }
});

Deno.test("a redirect loop ends with a clear error after 3 redirects", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: "/api/latest/a", status: 302, headers: { location: "b" } },
    { method: "GET", path: "/api/latest/b", status: 302, headers: { location: "a" } },
  ]);
  try {
    const error = await failure(
      clientFor(fixture.url).request({ path: "/api/latest/a", schema: Any }),
    );
    assert.equal(error.kind, "invalid_response");
    assert.match(
      error.message,
      /^GET \/api\/latest\/a failed: 302: more than 3 redirects in a row \(a redirect loop\?\); check BITBUCKET_URL/,
    );
    assert.equal(fixture.requests.length, 4, "the first request and 3 redirects, then it stopped");
  } finally {
    await fixture.close();
  }
});

Deno.test("a redirect without a Location header is a clear error", async () => {
  const fixture = startFixtureBitbucket([{ method: "GET", path: PATH, status: 302 }]);
  try {
    const error = await failure(clientFor(fixture.url).request({ path: PATH, schema: Any }));
    assert.match(error.message, /302: a redirect without a Location header/);
  } finally {
    await fixture.close();
  }
});

Deno.test("end to end: with network permission for both origins, the spawned server still never sends the token to the other one", async () => {
  const other = startOtherOrigin();
  const fixture = startFixtureBitbucket([
    {
      method: "GET",
      path: "/api/latest/projects/PROJ/repos/web",
      status: 302,
      headers: { location: `${other.origin}/bitbucket/rest/api/latest/projects/PROJ/repos/web` },
    },
  ]);
  const transport = new StdioClientTransport({
    command: "deno",
    // Every port of 127.0.0.1: the sandbox would let the token through; only the client's check stops it.
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      ENV_FLAG,
      MAIN,
    ],
    env: {
      BITBUCKET_URL: fixture.url,
      BITBUCKET_TOKEN: TEST_TOKEN,
      PATH: Deno.env.get("PATH") ?? "",
    },
    stderr: "pipe",
  });
  const client = new Client({ name: "redirect", version: "0" });
  try {
    await client.connect(transport);
    const result = await client.callTool({
      name: "get_repository",
      arguments: { project: "PROJ", repo: "web" },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /redirected to another origin/);
    assert.deepEqual(other.seen, []);
  } finally {
    await client.close();
    await fixture.close();
    await other.close();
  }
});

const ROOT = new URL("https://bitbucket.example.com/");
const UNDER = new URL("https://example.com/bitbucket");

interface Case {
  why: string;
  base: URL;
  /** The URL that answered with the redirect; defaults to a REST URL under `base`. */
  from?: string;
  location: string | null;
  /** Redirects already followed. */
  hop?: number;
  /** The URL followed, or the refusal. */
  expect: string | RedirectRefusal;
}

const CASES: Case[] = [
  {
    why: "an absolute URL on the same origin is followed",
    base: ROOT,
    location: "https://bitbucket.example.com/rest/api/latest/y",
    expect: "https://bitbucket.example.com/rest/api/latest/y",
  },
  {
    why: "a path is resolved against the URL that redirected",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/bitbucket/rest/api/latest/y?start=25",
    expect: "https://example.com/bitbucket/rest/api/latest/y?start=25",
  },
  {
    why: "a relative reference is resolved too",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "y",
    expect: "https://example.com/bitbucket/rest/api/latest/y",
  },
  {
    why: "the last of the redirects allowed is followed",
    base: ROOT,
    location: "/rest/api/latest/y",
    hop: MAX_REDIRECTS - 1,
    expect: "https://bitbucket.example.com/rest/api/latest/y",
  },
  {
    why: "no Location header",
    base: ROOT,
    location: null,
    expect: { kind: "invalid_response", reason: "a redirect without a Location header" },
  },
  {
    why: "an empty Location header",
    base: ROOT,
    location: "",
    expect: { kind: "invalid_response", reason: "a redirect without a Location header" },
  },
  {
    why: "a Location that is not a URL",
    base: ROOT,
    location: "http://[::1",
    expect: { kind: "invalid_response", reason: "a redirect to something that is not a URL" },
  },
  {
    why: "another host",
    base: ROOT,
    location: "https://evil.example.com/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (https://evil.example.com), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "the same host over plain HTTP is another origin",
    base: ROOT,
    location: "http://bitbucket.example.com/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (http://bitbucket.example.com), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "another port is another origin",
    base: ROOT,
    location: "https://bitbucket.example.com:8443/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (https://bitbucket.example.com:8443), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "a protocol-relative URL to another host",
    base: ROOT,
    location: "//evil.example.com/rest",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected to another origin (https://evil.example.com), which is not followed so the token stays with https://bitbucket.example.com",
      advice: "check_base_url",
    },
  },
  {
    why: "outside the context path, on the same origin",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/jira/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected outside https://example.com/bitbucket/ (to /jira/rest/api/latest/x), which is not followed",
      advice: "check_context_path",
    },
  },
  {
    why: "a path that only starts with the context path's letters is outside it",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/bitbucket-old/rest/api/latest/x",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected outside https://example.com/bitbucket/ (to /bitbucket-old/rest/api/latest/x), which is not followed",
      advice: "check_context_path",
    },
  },
  {
    why: "dot segments cannot climb out of the context path",
    base: UNDER,
    from: "https://example.com/bitbucket/rest/api/latest/x",
    location: "/bitbucket/../admin",
    expect: {
      kind: "refused",
      reason:
        "Bitbucket redirected outside https://example.com/bitbucket/ (to /admin), which is not followed",
      advice: "check_context_path",
    },
  },
  {
    why: "one redirect more than allowed",
    base: ROOT,
    location: "/rest/api/latest/y",
    hop: MAX_REDIRECTS,
    expect: {
      kind: "invalid_response",
      reason: `more than ${MAX_REDIRECTS} redirects in a row (a redirect loop?)`,
      advice: "check_base_url",
    },
  },
];

for (const c of CASES) {
  Deno.test(`redirectTarget: ${c.why}`, () => {
    const from = new URL(c.from ?? `${restPrefix(c.base)}/api/latest/x`, c.base);
    const target = redirectTarget(c.base, from, c.location, c.hop ?? 0);
    if (typeof c.expect === "string") {
      assert.ok(target instanceof URL, `followed: ${JSON.stringify(target)}`);
      assert.equal(target.href, c.expect);
    } else {
      assert.deepEqual(target, c.expect);
    }
  });
}

Deno.test("redirectTarget: a refusal names no flag and no variable: the caller words the fix", () => {
  for (const c of CASES) {
    if (typeof c.expect === "string") continue;
    assert.doesNotMatch(c.expect.reason, /--[a-z]|BITBUCKET_|DENO_/, c.why);
  }
});
