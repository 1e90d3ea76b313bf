import assert from "node:assert/strict";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { toolArguments } from "../../testing/cases/mod.ts";
import { connect, firstText } from "../../testing/harness.ts";

Deno.test("every registered tool has a toolArguments entry, and every entry names a tool", () => {
  const names = CATALOGUE.map((t) => t.name);
  const missing = names.filter((n) => !(n in toolArguments));
  const extra = Object.keys(toolArguments).filter((n) => !names.includes(n));
  assert.deepEqual(missing, [], `tools without a toolArguments entry: ${missing.join(", ")}`);
  assert.deepEqual(extra, [], `toolArguments entries naming no tool: ${extra.join(", ")}`);
});

Deno.test("tool names are unique", () => {
  const names = CATALOGUE.map((t) => t.name);
  assert.equal(new Set(names).size, names.length);
});

for (const tool of CATALOGUE) {
  Deno.test(`contract: ${tool.name} answers a named object payload and sends the expected requests`, async () => {
    const entry = toolArguments[tool.name];
    assert.ok(entry, `no toolArguments entry for ${tool.name}`);
    // Only the routes of the tool's own domain (or the case's own): a request for another
    // domain's resource is unmatched, and fails below.
    await using h = await connect({
      routes: entry.routes,
      selection: { yolo: true },
      apps: entry.apps,
    });
    const result = await h.client.callTool({ name: tool.name, arguments: entry.args });
    assert.notEqual(result.isError, true, `isError: ${JSON.stringify(result.content)}`);
    const structured = result.structuredContent;
    assert.ok(
      typeof structured === "object" && structured !== null && !Array.isArray(structured),
      "structuredContent must be a plain object",
    );
    assert.ok(!("items" in structured), "no generic items key");
    assert.ok(Object.keys(structured).length > 0, "the payload is named");
    if (!tool.hasDocumentText) {
      assert.deepEqual(
        JSON.parse(firstText(result)),
        structured,
        "text block carries the same JSON",
      );
    }
    assert.deepEqual(h.fixture.unmatched, [], "every request had a fixture");
    const seen = h.fixture.requests.map((r) => ({
      method: r.method,
      path: r.path,
      ...(entry.requests.some((e) => e.query !== undefined) ? { query: r.query } : {}),
      ...(r.body !== undefined ? { body: r.body } : {}),
      ...(r.form !== undefined ? { form: r.form } : {}),
    }));
    assert.deepEqual(seen, entry.requests.map((e) => ({ ...e })));
  });
}
