/**
 * The multipart encoder (src/bitbucket/multipart.ts): every field arrives as
 * the bytes it was given, read back by the platform's own multipart parser.
 */
import assert from "node:assert/strict";
import { multipartBody } from "../../../src/bitbucket/transport/multipart.ts";

/** The fields of `body` as a multipart parser reads them. */
async function parsed(body: ReturnType<typeof multipartBody>): Promise<FormData> {
  return await new Response(body.bytes, { headers: { "content-type": body.contentType } })
    .formData();
}

const texts: [string, string][] = [
  ["line feeds", "Fix the greeting\n\nThe old one was rude.\n"],
  ["CRLF and a lone CR", "a\r\nb\rc"],
  ["non-ASCII", "Müller 😀 ñ"],
  ["a boundary look-alike", "--bitbucket-mcp-\r\n--\r\n"],
  ["nothing", ""],
];
for (const [what, value] of texts) {
  Deno.test(`multipart: a text field with ${what} arrives byte for byte`, async () => {
    const form = await parsed(multipartBody([{ name: "message", value }]));
    assert.equal(form.get("message"), value);
  });
}

Deno.test("multipart: a file part carries its file name and type; fields keep their order", async () => {
  const body = multipartBody([
    { name: "content", value: "x\ny", file: { name: "content", type: "text/plain" } },
    { name: "branch", value: "main" },
  ]);
  assert.match(body.contentType, /^multipart\/form-data; boundary=bitbucket-mcp-[0-9a-f]{32}$/);
  const form = await parsed(body);
  const file = form.get("content") as File;
  assert.equal(file.name, "content");
  assert.equal(file.type, "text/plain");
  assert.equal(await file.text(), "x\ny");
  assert.deepEqual([...form.keys()], ["content", "branch"]);
});

Deno.test("multipart: the boundary is drawn afresh for each body and occurs only as its delimiters", () => {
  const value = "--bitbucket-mcp-0000 looks like a boundary";
  const bodies = [1, 2].map(() => multipartBody([{ name: "a", value }, { name: "b", value }]));
  const [first, second] = bodies.map((b) => b.contentType.split("boundary=")[1]!);
  assert.notEqual(first, second);
  const text = new TextDecoder().decode(bodies[0]!.bytes);
  assert.equal(text.split(`--${first}`).length, 4, "two fields: three delimiters");
  assert.ok(text.endsWith(`--${first}--\r\n`));
});
