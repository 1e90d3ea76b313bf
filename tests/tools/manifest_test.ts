/**
 * src/tools/manifest.generated.ts holds every tool's record (its tools/list
 * entry, toolset and access level), so that a starting server answers
 * `tools/list` without building any tool's zod schemas; an entry loads the
 * catalogue on its first call. `deno task generate` writes the file; this
 * test only reads it, and fails with the diff when it differs from the
 * catalogue. The other tests check that a server made of the manifest lists,
 * selects and calls exactly as one made of the tools.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, serveStdio } from "@modelcontextprotocol/server";
import { BitbucketClient } from "../../src/bitbucket/transport/client.ts";
import { serverWith } from "../../src/server/factory.ts";
import { registrations } from "../../src/policy/registration.ts";
import { selectTools, type ToolSelection } from "../../src/policy/selection.ts";
import { CATALOGUE, TOOLSETS } from "../../src/tools/catalogue.ts";
import type { ToolEntry } from "../../src/tools/kit/define.ts";
import { MANIFEST_TOOLS, TOOLSET_NAMES } from "../../src/tools/manifest.ts";
import { MANIFEST_FILE, renderManifest } from "../../src/tools/manifest_record.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startFixtureBitbucket } from "../../testing/fixture_bitbucket.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { staleFile } from "../support/line_diff.ts";

Deno.test("manifest: the generated manifest is the catalogue's", async () => {
  const saved = await Deno.readTextFile(new URL(`../../${MANIFEST_FILE}`, import.meta.url));
  const current = renderManifest(TOOLSETS);
  assert.ok(saved === current, staleFile(MANIFEST_FILE, saved, current));
});

/** A connected client to a server holding `tools`, against a fixture with `routes`. */
async function serve(tools: readonly ToolEntry[]) {
  const fixture = startFixtureBitbucket(refs.routes);
  const bitbucket = new BitbucketClient({
    baseUrl: new URL(fixture.url),
    token: TEST_TOKEN,
    timeoutMs: 5000,
  });
  const made = registrations(tools, () => bitbucket, { unsafeWrites: true });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(() => serverWith(made), { transport: serverSide });
  const client = new Client({ name: "manifest-test", version: "0" });
  await client.connect(clientSide);
  return {
    client,
    fixture,
    async [Symbol.asyncDispose]() {
      await client.close();
      await handle.close();
      await fixture.close();
    },
  };
}

Deno.test("manifest: a server of manifest entries lists exactly what one of the tools lists", async () => {
  await using listed = await serve(MANIFEST_TOOLS);
  await using real = await serve(CATALOGUE);
  assert.deepEqual(await listed.client.listTools(), await real.client.listTools());
  assert.deepEqual(TOOLSET_NAMES, TOOLSETS.map((s) => s.name));
});

Deno.test("manifest: an entry's first call loads the tool; answers and refusals are the tool's own", async () => {
  await using listed = await serve(MANIFEST_TOOLS);
  await using real = await serve(CATALOGUE);
  const calls = [
    { name: "list_tags", arguments: { project: "PROJ", repo: "web" } },
    { name: "list_tags", arguments: { project: "PROJ" } },
    { name: "list_tags", arguments: { project: "PROJ", repo: "web", limit: 0 } },
  ];
  for (const call of calls) {
    const answer = await listed.client.callTool(call);
    assert.deepEqual(answer, await real.client.callTool(call), JSON.stringify(call));
  }
  assert.equal(
    (await listed.client.callTool(calls[0]!)).isError,
    undefined,
    "the call succeeded",
  );
  assert.deepEqual(
    listed.fixture.requests.map((r) => [r.method, r.path, r.query]),
    real.fixture.requests.map((r) => [r.method, r.path, r.query]).concat(
      real.fixture.requests.map((r) => [r.method, r.path, r.query]),
    ),
    "the same requests reached Bitbucket (the listed server called once more)",
  );
});

Deno.test("manifest: selecting from the entries exposes what selecting from the tools does", () => {
  const selections: Partial<ToolSelection>[] = [
    {},
    { withholdUnsafe: true },
    { readOnly: true },
    ...TOOLSETS.map((s) => ({ toolsets: [s.name] })),
    { toolsets: ["refs"], tools: ["merge_pull_request"], exclude: ["create_tag"] },
  ];
  for (const selection of selections) {
    const flags = { readOnly: false, ...selection };
    assert.deepEqual(
      selectTools(MANIFEST_TOOLS, flags).map((t) => t.name),
      selectTools(CATALOGUE, flags).map((t) => t.name),
      JSON.stringify(selection),
    );
  }
});
