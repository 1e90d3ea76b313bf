import assert from "node:assert/strict";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";
import { connect } from "../../../testing/harness.ts";
import { diffLines } from "../../support/line_diff.ts";

/**
 * Each tool's `tools/list` entry is kept in tests/toolsnaps/<name>.json so that
 * any change to a schema, description or annotation shows up in review.
 * `deno task generate` rewrites them after an intended change (running the
 * first test with UPDATE_TOOLSNAPS=1, which also removes the snapshot of a
 * tool that is gone).
 */
const UPDATE = Deno.env.get("UPDATE_TOOLSNAPS") === "1";

Deno.test("toolsnaps: every tools/list entry matches its snapshot", async () => {
  // A client drawing MCP Apps views is listed every tool, the view tools too.
  await using h = await connect({ selection: { yolo: true }, apps: true });
  const { tools } = await h.client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    CATALOGUE.map((t) => t.name),
    "tools/list is in catalogue order",
  );
  const stale: string[] = [];
  const diffs: string[] = [];
  for (const tool of tools) {
    const file = new URL(`../../toolsnaps/${tool.name}.json`, import.meta.url);
    const current = JSON.stringify(tool, null, 2) + "\n";
    let saved: string;
    try {
      saved = await Deno.readTextFile(file);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (UPDATE) await Deno.writeTextFile(file, current);
      else stale.push(`${tool.name} (no snapshot)`);
      continue;
    }
    if (saved !== current && UPDATE) await Deno.writeTextFile(file, current);
    else if (saved !== current) {
      stale.push(tool.name);
      diffs.push(
        `--- tests/toolsnaps/${tool.name}.json\n+++ tools/list\n${diffLines(saved, current)}`,
      );
    }
  }
  const names = new Set(tools.map((t) => t.name));
  const folder = new URL("../../toolsnaps/", import.meta.url);
  for (const entry of await Array.fromAsync(Deno.readDir(folder))) {
    const name = entry.name.replace(/\.json$/, "");
    if (names.has(name)) continue;
    if (UPDATE) await Deno.remove(new URL(entry.name, folder));
    else stale.push(`${name} (snapshot of no tool)`);
  }
  assert.deepEqual(
    stale,
    [],
    ["snapshots differ: review, then run `deno task generate`", ...diffs].join("\n\n"),
  );
});

Deno.test("toolsnaps: a stale snapshot's diff shows the changed lines with their context only", () => {
  const saved = ["{", '"a": 1,', '"b": 2,', '"c": 3,', '"d": 4,', '"e": 5,', '"f": 6', "}"];
  const current = [...saved];
  current[2] = '"b": 20,';
  current.splice(7, 0, '"g": 7');
  assert.equal(
    diffLines(saved.join("\n"), current.join("\n"), 1),
    [
      "@@ -2,+2 @@",
      '  "a": 1,',
      '- "b": 2,',
      '+ "b": 20,',
      '  "c": 3,',
      "@@ -7,+7 @@",
      '  "f": 6',
      '+ "g": 7',
      "  }",
    ].join("\n"),
  );
  assert.equal(diffLines("same\n", "same\n"), "");
});
