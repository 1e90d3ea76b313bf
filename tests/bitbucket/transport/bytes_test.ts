import assert from "node:assert/strict";
import { concatBytes } from "../../../src/bitbucket/transport/bytes.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

Deno.test("concatBytes: the chunks in order, as one array, with or without their total given", () => {
  const chunks = ['{"jsonrpc":', '"2.0",', '"id":1}'].map((s) => encoder.encode(s));
  const total = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  assert.equal(decoder.decode(concatBytes(chunks)), '{"jsonrpc":"2.0","id":1}');
  assert.deepEqual(concatBytes(chunks, total), concatBytes(chunks));
  assert.equal(concatBytes([]).byteLength, 0);
});

Deno.test("concatBytes: a copy, so a reader reusing its buffer cannot change a line already taken", () => {
  const buffer = encoder.encode("first line");
  const line = concatBytes([buffer.subarray(0, 5), buffer.subarray(5)]);
  buffer.set(encoder.encode("XXXXXXXXXX"));
  assert.equal(decoder.decode(line), "first line");
});
