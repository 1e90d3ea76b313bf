import assert from "node:assert/strict";
import { z } from "zod";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../../src/bitbucket/transport/errors.ts";
import { apiPath, segments, UnsafePathError } from "../../../src/bitbucket/transport/path.ts";
import { startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../../testing/harness.ts";

const Any = z.unknown();

function clientFor(
  url: string,
  extra: Partial<ConstructorParameters<typeof BitbucketClient>[0]> = {},
) {
  return new BitbucketClient({
    baseUrl: new URL(url),
    token: TEST_TOKEN,
    timeoutMs: 2000,
    ...extra,
  });
}

Deno.test("apiPath encodes every value as one segment and refuses dot segments", () => {
  assert.equal(
    apiPath`/projects/${"../../admin"}/repos/${"a b/c"}`,
    "/projects/..%2F..%2Fadmin/repos/a%20b%2Fc",
  );
  assert.equal(apiPath`/raw/${segments("src/a b/ü.ts")}`, "/raw/src/a%20b/%C3%BC.ts");
  for (const bad of ["", ".", ".."]) {
    assert.throws(() => apiPath`/projects/${bad}`, UnsafePathError);
  }
  assert.throws(() => apiPath`/raw/${segments("src/../../admin")}`, UnsafePathError);
  assert.throws(() => apiPath`/raw/${segments("src//a")}`, UnsafePathError);
});

Deno.test("the client sends the token as Bearer, or as Basic with a username, and never to another origin", async () => {
  const fixture = startFixtureBitbucket([{
    method: "GET",
    path: "/api/latest/x",
    body: { ok: true },
  }]);
  try {
    await clientFor(fixture.url).request({ path: "/api/latest/x", schema: Any });
    await clientFor(fixture.url, { username: "jdoe" }).request({
      path: "/api/latest/x",
      schema: Any,
    });
    assert.equal(fixture.requests[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
    assert.equal(fixture.requests[1]?.headers.authorization, `Basic ${btoa(`jdoe:${TEST_TOKEN}`)}`);
    assert.equal(
      fixture.requests[0]?.headers["x-atlassian-token"],
      undefined,
      "GET carries no XSRF header",
    );
    assert.throws(() => clientFor(fixture.url).url("/../../admin"), BitbucketError);
    assert.throws(() => clientFor(fixture.url).url("@evil.example.com/x"), BitbucketError);
  } finally {
    await fixture.close();
  }
});

Deno.test("writes carry X-Atlassian-Token: no-check and a JSON body", async () => {
  const fixture = startFixtureBitbucket([{
    method: "POST",
    path: "/api/latest/x",
    body: { ok: true },
  }]);
  try {
    await clientFor(fixture.url).request({
      method: "POST",
      path: "/api/latest/x",
      schema: Any,
      body: { a: 1 },
    });
    assert.equal(fixture.requests[0]?.headers["x-atlassian-token"], "no-check");
    assert.equal(fixture.requests[0]?.headers["content-type"], "application/json");
    assert.deepEqual(fixture.requests[0]?.body, { a: 1 });
  } finally {
    await fixture.close();
  }
});

Deno.test("a same-origin redirect is followed; one to another origin is refused without sending the token there", async () => {
  const other = startFixtureBitbucket([{
    method: "GET",
    path: "/api/latest/x",
    body: { stolen: true },
  }]);
  const fixture = startFixtureBitbucket([
    {
      method: "GET",
      path: "/api/latest/moved",
      status: 301,
      headers: { location: "/bitbucket/rest/api/latest/x" },
    },
    { method: "GET", path: "/api/latest/x", body: { ok: true } },
    {
      method: "GET",
      path: "/api/latest/away",
      status: 302,
      headers: { location: other.url.replace("127.0.0.1", "localhost") + "/rest/api/latest/x" },
    },
  ]);
  try {
    const client = clientFor(fixture.url);
    assert.deepEqual((await client.request({ path: "/api/latest/moved", schema: Any })).body, {
      ok: true,
    });
    await assert.rejects(
      client.request({ path: "/api/latest/away", schema: Any }),
      /redirected to another origin/,
    );
    assert.equal(other.requests.length, 0, "the other origin was never contacted");
  } finally {
    await fixture.close();
    await other.close();
  }
});

Deno.test("a request slower than the timeout fails with a timeout error", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((r) => setTimeout(r, 500));
    return Response.json({});
  });
  try {
    const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
    const error = await clientFor(url, { timeoutMs: 50 }).request({
      path: "/api/latest/x",
      schema: Any,
    }).catch((e) => e);
    assert.ok(error instanceof BitbucketError);
    assert.equal(error.kind, "timeout");
    assert.match(error.message, /no answer within 50 ms/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("an unreachable server is a network error naming the origin, not the token", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const error = await clientFor(`http://127.0.0.1:${port}`).request({
    path: "/api/latest/x",
    schema: Any,
  }).catch((e) => e);
  assert.ok(error instanceof BitbucketError);
  assert.equal(error.kind, "network");
  assert.match(error.message, new RegExp(`cannot reach http://127.0.0.1:${port}`));
  assert.ok(!error.message.includes(TEST_TOKEN));
});

Deno.test("a client certificate's HTTP client goes with every attempt, and a refused handshake names the certificate and is not retried", async () => {
  const httpClient = Deno.createHttpClient({});
  const seen: unknown[] = [];
  const refusal = new TypeError("fetch failed", {
    cause: new Error("received fatal alert: CertificateExpired"),
  });
  try {
    const client = clientFor("https://bitbucket.example.com", {
      clientCertificate: { httpClient, subject: "CN=alice" },
      fetch: (_input, init) => {
        seen.push(init && "client" in init ? init.client : undefined);
        return Promise.reject(refusal);
      },
    });
    const error = await client.request({ path: "/api/latest/x", schema: Any }).catch((e) => e);
    assert.ok(error instanceof BitbucketError);
    assert.equal(error.advice, "fix_client_cert");
    assert.match(error.message, /refused our client certificate CN=alice/);
    assert.deepEqual(seen, [httpClient], "sent once, through the certificate's client");
    const options: string[] = [];
    const without = clientFor("https://bitbucket.example.com", {
      fetch: (_input, init) => {
        options.push(...Object.keys(init ?? {}));
        return Promise.reject(refusal);
      },
    });
    await without.request({ path: "/api/latest/x", schema: Any }).catch(() => {});
    assert.ok(
      options.includes("signal") && !options.includes("client"),
      "no certificate: no client",
    );
  } finally {
    httpClient.close();
  }
});

Deno.test("NGINX's 400 page for a missing client certificate gives the error that fix", async () => {
  const page = "<html><head><title>400 No required SSL certificate was sent</title></head></html>";
  const client = clientFor("https://bitbucket.example.com", {
    hints: { send_client_cert: "SEND-ONE" },
    fetch: () =>
      Promise.resolve(
        new Response(page, { status: 400, headers: { "content-type": "text/html" } }),
      ),
  });
  const error = await client.request({ path: "/api/latest/x", schema: Any }).catch((e) => e);
  assert.ok(error instanceof BitbucketError);
  assert.equal(error.advice, "send_client_cert");
  assert.match(error.message, /SEND-ONE/);
});
