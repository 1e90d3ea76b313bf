import assert from "node:assert/strict";
import { CATALOGUE, toolsetOf } from "../src/tools/catalogue.ts";
import { USAGE } from "../src/cli/flags.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

Deno.test("README's tool table lists every tool, in catalogue order, with its access level and toolset", () => {
  const rows = [
    ...README.matchAll(
      /^\| `([a-z_]+)` +\| (read-only|safe write|unsafe write) +\| ([a-z_]+) +\|/gm,
    ),
  ].map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(rows, CATALOGUE.map((t) => [t.name, t.access, toolsetOf(t)]));
});

Deno.test("README documents every flag and environment variable the CLI knows", () => {
  for (const flag of new Set(USAGE.match(/--[a-z-]+/g))) {
    assert.ok(README.includes(`\`${flag}`), `README documents ${flag}`);
  }
  for (const name of ["BITBUCKET_URL", "BITBUCKET_TOKEN", "BITBUCKET_USERNAME"]) {
    assert.ok(README.includes(`\`${name}\``), `README documents ${name}`);
  }
});

Deno.test("README's test command is the one CI runs", () => {
  const ci = Deno.readTextFileSync(new URL("../.ci/run", import.meta.url));
  assert.ok(README.includes("deno task test"));
  assert.ok(ci.includes("deno task test"));
});
