import assert from "node:assert/strict";
import { CATALOGUE, TOOLSETS } from "../src/tools/catalogue.ts";
import { isTool, type Tool } from "../src/tools/kit/define.ts";
import { connect } from "./support/harness.ts";

/** Every tool value exported by a module under src/tools/, with the file it is in. */
async function definedTools(): Promise<{ file: string; tool: Tool }[]> {
  const found: { file: string; tool: Tool }[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts")) {
        for (const value of Object.values(await import(url.href))) {
          if (isTool(value)) found.push({ file: entry.name, tool: value });
        }
      }
    }
  };
  await walk(new URL("../src/tools/", import.meta.url));
  return found;
}

Deno.test("catalogue: every tool a module under src/tools/ defines is in the catalogue", async () => {
  const defined = await definedTools();
  assert.ok(defined.length > 0, "the modules define tools");
  const missing = defined.filter(({ tool }) => !CATALOGUE.includes(tool));
  assert.deepEqual(
    missing.map(({ file, tool }) => `${tool.name} (${file})`),
    [],
    "add each to a toolset in src/tools/catalogue.ts",
  );
  assert.equal(defined.length, CATALOGUE.length, "the catalogue holds only defined tools");
});

Deno.test("catalogue: each tool is in exactly one toolset, and toolset names are unique", () => {
  const names = TOOLSETS.map((set) => set.name);
  assert.equal(new Set(names).size, names.length);
  for (const tool of CATALOGUE) {
    const sets = TOOLSETS.filter((set) => set.tools.includes(tool)).map((set) => set.name);
    assert.deepEqual(sets, [tool.toolset], tool.name);
  }
});

Deno.test("catalogue: no published output schema lets a field be null (entity schemas stay inside src/bitbucket)", async () => {
  // Bitbucket's tolerant parsing (`nullish`, defaults) belongs to entity schemas; a
  // published output is the project's own shape, so `null` never appears in one.
  await using h = await connect({ selection: { yolo: true } });
  const { tools } = await h.client.listTools();
  for (const tool of tools) {
    const text = JSON.stringify(tool.outputSchema);
    assert.ok(!text.includes('"null"'), `${tool.name}: an output field may be null`);
    assert.ok(!text.includes('"default"'), `${tool.name}: an output field has a default`);
  }
});

Deno.test("catalogue: arguments published without a description are explained once, in the server's instructions", async () => {
  await using h = await connect({ selection: { yolo: true } });
  const instructions = h.client.getInstructions() ?? "";
  const { tools } = await h.client.listTools();
  const bare = new Set<string>();
  for (const tool of tools) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<
      string,
      { description?: string }
    >;
    for (const [name, schema] of Object.entries(properties)) {
      if (schema.description === undefined && ["project", "repo", "start"].includes(name)) {
        bare.add(name);
      }
    }
  }
  assert.deepEqual([...bare].sort(), ["project", "repo", "start"], "these go undescribed");
  assert.match(instructions, /`project` is a project key and `repo` a repository slug/);
  assert.match(instructions, /nextPageStart as start/);
  assert.match(instructions, /ask the person first: if they decline, do not retry/);
});
