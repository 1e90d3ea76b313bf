/**
 * The degrade step on its own: what each revision gets of a prompt's
 * resource link and of a block type newer than the client (the matrix in
 * tests/e2e/compatibility_matrix_test.ts drives it through every SDK).
 */
import assert from "node:assert/strict";
import { degradeResult } from "../../src/server/revision_degrade.ts";

const LINK = {
  type: "resource_link",
  uri: "bitbucket://projects/PROJ/repos/web/pull-requests/42",
  name: "PROJ/web#42",
  title: "Pull request PROJ/web#42",
};
const PROMPT = {
  messages: [
    { role: "user", content: { type: "text", text: "Review it." } },
    { role: "user", content: LINK },
  ],
};

Deno.test("before 2025-06-18 a prompt's resource link is a text line naming it and its URI", () => {
  for (const revision of ["2024-11-05", "2025-03-26"]) {
    const got = degradeResult(PROMPT, revision) as typeof PROMPT;
    assert.deepEqual(got.messages[0], PROMPT.messages[0]);
    assert.deepEqual(got.messages[1], {
      role: "user",
      content: {
        type: "text",
        text: `Pull request PROJ/web#42: ${LINK.uri} (read it as a resource)`,
      },
    });
  }
});

Deno.test("from 2025-06-18 on a resource link goes as it is, the same object", () => {
  for (const revision of ["2025-06-18", "2025-11-25", "2026-07-28"]) {
    assert.equal(degradeResult(PROMPT, revision), PROMPT);
  }
});

Deno.test("a tool result's blocks are degraded and its other fields kept", () => {
  const result = {
    content: [{ type: "text", text: "{}" }, LINK, { type: "audio", data: "", mimeType: "a/b" }],
    structuredContent: { a: 1 },
  };
  const got = degradeResult(result, "2024-11-05") as typeof result;
  assert.deepEqual(got.content.map((b) => b.type), ["text", "text", "text"]);
  assert.deepEqual(got.structuredContent, { a: 1 });
  assert.equal(degradeResult(result, "2026-07-28"), result);
});
