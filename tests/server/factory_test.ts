/**
 * The server factory's identity: who the server says it is (`serverInfo`): a title, a description, the
 * project's website and an icon VS Code can draw, in a few hundred bytes, to
 * a 2025-era client (`initialize`) and to the newest v1 client alike.
 */
import assert from "node:assert/strict";
import { Client as ClientV1 } from "mcp-sdk-1.32.2/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "mcp-sdk-1.32.2/client/streamableHttp.js";
import { connect } from "../../testing/harness.ts";
import { startHttp } from "../support/http_server.ts";
import { SERVER_NAME, VERSION } from "../../src/version.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Checks a serverInfo as a client received it. */
function assertIdentity(info: Record<string, unknown> | undefined) {
  assert.ok(info);
  assert.equal(info.name, SERVER_NAME);
  assert.equal(info.version, VERSION);
  assert.equal(typeof info.title, "string");
  assert.ok((info.description as string).length > 20, "a sentence on what it is");
  assert.ok(new URL(info.websiteUrl as string).protocol === "https:");
  const icons = info.icons as { src: string; mimeType: string }[];
  assert.equal(icons.length, 1);
  assert.equal(icons[0]!.mimeType, "image/png");
  const [head, data] = icons[0]!.src.split(",");
  assert.equal(head, "data:image/png;base64");
  const bytes = Uint8Array.from(atob(data!), (c) => c.charCodeAt(0));
  assert.deepEqual([...bytes.slice(0, 8)], PNG_SIGNATURE, "the icon is a PNG");
  const size = new TextEncoder().encode(JSON.stringify(info)).length;
  assert.ok(size <= 512, `serverInfo is ${size} bytes`);
}

Deno.test("serverInfo names the server with a title, a description, its website and a PNG icon, within 512 bytes", async () => {
  await using h = await connect({ era: "legacy" });
  assertIdentity(h.client.getServerVersion() as Record<string, unknown> | undefined);
});

Deno.test("serverInfo reaches the newest v1 client over HTTP whole", async () => {
  await using h = startHttp({ serverToken: "t" });
  const client = new ClientV1({ name: "vscode-like", version: "1.32.2" });
  await client.connect(new HttpV1(h.url));
  try {
    assertIdentity(client.getServerVersion() as Record<string, unknown> | undefined);
  } finally {
    await client.close();
  }
});
