/**
 * docs/bitbucket-versions.md tells the version table as it is: one row per
 * feature of src/bitbucket/features.ts, with its version and toolset, and the
 * oldest supported version the README states too.
 */
import assert from "node:assert/strict";
import { FEATURES, OLDEST_SUPPORTED } from "../../src/bitbucket/features.ts";
import { readRepoFile, tableRows } from "./markdown.ts";

Deno.test("docs/bitbucket-versions.md has a row for every gated feature, with its version and toolset", () => {
  const rows = tableRows(readRepoFile("docs/bitbucket-versions.md"));
  const shown = rows.map((cells) => cells.slice(0, 3).join(" | "));
  const table = Object.values(FEATURES).map((f) => [f.what, f.since, f.toolset].join(" | "));
  assert.deepEqual(shown, table);
});

Deno.test("the README and the versions page state the oldest supported version", () => {
  for (const file of ["README.md", "docs/bitbucket-versions.md"]) {
    assert.ok(
      readRepoFile(file).includes(`Bitbucket Data Center ${OLDEST_SUPPORTED} or later`) ||
        readRepoFile(file).includes(`Bitbucket Data Center **${OLDEST_SUPPORTED} or later**`),
      file,
    );
  }
});
