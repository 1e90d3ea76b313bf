import assert from "node:assert/strict";
import { z } from "zod";
import { narrowChoices, offeredChoices } from "../../src/policy/choices.ts";
import { defineTool, defineToolset, READ_ONLY, type ToolEntry } from "../../src/tools/kit/mod.ts";

const NEEDS = { a: ["get_a"], b: ["get_b", "get_c"] };

/** A tool whose `kind` choices read through other tools, and stand-ins for those tools. */
const viewer = defineTool({
  name: "viewer",
  reach: "repository",
  title: "Viewer",
  description: "Shows a or b.",
  access: READ_ONLY,
  input: z.object({ kind: z.enum(["a", "b"]) }),
  output: z.object({ ok: z.boolean() }),
  choices: { arg: "kind", needs: NEEDS },
  handler: () => Promise.resolve({ ok: true }),
});
defineToolset({ name: "t", description: "a test's", tools: [viewer] });
const stub = (name: string): ToolEntry => ({ ...viewer, name, choices: undefined });

function publishedKinds(entry: ToolEntry | undefined): unknown {
  const json = entry?.config.inputSchema["~standard"].jsonSchema.input({ target: "draft-2020-12" });
  return (json?.properties as Record<string, { enum?: unknown }> | undefined)?.kind?.enum;
}

Deno.test("choices: a choice is offered while every tool it needs is exposed", () => {
  assert.deepEqual(offeredChoices(viewer.choices!, new Set(["get_a", "get_b", "get_c"])), [
    "a",
    "b",
  ]);
  assert.deepEqual(offeredChoices(viewer.choices!, new Set(["get_a", "get_b"])), ["a"]);
  assert.deepEqual(offeredChoices(viewer.choices!, new Set()), []);
});

Deno.test("choices: the published enum and validation narrow together; nothing offered leaves the tool out", async () => {
  const narrowed = narrowChoices([viewer, stub("get_a"), stub("get_b")]);
  const entry = narrowed.find((e) => e.name === "viewer");
  assert.deepEqual(publishedKinds(entry), ["a"]);
  const validate = entry!.config.inputSchema["~standard"].validate;
  const accepted = await validate({ kind: "a" });
  assert.equal("issues" in accepted ? accepted.issues : undefined, undefined, "a is accepted");
  const refused = await validate({ kind: "b" });
  assert.ok("issues" in refused && refused.issues?.[0]?.message.includes("must be one of a"));
  const whole = narrowChoices([viewer, stub("get_a"), stub("get_b"), stub("get_c")]);
  assert.equal(whole.find((e) => e.name === "viewer"), viewer, "all offered: the tool as it is");
  assert.deepEqual(narrowChoices([viewer, stub("get_b")]).map((e) => e.name), ["get_b"]);
});
