/**
 * Windows of lines (src/bitbucket/file_window.ts): splitting and cutting,
 * numbering (src/tools/kit/shapes/file.ts), and get_file_content's windowed
 * reads built on them.
 */
import assert from "node:assert/strict";
import { lineWindow, splitLines } from "../../src/bitbucket/file_window.ts";
import { numberedLines } from "../../src/tools/kit/shapes/file.ts";
import { APP_TS, HEAD, source } from "../../testing/cases/source.ts";
import { connect, firstText } from "../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const APP = { project: "PROJ", repo: "web", path: "src/app.ts" };
const APP_LINES = splitLines(APP_TS);

type FileOut = {
  file: {
    content: string;
    commitId: string;
    truncated: boolean;
    size?: number;
    totalLines?: number;
    startLine?: number;
    endLine?: number;
  };
};

const splits: [string, string, string[]][] = [
  ["lines keep their terminators", "a\nb\n", ["a\n", "b\n"]],
  ["a last line without a newline is a line", "a\nb", ["a\n", "b"]],
  ["an empty file has no lines", "", []],
  ["empty lines count", "\n\nx\n", ["\n", "\n", "x\n"]],
  ["CRLF stays inside the line", "a\r\nb\r\n", ["a\r\n", "b\r\n"]],
];
for (const [what, text, lines] of splits) {
  Deno.test(`splitLines: ${what}`, () => assert.deepEqual(splitLines(text), lines));
}

Deno.test("lineWindow: a window is the exact text of its lines", () => {
  assert.deepEqual(lineWindow(["a\n", "b\n", "c\n", "d"], 2, 2, 100), {
    content: "b\nc\n",
    startLine: 2,
    endLine: 3,
    cut: false,
  });
  assert.deepEqual(lineWindow(["a\n", "b\n", "c\n", "d"], 3, undefined, 100), {
    content: "c\nd",
    startLine: 3,
    endLine: 4,
    cut: false,
  });
  assert.deepEqual(
    lineWindow(["a\n", "b\n"], 2, 50, 100).endLine,
    2,
    "a count past the end stops there",
  );
});

Deno.test("lineWindow: max_bytes cuts the window inside a line, never inside a character", () => {
  assert.deepEqual(lineWindow(["ab\n", "cdef\n"], 1, undefined, 5), {
    content: "ab\ncd",
    startLine: 1,
    endLine: 2,
    cut: true,
  });
  // "ü" is two bytes: a cut after its first byte leaves it out.
  assert.deepEqual(lineWindow(["ab\n", "üx\n"], 1, undefined, 4), {
    content: "ab\n",
    startLine: 1,
    endLine: 1,
    cut: true,
  });
  assert.deepEqual(lineWindow(["ab\n"], 1, undefined, 3).cut, false, "exactly max_bytes is whole");
});

Deno.test("numberedLines: one numbered line each, without terminators or carriage returns", () => {
  assert.equal(numberedLines("x\r\n\ny", 9), "9\tx\n10\t\n11\ty");
});

Deno.test("get_file_content with start_line and line_count gives those lines, numbered in the text block", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...APP, start_line: 3, line_count: 2 },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const { file } = result.structuredContent as FileOut;
  assert.equal(file.content, APP_LINES[2]! + APP_LINES[3]!);
  assert.deepEqual(
    [file.startLine, file.endLine, file.totalLines, file.truncated, file.commitId],
    [3, 4, 6, false, HEAD],
  );
  assert.equal(
    firstText(result),
    [
      "3\t// Greets the visitor by name; the footer credits the Müller family.",
      "4\texport function greet(name: string): string {",
      `[lines 3-4 of 6 at commit ${HEAD}]`,
    ].join("\n"),
  );
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    [`${REPO}/commits`, { limit: "1" }],
    [`${REPO}/raw/src/app.ts`, { at: HEAD }],
  ]);
});

const partial = [
  { args: { start_line: 5 }, lines: [5, 6], what: "start_line alone reads to the end" },
  { args: { line_count: 2 }, lines: [1, 2], what: "line_count alone reads from the first line" },
  {
    args: { start_line: 6, line_count: 10 },
    lines: [6, 6],
    what: "a count past the end stops there",
  },
];
for (const c of partial) {
  Deno.test(`get_file_content: ${c.what}`, async () => {
    await using h = await connect({ routes: source.routes });
    const result = await h.client.callTool({
      name: "get_file_content",
      arguments: { ...APP, ...c.args },
    });
    const { file } = result.structuredContent as FileOut;
    assert.deepEqual([file.startLine, file.endLine], c.lines);
    assert.equal(file.content, APP_LINES.slice(c.lines[0]! - 1, c.lines[1]).join(""));
    assert.equal(file.truncated, false);
  });
}

Deno.test("get_file_content with start_line past the last line says how many lines there are", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...APP, start_line: 7 },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot read "src\/app\.ts" at the default branch in PROJ\/web: it has 6 lines, so none starts at line 7 \(hint: start_line at most 6\)/,
  );
});

Deno.test("get_file_content cuts a window at max_bytes and says where to read on", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...APP, start_line: 1, max_bytes: 50 },
  });
  const { file } = result.structuredContent as FileOut;
  assert.equal(file.content, APP_TS.slice(0, 50));
  assert.deepEqual([file.startLine, file.endLine, file.truncated], [1, 3, true]);
  assert.match(
    firstText(result),
    new RegExp(
      `\\n\\[lines 1-3 of 6 at commit ${HEAD}; cut at max_bytes, raise it or read on from endLine\\]$`,
    ),
  );
});

Deno.test("get_file_content finds a window in the first 1000000 bytes of a larger file", async () => {
  const big = "x\n".repeat(500_050); // 1,000,100 bytes
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/raw/big.txt`,
        body: big,
        headers: { "content-type": "text/plain" },
      },
      { method: "GET", path: `${REPO}/browse/big.txt`, body: { size: big.length } },
      ...source.routes,
    ],
  });
  const near = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...APP, path: "big.txt", start_line: 1000, line_count: 2 },
  });
  const { file } = near.structuredContent as FileOut;
  assert.deepEqual(
    [file.content, file.startLine, file.endLine, file.truncated, file.size],
    ["x\nx\n", 1000, 1001, false, 1_000_100],
  );
  assert.ok(!("totalLines" in file), "the file was not read to its end");
  const far = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...APP, path: "big.txt", start_line: 500_001 },
  });
  assert.equal(far.isError, true);
  assert.match(
    firstText(far),
    /it has more than 1000000 bytes, and line 500001 lies beyond the first 500000 lines/,
  );
  const tail = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...APP, path: "big.txt", start_line: 499_999 },
  });
  const cut = (tail.structuredContent as FileOut).file;
  assert.deepEqual(
    [cut.endLine, cut.truncated],
    [500_000, true],
    "lines past the read part are cut",
  );
});
