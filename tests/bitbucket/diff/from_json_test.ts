/**
 * src/bitbucket/diff/from_json.ts: Bitbucket's JSON diff written as unified text, for
 * the kinds of file a diff holds (changed, added, deleted, moved, binary) and
 * a diff the server cut short.
 */
import assert from "node:assert/strict";
import { JsonDiff } from "../../../src/bitbucket/entities/diff.ts";
import { unifiedText } from "../../../src/bitbucket/diff/from_json.ts";

const path = (p: string) => ({ components: p.split("/"), name: p.split("/").at(-1) });
const hunk = {
  context: "function f() {",
  sourceLine: 3,
  sourceSpan: 2,
  destinationLine: 3,
  destinationSpan: 2,
  segments: [
    { type: "CONTEXT", lines: [{ line: "a", source: 3, destination: 3 }] },
    { type: "REMOVED", lines: [{ line: "b", source: 4, destination: 4 }] },
    { type: "ADDED", lines: [{ line: "c", source: 5, destination: 4 }] },
  ],
};

const cases: { why: string; file: Record<string, unknown>; text: string }[] = [
  {
    why: "a changed file: its hunks, each line with its prefix",
    file: { source: path("src/a.ts"), destination: path("src/a.ts"), hunks: [hunk] },
    text:
      "diff --git src://src/a.ts dst://src/a.ts\n--- src://src/a.ts\n+++ dst://src/a.ts\n@@ -3,2 +3,2 @@ function f() {\n a\n-b\n+c\n",
  },
  {
    why: "an added file, from /dev/null",
    file: {
      source: null,
      destination: path("n.md"),
      hunks: [{ ...hunk, context: undefined, segments: [] }],
    },
    text: "diff --git src://n.md dst://n.md\n--- /dev/null\n+++ dst://n.md\n@@ -3,2 +3,2 @@\n",
  },
  {
    why: "a deleted file, to /dev/null",
    file: { source: path("old.md"), destination: null, hunks: [{ ...hunk, segments: [] }] },
    text:
      "diff --git src://old.md dst://old.md\n--- src://old.md\n+++ /dev/null\n@@ -3,2 +3,2 @@ function f() {\n",
  },
  {
    why: "a file moved without changes: its header alone",
    file: { source: path("docs/auth.md"), destination: path("docs/login.md") },
    text: "diff --git src://docs/auth.md dst://docs/login.md\n",
  },
  {
    why: "a binary file",
    file: { source: null, destination: path("logo.png"), binary: true },
    text:
      "diff --git src://logo.png dst://logo.png\nBinary files /dev/null and dst://logo.png differ\n",
  },
];
for (const c of cases) {
  Deno.test(`unifiedText writes ${c.why}`, () => {
    const diff = JsonDiff.parse({ diffs: [c.file] });
    assert.deepEqual(unifiedText(diff), { text: c.text, complete: true });
  });
}

Deno.test("unifiedText says a diff the server cut short is incomplete", () => {
  const diff = JsonDiff.parse({ diffs: [], truncated: true });
  assert.deepEqual(unifiedText(diff), { text: "", complete: false });
});
