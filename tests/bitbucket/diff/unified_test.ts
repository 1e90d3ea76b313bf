import assert from "node:assert/strict";
import { cutAtLine, cutDiff, fileDiff, splitDiff } from "../../../src/bitbucket/diff/unified.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A diff in Bitbucket's `src://`/`dst://` form, built from sections so the cases can name them. */
const SECTIONS = {
  rename: [
    "diff --git src://docs/auth.md dst://docs/login.md",
    "rename from docs/auth.md",
    "rename to docs/login.md",
    "--- src://docs/auth.md",
    "+++ dst://docs/login.md",
    "@@ -1 +1 @@",
    "-# Authentication",
    "+# Logging in",
    "",
  ].join("\n"),
  added: [
    "diff --git src://src/new.ts dst://src/new.ts",
    "new file mode 100644",
    "--- /dev/null",
    "+++ dst://src/new.ts",
    "@@ -0,0 +1 @@",
    "+export const x = 1;",
    "",
  ].join("\n"),
  deleted: [
    "diff --git a/src/old.ts b/src/old.ts",
    "deleted file mode 100644",
    "--- a/src/old.ts",
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    "-export const y = 2;",
    "",
  ].join("\n"),
  // A rename with no content change has no ---/+++ lines: names come from the header.
  pureMove: "diff --git src://a/b.txt dst://c/d.txt\nsimilarity index 100%\n",
};
const WHOLE = Object.values(SECTIONS).join("");

const nameCases: { section: keyof typeof SECTIONS; file: string; oldFile?: string }[] = [
  { section: "rename", file: "docs/login.md", oldFile: "docs/auth.md" },
  { section: "added", file: "src/new.ts" },
  { section: "deleted", file: "src/old.ts" },
  { section: "pureMove", file: "c/d.txt", oldFile: "a/b.txt" },
];
for (const c of nameCases) {
  Deno.test(`splitDiff names a section: ${c.section}`, () => {
    const sections = splitDiff(WHOLE);
    const found = sections.find((s) => s.text === SECTIONS[c.section]);
    assert.ok(found, "the section is split out as it was written");
    assert.deepEqual({ file: found.file, oldFile: found.oldFile }, {
      file: c.file,
      oldFile: c.oldFile,
    });
  });
}

Deno.test("splitDiff: the sections put back together are the diff; an empty diff has none", () => {
  assert.equal(splitDiff(WHOLE).map((s) => s.text).join(""), WHOLE);
  assert.deepEqual(splitDiff(""), []);
});

const cutCases: { text: string; max: number; expect: number; why: string }[] = [
  { text: "ab\ncd\n", max: 10, expect: 6, why: "all of it when it fits" },
  { text: "ab\ncd\n", max: 5, expect: 3, why: "back to the last line end within the limit" },
  { text: "abcdef", max: 3, expect: 0, why: "nothing when no line ends within the limit" },
];
for (const c of cutCases) {
  Deno.test(`cutAtLine: ${c.why}`, () => {
    assert.equal(cutAtLine(bytes(c.text), c.max), c.expect);
  });
}

Deno.test("cutDiff: a whole diff within the limit comes back whole", () => {
  assert.deepEqual(cutDiff(bytes(WHOLE), true, WHOLE.length), { diff: WHOLE, truncated: false });
});

Deno.test("cutDiff: cut inside a file, the files shown whole are named and the cut one is not", () => {
  const limit = SECTIONS.rename.length + 20;
  const cut = cutDiff(bytes(WHOLE), true, limit);
  assert.equal(cut.truncated, true);
  assert.ok(cut.truncated && cut.diff.startsWith(SECTIONS.rename));
  assert.ok(cut.diff.length <= limit && cut.diff.endsWith("\n"));
  assert.deepEqual(cut.truncated && [...cut.wholeFiles], ["docs/login.md"]);
});

Deno.test("cutDiff: cut exactly at a file boundary, the last file shown counts as whole", () => {
  const limit = SECTIONS.rename.length + SECTIONS.added.length;
  const cut = cutDiff(bytes(WHOLE), true, limit);
  assert.deepEqual(cut.truncated && [...cut.wholeFiles], ["docs/login.md", "src/new.ts"]);
});

Deno.test("cutDiff: a read that stopped early is truncated even when it fits the limit", () => {
  const cut = cutDiff(bytes(SECTIONS.rename), false, 10_000);
  assert.equal(cut.truncated, true);
});

Deno.test("fileDiff: one file by its new or its old path; undefined for a file not in the diff", () => {
  const whole = { diff: SECTIONS.rename, truncated: false };
  assert.deepEqual(fileDiff(bytes(WHOLE), true, "docs/login.md", 10_000), whole);
  assert.deepEqual(fileDiff(bytes(WHOLE), true, "docs/auth.md", 10_000), whole);
  assert.equal(fileDiff(bytes(WHOLE), true, "README.md", 10_000), undefined);
});

Deno.test("fileDiff: a file longer than the limit is cut and named as cut short", () => {
  const one = fileDiff(bytes(WHOLE), true, "docs/login.md", 60);
  assert.equal(one?.truncated, true);
  assert.deepEqual(one?.omittedFiles, ["docs/login.md"]);
  assert.ok(SECTIONS.rename.startsWith(one!.diff) && one!.diff.length <= 60);
});

Deno.test("fileDiff: the last file of a read that stopped early may go on, so it counts as cut short", () => {
  const partial = bytes(SECTIONS.rename + SECTIONS.added);
  assert.equal(fileDiff(partial, false, "src/new.ts", 10_000)?.truncated, true);
  assert.equal(fileDiff(partial, false, "docs/login.md", 10_000)?.truncated, false);
});
