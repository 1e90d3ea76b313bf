/**
 * The version is written twice, on purpose: `src/version.ts` is what runs
 * (and what a compiled binary carries), `deno.json` what publishing reads.
 * This test is what keeps them one fact.
 */
import assert from "node:assert/strict";
import { VERSION } from "../src/version.ts";

Deno.test("src/version.ts says the version deno.json says", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.equal(typeof config.version, "string", "deno.json has a version");
  assert.equal(VERSION, config.version, "bump src/version.ts and deno.json together");
});
