/**
 * src/bitbucket/server_version.ts: versions as real servers state them in
 * `application-properties` (`9.4.22`, `10.2.0`, `8.19.1`), compared the way
 * the feature table needs, and read once per server by the clients that share
 * its facts, a failed read tried again.
 */
import assert from "node:assert/strict";
import {
  atLeast,
  parseVersion,
  ServerFacts,
  type ServerVersion,
  versionOfProperties,
} from "../../../src/bitbucket/transport/server_version.ts";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";
import { startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import {
  APPLICATION_PROPERTIES,
  recordedVersion,
  versionRoute,
} from "../../../testing/cases/server_version.ts";

Deno.test("versions as servers state them are read, anything else is not a version", () => {
  assert.deepEqual(parseVersion("9.4.22"), { major: 9, minor: 4, patch: 22, text: "9.4.22" });
  assert.deepEqual(parseVersion("10.2"), { major: 10, minor: 2, patch: 0, text: "10.2" });
  assert.equal(parseVersion("8.19.1-rc1")?.patch, 1);
  for (const bad of ["", "nine", "9", undefined, 9.4, null]) {
    assert.equal(parseVersion(bad), undefined, String(bad));
  }
});

Deno.test("a version is at least another by major, then minor, then patch, never as text", () => {
  const v = (text: string) => parseVersion(text) as ServerVersion;
  assert.ok(atLeast(v("10.2.0"), "9.3"), "10 is after 9, though '1' sorts before '9'");
  assert.ok(atLeast(v("8.19.1"), "8.18"));
  assert.ok(!atLeast(v("8.9.4"), "8.15"), "8.9 is before 8.15, though '9' sorts after '1'");
  assert.ok(atLeast(v("9.3.0"), "9.3"));
  assert.ok(!atLeast(v("9.2.99"), "9.3"));
  assert.throws(() => atLeast(v("9.4.2"), "soon"), /not a version/);
});

Deno.test("the recorded application-properties names its version; a body without one names none", () => {
  assert.equal(versionOfProperties({ version: recordedVersion() })?.text, recordedVersion());
  assert.equal(versionOfProperties({ displayName: "Bitbucket" }), undefined);
  assert.equal(versionOfProperties("9.4.2"), undefined);
});

Deno.test("clients sharing a server's facts read its version once, concurrent calls included", async () => {
  const fixture = startFixtureBitbucket([versionRoute("8.19.1")]);
  try {
    const facts = new ServerFacts();
    const client = (token: string) =>
      new BitbucketClient({
        baseUrl: new URL(fixture.url),
        token,
        timeoutMs: 5000,
        serverFacts: facts,
      });
    const one = client("token-one");
    const versions = await Promise.all([
      one.serverVersion(),
      one.withSignal(new AbortController().signal).serverVersion(),
      client("token-two").serverVersion(),
    ]);
    assert.deepEqual(versions.map((v) => v?.text), ["8.19.1", "8.19.1", "8.19.1"]);
    assert.equal(fixture.requests.filter((r) => r.path === APPLICATION_PROPERTIES).length, 1);
  } finally {
    await fixture.close();
  }
});

Deno.test("a failed version read is not kept: the next call reads again", async () => {
  const fixture = startFixtureBitbucket([
    { method: "GET", path: APPLICATION_PROPERTIES, status: 404, body: { errors: [] }, once: true },
    versionRoute(),
  ]);
  try {
    const client = new BitbucketClient({
      baseUrl: new URL(fixture.url),
      token: "t",
      timeoutMs: 5000,
      retry: { baseDelayMs: 1 },
    });
    await assert.rejects(client.serverVersion(), /404/);
    assert.equal((await client.serverVersion())?.text, recordedVersion());
    assert.equal(fixture.requests.length, 2);
  } finally {
    await fixture.close();
  }
});
