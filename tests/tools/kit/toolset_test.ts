/**
 * Toolsets (src/tools/kit/toolset.ts): a tool names no toolset; the folder's
 * `mod.ts` that lists it puts it in one, and only one.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, defineToolset, READ_ONLY } from "../../../src/tools/kit/mod.ts";

/** A tool no toolset lists yet. */
function loose(name: string) {
  return defineTool({
    name,
    reach: "repository",
    title: name,
    description: name,
    access: READ_ONLY,
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    handler: () => Promise.resolve({ ok: true }),
  });
}

Deno.test("toolset: the toolset that lists a tool is the tool's", () => {
  const tool = loose("listed");
  const set = defineToolset({ name: "first", description: "a test's", tools: [tool] });
  assert.equal(tool.toolset, set.name);
  defineToolset({ name: "first", description: "the same, again", tools: [tool] });
  assert.equal(tool.toolset, set.name, "listing it again in the same toolset changes nothing");
});

Deno.test("toolset: a tool another toolset holds is refused, naming both", () => {
  const tool = loose("taken");
  defineToolset({ name: "first", description: "a test's", tools: [tool] });
  assert.throws(
    () => defineToolset({ name: "second", description: "a test's", tools: [tool] }),
    /Cannot put taken in toolset second: toolset first holds it/,
  );
  assert.equal(tool.toolset, "first");
});

Deno.test("toolset: a tool no toolset lists says so when its toolset is read", () => {
  const tool = loose("stray");
  assert.throws(
    () => tool.toolset,
    /Cannot read the toolset of stray: no toolset lists it \(hint: list it in its folder's mod\.ts\)/,
  );
});
