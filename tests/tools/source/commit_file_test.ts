import assert from "node:assert/strict";
import { MAX_FILE_BYTES } from "../../../src/tools/source/commit_file.ts";
import { COMMITTED, HEAD, source } from "../../../testing/cases/source.ts";
import { connect, firstText } from "../../../testing/harness.ts";

const REPO = "/api/latest/projects/PROJ/repos/web";
const EDIT = `${REPO}/browse/src/app.ts`;
const FIX = {
  project: "PROJ",
  repo: "web",
  path: "src/app.ts",
  content: "export const greeting = 'Hello, world!';\n",
  message: "Greet visitors with a comma",
};

Deno.test("commit_file commits onto a new branch from main: the default branch checked, then the multipart edit", async () => {
  await using h = await connect({ routes: source.routes });
  const result = await h.client.callTool({
    name: "commit_file",
    arguments: { ...FIX, branch: "fix/greeting", source_branch: "main", source_commit_id: HEAD },
  });
  assert.notEqual(result.isError, true, firstText(result));
  const { commit } = result.structuredContent as {
    commit: { id: string; message: string; parents: { id: string }[] };
  };
  assert.equal(commit.id, COMMITTED);
  assert.equal(commit.message, FIX.message);
  assert.deepEqual(commit.parents.map((p) => p.id), [HEAD]);
  const [lookup, edit] = h.fixture.requests;
  assert.deepEqual([lookup?.method, lookup?.path], ["GET", `${REPO}/default-branch`]);
  assert.deepEqual([edit?.method, edit?.path], ["PUT", EDIT]);
  assert.deepEqual(edit?.form, {
    content: FIX.content,
    message: FIX.message,
    branch: "fix/greeting",
    sourceCommitId: HEAD,
    sourceBranch: "main",
  });
  assert.match(edit?.headers["content-type"] ?? "", /^multipart\/form-data; boundary=/);
  assert.equal(edit?.headers["x-atlassian-token"], "no-check");
  assert.equal(h.fixture.requests.length, 2);
});

/** Fields whose bytes must reach Bitbucket as given (multipart encoding would make LF into CRLF). */
const exact: [string, "content" | "message", string][] = [
  [
    "the content's line endings and non-ASCII text",
    "content",
    "unix\nwindows\r\nno newline at the end: Müller 😀",
  ],
  ["a multi-line message's line feeds", "message", "Fix the greeting\n\nThe old one was rude."],
];
for (const [what, field, value] of exact) {
  Deno.test(`commit_file sends ${what} byte for byte`, async () => {
    await using h = await connect({ routes: source.routes });
    const result = await h.client.callTool({
      name: "commit_file",
      arguments: { ...FIX, [field]: value, branch: "fix/greeting" },
    });
    assert.notEqual(result.isError, true, firstText(result));
    const edit = h.fixture.requests.find((r) => r.method === "PUT");
    assert.equal(edit?.form?.[field], value);
    assert.ok(!("sourceCommitId" in (edit?.form ?? {})), "a new file has no source commit");
    assert.ok(!("sourceBranch" in (edit?.form ?? {})));
  });
}

