/**
 * The `tools` command (src/cli/tools_command.ts): it marks a tool exposed
 * exactly when the server would list it, views included, which list only
 * while the data tools they draw from are exposed.
 */
import assert from "node:assert/strict";
import { toolsListing } from "../../src/cli/tools_command.ts";
import { CATALOGUE, TOOLSETS } from "../../src/tools/catalogue.ts";

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
