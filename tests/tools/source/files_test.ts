import assert from "node:assert/strict";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";
import { BitbucketError } from "../../../src/bitbucket/transport/errors.ts";
import { decodeText } from "../../../src/bitbucket/files.ts";
import { APP_TS, APP_TS_BYTES, HEAD, source } from "../../../testing/cases/source.ts";
import { startFixtureBitbucket } from "../../../testing/fixture_bitbucket.ts";
import { connect, firstText, TEST_TOKEN } from "../../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const WEB = { project: "PROJ", repo: "web" };

type FileOut = {
  file: {
    path: string;
    ref?: string;
    commitId: string;
    content: string;
    truncated: boolean;
    size?: number;
    totalLines?: number;
  };
};
/** The request that resolves a ref (`until` absent: the default branch) to its head commit. */
const headOf = (until?: string) =>
  [`${REPO}/commits`, until === undefined ? { limit: "1" } : { until, limit: "1" }] as const;
/** The fixture route answering any such request with HEAD. */
const HEAD_ROUTE = source.routes[0]!;

Deno.test("list_files lists a whole repository at the default branch", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({ name: "list_files", arguments: WEB });
  assert.deepEqual(result.structuredContent, {
    files: [".gitignore", "README.md", "src/app.ts", "src/lib/format.ts"],
    isLastPage: true,
  });
  assert.deepEqual(
    h.fixture.requests[0]?.query,
    { start: "0", limit: "25" },
    "no at: default branch",
  );
});

Deno.test("list_files under a directory gives paths from the repository root, page by page", async () => {
  await using h = await connect({ routes: source.routes });
  const first = await h.client.callTool({
    name: "list_files",
    arguments: { ...WEB, path: "src", at: "main", limit: 2 },
  });
  assert.deepEqual(first.structuredContent, {
    files: ["src/app.ts", "src/lib/format.ts"],
    isLastPage: false,
    nextPageStart: 2,
  });
  const rest = await h.client.callTool({
    name: "list_files",
    arguments: { ...WEB, path: "src", at: "main", start: 2 },
  });
  assert.deepEqual(rest.structuredContent, { files: ["src/lib/parse.ts"], isLastPage: true });
  assert.deepEqual(h.fixture.requests.map((r) => r.query.at), ["main", "main"]);
});

const encoded = [
  { path: "docs/release notes", segments: "docs/release%20notes" },
  { path: "src/a#b?c=d.ts", segments: "src/a%23b%3Fc%3Dd.ts" },
  { path: "i18n/überblick/%2e%2e.txt", segments: "i18n/%C3%BCberblick/%252e%252e.txt" },
];
for (const c of encoded) {
  Deno.test(`a path of ${JSON.stringify(c.path)} reaches Bitbucket as ${c.segments}, segment by segment`, async () => {
    await using h = await connect({
      routes: [
        {
          method: "GET",
          path: `${REPO}/files/${c.segments}`,
          body: { size: 1, limit: 25, isLastPage: true, values: ["x.txt"], start: 0 },
        },
        {
          method: "GET",
          path: `${REPO}/raw/${c.segments}`,
          body: "text\n",
          headers: { "content-type": "text/plain" },
        },
        HEAD_ROUTE,
      ],
    });
    const list = await h.client.callTool({
      name: "list_files",
      arguments: { ...WEB, path: c.path },
    });
    const read = await h.client.callTool({
      name: "get_file_content",
      arguments: { ...WEB, path: c.path },
    });
    assert.notEqual(list.isError, true, firstText(list));
    assert.notEqual(read.isError, true, firstText(read));
    assert.deepEqual(h.fixture.requests.map((r) => r.path), [
      `${REPO}/files/${c.segments}`,
      `${REPO}/commits`,
      `${REPO}/raw/${c.segments}`,
    ]);
    assert.deepEqual((list.structuredContent as { files: string[] }).files, [`${c.path}/x.txt`]);
  });
}

/** A file whose name hides a right-to-left override, a zero-width space and a Unicode tag ("A"). */
const HIDDEN_FILE = "\u202Egnp.exe\u200B\u{E0041}.txt";
/** How list_files shows it, and how a model passes it back. */
const SHOWN_FILE = "\\u{202E}gnp.exe\\u{200B}\\u{E0041}.txt";

