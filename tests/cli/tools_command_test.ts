/**
 * The `tools` command (src/cli/tools_command.ts): it marks a tool exposed
 * exactly when the server would list it, views included, which list only
 * while the data tools they draw from are exposed.
 */
import assert from "node:assert/strict";
import { toolsListing } from "../../src/cli/tools_command.ts";
import { CATALOGUE, TOOLSETS } from "../../src/tools/catalogue.ts";
import { LOOP_STEPS } from "../../src/tools/kit/default_set.ts";

/** The names `tools --json` marks exposed under `toolsets`. */
function exposedUnder(toolsets: string[]): string[] {
  const rows = JSON.parse(toolsListing(CATALOGUE, { readOnly: false, toolsets }, true))
    .tools as { name: string; exposed: boolean }[];
  return rows.filter((r) => r.exposed).map((r) => r.name);
}

Deno.test("tools: the views are withheld without the pull request tools, and exposed with them", () => {
  const views = TOOLSETS.find((set) => set.name === "views")!.tools.map((t) => t.name);
  assert.ok(views.length > 0, "there are view tools");
  assert.deepEqual(exposedUnder(["views"]), []);
  const pulls = TOOLSETS.find((set) => set.name === "pull_requests")!.tools.map((t) => t.name);
  assert.deepEqual(exposedUnder(["views", "pull_requests"]).sort(), [...views, ...pulls].sort());
});

Deno.test("tools: a tool of the default set shows the step it serves, and the legend says why each step is in it", () => {
  const text = toolsListing(CATALOGUE, { readOnly: false, toolsets: ["default"] }, false);
  const lines = text.split("\n");
  for (const tool of CATALOGUE) {
    const line = lines.find((l) => l.slice(2).startsWith(`${tool.name} `))!;
    const cells = line.slice(2).trim().split(/\s{2,}/);
    assert.equal(line[0], tool.defaultFor === undefined ? "-" : " ", `${tool.name} marked`);
    assert.equal(cells[2], tool.defaultFor ?? tool.access.level, `${tool.name}'s third column`);
  }
  for (const [step, why] of Object.entries(LOOP_STEPS)) {
    assert.ok(lines.some((l) => l.trim() === `${step.padEnd(8)} ${why}`), `${step}: ${why}`);
  }
});
