import assert from "node:assert/strict";
import { renderReadme } from "../scripts/docs.ts";
import { USAGE } from "../src/cli/flags.ts";
import { TOOLSETS } from "../src/tools/catalogue.ts";
import { diffLines } from "./support/line_diff.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

Deno.test("README's toolsets and tools tables are what `deno task docs` writes from the catalogue", () => {
  const expected = renderReadme(README);
  if (expected !== README) {
    assert.fail(`README.md is out of date: run \`deno task docs\`\n${diffLines(expected, README)}`);
  }
});

Deno.test("--help names every toolset of the catalogue, in order, and no other", () => {
  const entry = /--toolsets a,b +expose only these toolsets: ([\s\S]*?) \(safety/.exec(USAGE);
  assert.ok(entry, "--help has a --toolsets entry");
  const named = entry[1]!.split(/,\s+/).map((name) => name.trim());
  assert.deepEqual(named, TOOLSETS.map((set) => set.name));
  for (const line of USAGE.split("\n")) assert.ok(line.length <= 90, `short line: ${line}`);
});

Deno.test("the docs tables hold each write tool's reason for its access", () => {
  const tables = renderReadme(README);
  for (const set of TOOLSETS) {
    for (const tool of set.tools) {
      if (tool.access.level === "read-only") continue;
      const row = tables.split("\n").find((line) => line.startsWith(`| \`${tool.name}\` `));
      assert.ok(row?.includes(tool.access.why), `${tool.name}'s row gives its reason`);
    }
  }
});
