/**
 * The instructions' word on the catalogue (src/server/catalogue_instructions.ts):
 * a host that shows the model only tool names and the instructions at first
 * finds there each toolset served and where to start, and the whole stays
 * within about 1 KB whatever is served.
 */
import assert from "node:assert/strict";
import { catalogueInstructions } from "../../src/server/catalogue_instructions.ts";
import { INSTRUCTIONS, instructionsFor } from "../../src/server/factory.ts";
import { selectTools } from "../../src/policy/selection.ts";
import { isAppTool } from "../../src/tools/kit/apps.ts";
import { MANIFEST_TOOLS } from "../../src/tools/manifest.ts";
import { TOOLSETS } from "../../src/tools/catalogue.ts";
import { connect } from "../../testing/harness.ts";

/** The most bytes the instructions may take: about 1 KB. */
const LIMIT = 1024;

const bytes = (text: string) => new TextEncoder().encode(text).length;

Deno.test("instructions: within 1 KB for every tool, for the default set, and for each toolset alone", () => {
  const selections = [["all"], ["default"], ...TOOLSETS.map((set) => [set.name])];
  for (const toolsets of selections) {
    const tools = selectTools(MANIFEST_TOOLS, { readOnly: false, toolsets });
    const text = instructionsFor(undefined, undefined, tools);
    assert.ok(bytes(text) <= LIMIT, `${toolsets}: ${bytes(text)} bytes`);
    assert.ok(text.startsWith(INSTRUCTIONS), "the rules come first");
  }
});

Deno.test("instructions: each toolset served is named with its first tools, in order; views, drawn by the host, are not", () => {
  const tools = selectTools(MANIFEST_TOOLS, { readOnly: false, toolsets: ["default"] });
  const text = catalogueInstructions(tools)!;
  const named = [...text.matchAll(/(\w+) \(([\w, ]+)\)/g)].map((m) => [m[1], m[2]!.split(", ")]);
  const served = (set: string) =>
    tools.filter((t) => t.toolset === set && !isAppTool(t.config._meta)).map((t) => t.name);
  const sets = TOOLSETS.map((s) => s.name).filter((set) => served(set).length > 0);
  assert.deepEqual(named.map(([set]) => set), sets);
  for (const [set, first] of named) {
    assert.deepEqual(first, served(set as string).slice(0, 2), `${set}'s first tools`);
  }
  assert.equal(catalogueInstructions(tools.filter((t) => isAppTool(t.config._meta))), undefined);
});

Deno.test("instructions: a server gives the ones of its own tools in initialize", async () => {
  await using h = await connect({ selection: { toolsets: ["builds", "source"] } });
  const text = h.client.getInstructions() ?? "";
  for (const set of TOOLSETS.filter((s) => s.name === "builds" || s.name === "source")) {
    const first = set.tools.slice(0, 2).map((t) => t.name).join(", ");
    assert.ok(text.includes(`${set.name} (${first})`), `${set.name}: ${text}`);
  }
  assert.doesNotMatch(text, /pull_requests \(/);
});
