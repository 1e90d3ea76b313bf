/**
 * The `default` set's declaration (src/tools/kit/default_set.ts): a tool is
 * in it by the step of the review loop it declares, a step that is not one is
 * refused where the tool is made, and the set holds every step within the
 * limit every client's cap allows, the manifest a starting server lists from
 * agreeing.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";
import {
  defineListTool,
  defineTool,
  READ_ONLY,
  type ToolSpec,
} from "../../../src/tools/kit/mod.ts";
import {
  DEFAULT_SET_LIMIT,
  LOOP_STEPS,
  type LoopStep,
} from "../../../src/tools/kit/default_set.ts";
import { MANIFEST_TOOLS } from "../../../src/tools/manifest.ts";
import { selectTools } from "../../../src/policy/selection.ts";

/** A tool's spec, for the tests that declare a step. */
const spec = {
  name: "sample",
  reach: "repository",
  title: "Sample",
  description: "A sample.",
  access: READ_ONLY,
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  handler: () => Promise.resolve({ ok: true }),
} satisfies ToolSpec<z.ZodObject, z.ZodObject>;

Deno.test("default set: a tool is in it by the step it declares, list tools too; none declared, it is not", () => {
  assert.equal(defineTool({ ...spec, defaultFor: "review" }).defaultFor, "review");
  assert.equal(defineTool(spec).defaultFor, undefined);
  const listed = defineListTool({
    ...spec,
    defaultFor: "find",
    key: "items",
    item: z.string(),
    handler: () => Promise.resolve({ items: [], isLastPage: true }),
  });
  assert.equal(listed.defaultFor, "find");
});

Deno.test("default set: a step that is not one of the loop's is refused when the tool is made, naming the steps", () => {
  assert.throws(
    () => defineTool({ ...spec, defaultFor: "triage" as LoopStep }),
    new RegExp(
      `Cannot define tool sample: its defaultFor must be one of ${
        Object.keys(LOOP_STEPS).join(", ")
      }, not "triage"`,
    ),
  );
});

Deno.test("default set: every step served, within the limit, and the manifest agrees tool by tool", () => {
  const members = selectTools(CATALOGUE, { readOnly: false, toolsets: ["default"] });
  assert.ok(members.length <= DEFAULT_SET_LIMIT, `${members.length} tools`);
  for (const step of Object.keys(LOOP_STEPS)) {
    assert.ok(members.some((t) => t.defaultFor === step), `${step} is served`);
  }
  assert.deepEqual(
    MANIFEST_TOOLS.map((t) => [t.name, t.defaultFor]),
    CATALOGUE.map((t) => [t.name, t.defaultFor]),
  );
  const jira = CATALOGUE.filter((t) => t.toolset === "jira");
  assert.ok(jira.every((t) => t.defaultFor === undefined), "jira is asked for: default,jira");
});