for (const branch of ["main", "refs/heads/main"]) {
  Deno.test(`commit_file onto the default branch (${branch}) asks the person first, naming the branch; a yes commits`, async () => {
    const asked: string[] = [];
    await using h = await connect({
      routes: source.routes,
      elicit: (request) => {
        asked.push((request.params as { message: string }).message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    const result = await h.client.callTool({
      name: "commit_file",
      arguments: { ...FIX, branch, source_commit_id: HEAD },
    });
    assert.notEqual(result.isError, true, firstText(result));
    assert.deepEqual(asked, [
      `Commit "src/app.ts" straight onto "main", the default branch of PROJ/web, without a pull request's review`,
    ]);
    assert.deepEqual(h.fixture.requests.map((r) => `${r.method} ${r.path}`), [
      `GET ${REPO}/default-branch`,
      `PUT ${EDIT}`,
    ]);
  });
}

Deno.test("commit_file onto the default branch, declined, commits nothing", async () => {
  await using h = await connect({ routes: source.routes, elicit: () => ({ action: "decline" }) });
  const result = await h.client.callTool({
    name: "commit_file",
    arguments: { ...FIX, branch: "main", source_commit_id: HEAD },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /the person declined/);
  assert.ok(h.fixture.requests.every((r) => r.method === "GET"));
});

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`commit_file onto the default branch from a client that cannot ask (${era}) is refused, naming --yolo; nothing is committed`, async () => {
    await using h = await connect({ routes: source.routes, era });
    const text = await h.client.callTool({
      name: "commit_file",
      arguments: { ...FIX, branch: "main", source_commit_id: HEAD },
    }).then((result) => {
      assert.equal(result.isError, true);
      return firstText(result);
    }, (error: Error) => error.message);
    assert.match(text, /cannot ask them.*--yolo/);
    assert.deepEqual(h.fixture.requests.map((r) => `${r.method} ${r.path}`), [
      `GET ${REPO}/default-branch`,
    ]);
  });
}

Deno.test("commit_file onto the default branch goes ahead under --yolo, without looking the default branch up", async () => {
  await using h = await connect({ routes: source.routes, selection: { yolo: true } });
  const result = await h.client.callTool({
    name: "commit_file",
    arguments: { ...FIX, branch: "main", source_commit_id: HEAD },
  });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(h.fixture.requests.map((r) => `${r.method} ${r.path}`), [`PUT ${EDIT}`]);
  assert.equal(h.fixture.requests[0]?.form?.branch, "main");
});

Deno.test("commit_file of a file changed since source_commit_id is a 409 that says to read it again", async () => {
  await using h = await connect({
    routes: [
      { method: "PUT", path: EDIT, status: 409, fixture: "errors/file-out-of-date.json" },
      ...source.routes,
    ],
  });
  const result = await h.client.callTool({
    name: "commit_file",
    arguments: { ...FIX, branch: "fix/greeting", source_commit_id: HEAD },
  });
  assert.equal(result.isError, true);
  const text = firstText(result);
  assert.match(
    text,
    /^Cannot commit "src\/app\.ts" to "fix\/greeting" in PROJ\/web: PUT \/api\/latest\/projects\/PROJ\/repos\/web\/browse\/src\/app\.ts failed: 409 Conflict: The file 'src\/app\.ts' has changed since commit/,
  );
  assert.match(
    text,
    /\(hint: the file changed on the branch after source_commit_id, .* read it again with get_file_content, apply the change to that text, and commit with its commitId\)$/,
  );
  assert.equal(h.fixture.requests.filter((r) => r.method === "PUT").length, 1, "never retried");
});

Deno.test("commit_file reports a default-branch lookup that fails, and commits nothing", async () => {
  await using h = await connect({
    routes: [
      {
        method: "GET",
        path: `${REPO}/default-branch`,
        status: 403,
        fixture: "errors/forbidden.json",
      },
      ...source.routes,
    ],
  });
  const result = await h.client.callTool({
    name: "commit_file",
    arguments: { ...FIX, branch: "fix/greeting" },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /^Cannot commit "src\/app\.ts" to "fix\/greeting" in PROJ\/web: Cannot tell the repository's default branch: GET .* 403/,
  );
  assert.ok(h.fixture.requests.every((r) => r.method === "GET"));
});

const refused = [
  {
    what: "content over 1 MiB of UTF-8 (fewer characters than that)",
    content: "ü".repeat(MAX_FILE_BYTES / 2 + 1),
    message: /content: must be at most 1048576 bytes of UTF-8/,
  },
  {
    what: "content with a NUL character",
    content: "PK\u0003\u0004\u0000",
    message: /content: must be text: no NUL characters/,
  },
  { what: "empty content", content: "", message: /content/ },
];
for (const c of refused) {
  Deno.test(`commit_file refuses ${c.what} before any request`, async () => {
    await using h = await connect({ routes: source.routes, selection: { yolo: true } });
    const result = await h.client.callTool({
      name: "commit_file",
      arguments: { ...FIX, content: c.content, branch: "fix/greeting" },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), c.message);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("commit_file refuses a path with a dot segment, as get_file_content does", async () => {
  await using h = await connect({ routes: source.routes, selection: { yolo: true } });
  const result = await h.client.callTool({
    name: "commit_file",
    arguments: { ...FIX, path: "src/../.git/config", branch: "fix/greeting" },
  });
  assert.equal(result.isError, true);
  assert.match(
    firstText(result),
    /path: must be 1-4096 characters, relative to the repository root/,
  );
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("commit_file is a safe write: exposed by default, withheld in read-only mode", async () => {
  {
    await using h = await connect();
    const tool = (await h.client.listTools()).tools.find((t) => t.name === "commit_file");
    assert.ok(tool, "exposed without --yolo");
    assert.deepEqual(
      [tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint],
      [false, false],
    );
  }
  {
    await using h = await connect({ selection: { readOnly: true } });
    const names = (await h.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes("commit_file"));
  }
});
