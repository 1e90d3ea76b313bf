/**
 * Running by URL, as the README shows: `deno run --import-map=<tag>/deno.json
 * <tag>/main.ts` from a directory with no deno.json, with the same scoped
 * permissions as a local run. The checkout is served the way a raw-file host
 * serves a tag (every file as text/plain) and the server is driven over stdio
 * by a real MCP client.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { selectTools } from "../src/server/gating.ts";
import { CATALOGUE } from "../src/tools/catalogue.ts";
import { refs } from "./cases/refs.ts";
import { startFixtureBitbucket } from "./support/fixture_bitbucket.ts";
import { TEST_TOKEN } from "./support/harness.ts";
import { startRawHost } from "./support/raw_host.ts";
import { scopedPermissions } from "./support/spawn.ts";
import { tempDir } from "./support/temp_dir.ts";

/** Passed through to the server when set: Deno's cache, trusted CAs, proxies, registry. */
const NETWORK_SETTINGS = [
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "NPM_CONFIG_REGISTRY",
];

Deno.test("run by URL: main.ts and deno.json (as the import map) from a raw-file host, in an empty directory, serve tools over stdio", async () => {
  const fixture = startFixtureBitbucket(refs.routes);
  const host = startRawHost();
  await using cwd = await tempDir("url-run");
  const env: Record<string, string> = {
    BITBUCKET_URL: fixture.url,
    BITBUCKET_TOKEN: TEST_TOKEN,
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "",
    NO_COLOR: "1",
  };
  // Deno's cache, and how this machine reaches the npm registry (a first run resolves the npm
  // dependencies there, as there is no lockfile beside a URL).
  for (const name of NETWORK_SETTINGS) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  const transport = new StdioClientTransport({
    command: "deno",
    args: [
      "run",
      "--no-prompt",
      `--import-map=${host.base}/deno.json`,
      ...scopedPermissions(new URL(fixture.url).host),
      `${host.base}/main.ts`,
    ],
    env,
    cwd: cwd.path,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "url-run", version: "0.0.0" });
  try {
    await client.connect(transport).catch((error) => {
      throw new Error(`the server did not start: ${error}\n${stderr}`);
    });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      selectTools(CATALOGUE, { yolo: false, readOnly: false }).map((t) => t.name),
      `the default selection is listed; stderr: ${stderr}`,
    );
    const result = await client.callTool({
      name: "list_tags",
      arguments: { project: "PROJ", repo: "web" },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const { tags } = result.structuredContent as { tags: { displayId: string }[] };
    assert.equal(tags[0]?.displayId, "v1.0.0");
  } finally {
    await client.close();
    await host.close();
    await fixture.close();
  }
  for (const path of ["/deno.json", "/main.ts", "/src/cli/run.ts", "/src/tools/catalogue.ts"]) {
    assert.ok(host.requested.includes(path), `${path} was fetched from the host`);
  }
  // Removing the directory without `recursive` succeeds only if the run wrote nothing there.
  await Deno.remove(cwd.path);
  assert.ok(!stderr.includes(TEST_TOKEN));
});
