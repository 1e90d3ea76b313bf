/**
 * fixtures/README.md names, for every file under fixtures/, the public
 * recording or documented example its shape follows. A fixture without a row
 * has an unchecked shape; a row naming no file is stale. The first cell of a
 * row names its files, backquoted and relative to fixtures/; a row may name
 * several.
 */
import assert from "node:assert/strict";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const README = "README.md";

/** The files the table rows of a fixtures README name, in order: the backquoted names of each row's first cell. */
export function namedFiles(markdown: string): string[] {
  const names: string[] = [];
  for (const line of markdown.split("\n")) {
    const row = line.trim();
    if (!row.startsWith("|")) continue;
    const first = row.slice(1).split("|")[0] ?? "";
    for (const match of first.matchAll(/`([^`]+)`/g)) names.push(match[1]!.trim());
  }
  return names;
}

/** The files under `dir`, recursively, as `/`-separated paths relative to it. */
async function filesUnder(dir: URL, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(prefix, dir))) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) files.push(...await filesUnder(dir, `${path}/`));
    else files.push(path);
  }
  return files.sort();
}

/** Files without a row, and rows naming files that do not exist. */
export function mismatches(
  named: string[],
  present: string[],
): { unlisted: string[]; stale: string[] } {
  const listed = new Set(named);
  const exists = new Set(present);
  return {
    unlisted: present.filter((f) => !listed.has(f)),
    stale: [...listed].filter((f) => !exists.has(f)).sort(),
  };
}

Deno.test("fixtures/README.md has a row for every fixture and names no missing file", async () => {
  const present = (await filesUnder(FIXTURES)).filter((f) => f !== README);
  const named = namedFiles(await Deno.readTextFile(new URL(README, FIXTURES)));
  const { unlisted, stale } = mismatches(named, present);
  assert.deepEqual(
    unlisted,
    [],
    `fixtures without a row in fixtures/README.md (add one naming the recording or documented example each follows): ${
      unlisted.join(", ")
    }`,
  );
  assert.deepEqual(
    stale,
    [],
    `fixtures/README.md rows name files that are not under fixtures/: ${stale.join(", ")}`,
  );
});

Deno.test("the README check reads every backquoted name of a first cell and only those", () => {
  const markdown = [
    "Prose with `a/in-prose.json`, not a row.",
    "",
    "| file | shape follows |",
    "| ---- | ------------- |",
    "| `a/one.json`, `a/two.json` | as `a/elsewhere.json` |",
    "| `b/three.diff` | the spec |",
  ].join("\n");
  assert.deepEqual(namedFiles(markdown), ["a/one.json", "a/two.json", "b/three.diff"]);
});

Deno.test("the README check reports unlisted and stale files by name", () => {
  const cases = [
    { named: ["a.json", "b.json"], present: ["a.json", "b.json"], unlisted: [], stale: [] },
    { named: ["a.json"], present: ["a.json", "b.json"], unlisted: ["b.json"], stale: [] },
    { named: ["a.json", "gone.json"], present: ["a.json"], unlisted: [], stale: ["gone.json"] },
    { named: [], present: ["x/y.txt"], unlisted: ["x/y.txt"], stale: [] },
  ];
  for (const c of cases) {
    assert.deepEqual(mismatches(c.named, c.present), { unlisted: c.unlisted, stale: c.stale });
  }
});
