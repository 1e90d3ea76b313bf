import assert from "node:assert/strict";
import { refs } from "../../../testing/cases/refs.ts";
import { connect, firstText, TEST_TOKEN } from "../../../testing/harness.ts";

const PATH = "/api/latest/projects/PROJ/repos/web/branches";
const call = { name: "list_branches", arguments: { project: "PROJ", repo: "web", limit: 3 } };

const statuses = [
  {
    status: 401,
    fixture: "errors/unauthorized.json",
    message: /Authentication failed/,
    hint: /token is invalid or expired/,
  },
  {
    status: 403,
    fixture: "errors/forbidden.json",
    message: /not permitted to access/,
    hint: /lacks the permission/,
  },
  {
    status: 404,
    fixture: "errors/repository-not-found.json",
    message: /does not exist/,
    hint: /check the project key/,
  },
  {
    status: 409,
    fixture: "errors/tag-exists.json",
    message: /already exists/,
    hint: /read it again and retry/,
  },
  {
    status: 500,
    fixture: "errors/server-error.json",
    message: /unexpected error/,
    hint: /failed on its side; try again later/,
  },
];

for (const s of statuses) {
  Deno.test(`a ${s.status} answer is an isError result with the status, request, Bitbucket's message and a hint; the next call works`, async () => {
    await using h = await connect({
      // Answered once with the error, then by the branches fixture.
      routes: [
        { method: "GET", path: PATH, status: s.status, fixture: s.fixture, once: true },
        ...refs.routes,
      ],
    });
    const failed = await h.client.callTool(call);
    assert.equal(failed.isError, true);
    const text = firstText(failed);
    assert.match(text, new RegExp(`^GET ${PATH}\\?start=0&limit=3 failed: ${s.status} `));
    assert.match(text, s.message);
    assert.match(text, /\(hint: [^)]+\)$/, "the hint closes the message");
    assert.match(text.slice(text.lastIndexOf("(hint: ")), s.hint);
    assert.ok(!text.includes(TEST_TOKEN), "the token never appears in an error");
    const next = await h.client.callTool(call);
    assert.notEqual(next.isError, true, "the server keeps serving after an error");
    assert.equal((next.structuredContent as { branches: unknown[] }).branches.length, 3);
  });
}

Deno.test("a 429 that persists is reported as rate limiting, after 3 attempts", async () => {
  await using h = await connect({
    routes: [{ method: "GET", path: PATH, status: 429, body: "" }],
  });
  const result = await h.client.callTool(call);
  assert.match(firstText(result), /429 Too Many Requests: tried 3 times.*rate limiting/);
});

Deno.test("an HTML page where JSON was expected points at BITBUCKET_URL", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: PATH,
      body: "<!DOCTYPE html><html><body>Sign in with SSO</body></html>",
      headers: { "content-type": "text/html;charset=UTF-8" },
    }],
  });
  const result = await h.client.callTool(call);
  assert.equal(result.isError, true);
  assert.match(firstText(result), /HTML page.*BITBUCKET_URL/);
});

Deno.test("malformed JSON is a clear error", async () => {
  await using h = await connect({ routes: [{ method: "GET", path: PATH, body: '{"values": [' }] });
  const result = await h.client.callTool(call);
  assert.match(firstText(result), /not valid JSON/);
});

Deno.test("a response missing a required field is an error naming the field", async () => {
  await using h = await connect({
    routes: [{
      method: "GET",
      path: PATH,
      body: { values: [{ displayId: "main" }], isLastPage: true },
    }],
  });
  const result = await h.client.callTool(call);
  assert.equal(result.isError, true);
  assert.match(firstText(result), /unexpected response shape at values\.0\.id/);
});