Deno.test("a file listed with hidden characters in its name is shown escaped and read back by that name", async () => {
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/files/docs`,
        body: { size: 1, limit: 25, isLastPage: true, values: [HIDDEN_FILE], start: 0 },
      },
      {
        method: "GET",
        path: `${REPO}/raw/docs/${encodeURIComponent(HIDDEN_FILE)}`,
        body: "text\n",
        headers: { "content-type": "text/plain" },
      },
      HEAD_ROUTE,
    ],
  });
  const list = await h.client.callTool({ name: "list_files", arguments: { ...WEB, path: "docs" } });
  const [shown] = (list.structuredContent as { files: string[] }).files;
  assert.equal(shown, `docs/${SHOWN_FILE}`);
  assert.doesNotMatch(firstText(list), /[\u202E\u200B\u{E0041}]/u);
  const read = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: shown },
  });
  assert.notEqual(read.isError, true, firstText(read));
  assert.deepEqual(h.fixture.unmatched, []);
  assert.equal(
    h.fixture.requests.at(-1)?.path,
    `${REPO}/raw/docs/%E2%80%AEgnp.exe%E2%80%8B%F3%A0%81%81.txt`,
  );
  assert.equal((read.structuredContent as FileOut).file.path, `docs/${SHOWN_FILE}`);
});

const unsafePaths = [
  "..",
  ".",
  "src/../../admin",
  "../README.md",
  "src/./app.ts",
  "src//app.ts",
  "/src/app.ts",
  "src/",
];
for (const tool of ["list_files", "get_file_content"]) {
  Deno.test(`${tool} refuses a path with an empty, . or .. segment before any request`, async () => {
    await using h = await connect({ routes: source.routes });
    for (const path of unsafePaths) {
      const result = await h.client.callTool({ name: tool, arguments: { ...WEB, path } });
      assert.equal(result.isError, true, `${path} refused`);
      assert.match(
        firstText(result),
        /path: must be 1-4096 characters, relative to the repository root, with no empty, '\.' or '\.\.' segments/,
      );
    }
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("get_file_content reads a file whole at the commit its ref names now, with its size and lines", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts", at: "main" },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, {
    file: {
      path: "src/app.ts",
      ref: "main",
      commitId: HEAD,
      content: APP_TS,
      truncated: false,
      size: APP_TS_BYTES,
      totalLines: 6,
    },
  });
  assert.equal(firstText(result), `${APP_TS}\n[commit ${HEAD}]`, "the file, then the commit read");
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    headOf("main"),
    [`${REPO}/raw/src/app.ts`, { at: HEAD }],
  ]);
  assert.equal(h.fixture.requests[1]?.headers.accept, "*/*", "raw content is accepted in any type");
});

Deno.test("get_file_content without at reads the default branch's head and says so by leaving ref out", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts" },
  });
  const { file } = result.structuredContent as FileOut;
  assert.ok(!("ref" in file));
  assert.equal(file.commitId, HEAD);
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    headOf(),
    [`${REPO}/raw/src/app.ts`, { at: HEAD }],
  ]);
});

Deno.test("get_file_content at a full commit id reads there without resolving it", async () => {
  await using h = await connect({ routes: source.routes });
  const commit = "1f0e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6";
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts", at: commit },
  });
  assert.equal((result.structuredContent as FileOut).file.commitId, commit);
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    [`${REPO}/raw/src/app.ts`, { at: commit }],
  ]);
});

Deno.test("get_file_content of a ref without commits says the repository is empty", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/commits`,
      body: { size: 0, limit: 1, isLastPage: true, values: [], start: 0 },
    }],
  });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts" },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot read "src\/app\.ts" at the default branch in PROJ\/web: the default branch has no commits \(hint: the repository is empty/,
  );
  assert.equal(h.fixture.requests.length, 1);
});

Deno.test("get_file_content cuts a file over max_bytes, says it is truncated and gives its full size", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts", at: "main", max_bytes: 40 },
  });
  const { file } = result.structuredContent as FileOut;
  assert.equal(file.content, APP_TS.slice(0, 40));
  assert.equal(file.truncated, true);
  assert.equal(file.size, APP_TS_BYTES);
  assert.ok(!("totalLines" in file), "lines are not counted in a file not read to its end");
  assert.equal(
    firstText(result),
    `${
      APP_TS.slice(0, 40)
    }\n[truncated: 40 of ${APP_TS_BYTES} bytes shown; raise max_bytes to read more, or read lines with start_line; commit ${HEAD}]`,
  );
  assert.deepEqual(h.fixture.requests.map((r) => [r.path, r.query]), [
    headOf("main"),
    [`${REPO}/raw/src/app.ts`, { at: HEAD }],
    [`${REPO}/browse/src/app.ts`, { at: HEAD, size: "true" }],
  ]);
});

Deno.test("get_file_content never splits a character at the cut", async () => {
  await using h = await connect({ routes: source.routes });
  const before = APP_TS.slice(0, APP_TS.indexOf("ü"));
  const cut = new TextEncoder().encode(before).length + 1; // the first of ü's two bytes
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts", max_bytes: cut },
  });
  const { file } = result.structuredContent as FileOut;
  assert.equal(file.content, before);
  assert.equal(file.truncated, true);
});

Deno.test("get_file_content cuts at 100000 bytes when max_bytes is not given", async () => {
  const big = "x".repeat(149_999) + "\n";
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/raw/dist/bundle.js`,
        body: big,
        headers: { "content-type": "text/plain" },
      },
      { method: "GET", path: `${REPO}/browse/dist/bundle.js`, body: { size: big.length } },
      HEAD_ROUTE,
    ],
  });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "dist/bundle.js" },
  });
  const { file } = result.structuredContent as FileOut;
  assert.equal(file.content.length, 100_000);
  assert.equal(file.truncated, true);
  assert.equal(file.size, 150_000);
});

Deno.test("get_file_content still returns the cut text when Bitbucket cannot tell the size", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/browse/src/app.ts`,
      status: 500,
      fixture: "errors/server-error.json",
    }, ...source.routes],
  });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/app.ts", max_bytes: 10 },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const { file } = result.structuredContent as FileOut;
  assert.equal(file.content, APP_TS.slice(0, 10));
  assert.equal(file.truncated, true);
  assert.ok(!("size" in file));
  assert.match(firstText(result), /\[truncated: 10 bytes shown;/);
});

Deno.test("get_file_content of a missing path is an error naming the path and the ref", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "src/nope.ts", at: "main" },
  });
  assert.equal(result.isError, true);
  const text = firstText(result);
  assert.match(
    text,
    /^Cannot read "src\/nope\.ts" at "main" in PROJ\/web: GET .*raw\/src\/nope\.ts\?at=8d51122def5632836d1cb1026e879069e10a1e13 failed: 404/,
  );
  assert.match(text, /does not exist at revision/);
  assert.match(text, /hint:/);
});

Deno.test("list_files of a missing directory is an error naming the path and the ref", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: `${REPO}/files/gone`,
      status: 404,
      fixture: "errors/path-not-found.json",
    }, ...source.routes],
  });
  const result = await h.client.callTool({
    name: "list_files",
    arguments: { ...WEB, path: "gone" },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot list files under "gone" at the default branch in PROJ\/web: .*404/,
  );
});

Deno.test("get_file_content of a binary file is a clear error, not bytes", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "get_file_content",
    arguments: { ...WEB, path: "assets/logo.png" },
  });
  assert.equal(result.isError, true);
  const text = firstText(result);
  assert.match(
    text,
    /^Cannot read "assets\/logo\.png" at the default branch in PROJ\/web: it is a binary file/,
  );
  assert.ok(!text.includes("PNG"), "no bytes of the file in the answer");
  assert.equal(result.structuredContent, undefined);
});

const decoded: [string, number[], boolean, string | undefined][] = [
  ["UTF-8 text", [0x63, 0x61, 0x66, 0xc3, 0xa9], true, "café"],
  ["a character cut at max_bytes is left out", [0x63, 0x61, 0x66, 0xc3], false, "caf"],
  ["a file ending mid-character is not UTF-8", [0x63, 0x61, 0x66, 0xc3], true, undefined],
  ["Latin-1 text is not UTF-8", [0x63, 0x61, 0x66, 0xe9, 0x0a], true, undefined],
  ["a NUL byte marks a binary file", [0x50, 0x4b, 0x03, 0x04, 0x00, 0x00], true, undefined],
];
for (const [what, bytes, complete, text] of decoded) {
  Deno.test(`decodeText: ${what}`, () => {
    assert.equal(decodeText(new Uint8Array(bytes), complete), text);
  });
}

Deno.test("client.getBytes reads no more than asked and says whether the body ended", async () => {
  const body = "0123456789".repeat(10_000);
  const fixture = startFixtureBitbucket([
    { method: "GET", path: "/api/latest/raw", body, headers: { "content-type": "text/plain" } },
    { method: "GET", path: "/api/latest/gone", status: 404, fixture: "errors/path-not-found.json" },
  ]);
  try {
    const client = new BitbucketClient({
      baseUrl: new URL(fixture.url),
      token: TEST_TOKEN,
      timeoutMs: 2000,
    });
    const cut = await client.getBytes({
      path: "/api/latest/raw",
      maxBytes: 25,
      query: { at: "main" },
    });
    assert.equal(new TextDecoder().decode(cut.bytes), body.slice(0, 25));
    assert.equal(cut.complete, false);
    const whole = await client.getBytes({ path: "/api/latest/raw", maxBytes: body.length });
    assert.equal(whole.bytes.length, body.length);
    assert.equal(whole.complete, true, "a body of exactly maxBytes is complete");
    const error = await client.getBytes({ path: "/api/latest/gone", maxBytes: 10 }).catch((e) => e);
    assert.ok(error instanceof BitbucketError);
    assert.equal(error.kind, "not_found");
    assert.match(
      error.message,
      /^GET \/api\/latest\/gone failed: 404 Not Found: The path "src\/nope\.ts" does not exist/,
    );
    assert.equal(fixture.requests[0]?.query.at, "main");
    assert.equal(fixture.requests[0]?.headers.authorization, `Bearer ${TEST_TOKEN}`);
  } finally {
    await fixture.close();
  }
});
