/**
 * `tools --search` (src/cli/tool_search.ts): the tools ranked by how their
 * name, title and description match the words, and flags that, given to the
 * server, select exactly what they say.
 */
import assert from "node:assert/strict";
import { bestOf, rankTools, selectingFlags, SHOWN } from "../../src/cli/tool_search.ts";
import { parseFlags } from "../../src/cli/flags.ts";
import { DEFAULT_SET, selectTools } from "../../src/policy/selection.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { runMain } from "../../testing/spawn.ts";

/** The names of the tools ranked for `query`, best first. */
const ranked = (query: string) => rankTools(CATALOGUE, query).map((r) => r.tool.name);

Deno.test("search: a tool whose name holds every word ranks first; one matching fewer words ranks below", () => {
  const found = ranked("build status");
  const both = CATALOGUE.filter((t) => t.name.includes("build_status")).map((t) => t.name);
  assert.ok(both.length >= 2, "tools named for build statuses");
  assert.deepEqual(found.slice(0, both.length).sort(), both.sort());
  const summary = found.indexOf("get_build_summary");
  assert.ok(summary > both.length - 1, "a tool matching one word comes after those matching both");
});

Deno.test("search: words match whole or by a shared start, in any case; stop words and punctuation count for nothing", () => {
  assert.equal(ranked("DIFF")[0], ranked("diff")[0]);
  assert.ok(ranked("comments").includes("add_pr_comment"), "comments finds comment");
  assert.deepEqual(ranked("the of and"), [], "stop words alone match nothing");
  assert.deepEqual(ranked("zzqx"), []);
  assert.deepEqual(ranked("pull-request, diff!"), ranked("pull request diff"));
});

Deno.test("search: the best are at most SHOWN, each scoring at least half of the first", () => {
  const all = rankTools(CATALOGUE, "pull request");
  const best = bestOf(all);
  assert.ok(all.length > SHOWN, "a query matching many tools");
  assert.ok(best.length <= SHOWN && best.length > 0);
  for (const r of best) assert.ok(r.score * 2 >= best[0]!.score, r.tool.name);
});

Deno.test("search: each flag line, given to the server, selects what it says", () => {
  for (const query of ["build status", "jira issue", "reply to a comment", "tag"]) {
    const best = bestOf(rankTools(CATALOGUE, query)).map((r) => r.tool);
    assert.ok(best.length > 0, query);
    const names = best.map((t) => t.name);
    const [withDefault, only, sets] = selectingFlags(best, CATALOGUE);
    const selected = (flags: string) =>
      selectTools(CATALOGUE, parseFlags(flags.split(" "))).map((t) => t.name);
    assert.deepEqual(selected(only!.flags).sort(), [...names].sort(), `${query}: ${only!.flags}`);
    const inDefault = selectTools(CATALOGUE, { readOnly: false, toolsets: [DEFAULT_SET] });
    if (best.every((t) => t.defaultFor !== undefined)) {
      assert.equal(withDefault!.flags, "(none)", query);
    } else {
      assert.deepEqual(
        selected(withDefault!.flags).sort(),
        [...new Set([...inDefault.map((t) => t.name), ...names])].sort(),
        `${query}: ${withDefault!.flags}`,
      );
    }
    const whole = selected(sets!.flags);
    assert.ok(names.every((n) => whole.includes(n)), `${query}: ${sets!.flags}`);
    assert.ok(sets!.selects.includes(`(${whole.length} tools)`), sets!.selects);
  }
});

Deno.test("tools --search prints the best tools and the flags; --json gives every match with its score", async () => {
  const out = await runMain([], ["tools", "--search", "build status"], {});
  assert.equal(out.code, 0, out.stderr);
  const best = bestOf(rankTools(CATALOGUE, "build status"));
  const rows = out.stdout.split("\n").filter((line) => /^[ -] [a-z_]+ /.test(line));
  assert.deepEqual(rows.map((line) => line.slice(2).split(" ")[0]), best.map((r) => r.tool.name));
  for (const flag of selectingFlags(best.map((r) => r.tool), CATALOGUE)) {
    assert.ok(out.stdout.includes(flag.flags), flag.flags);
  }
  const json = JSON.parse(
    (await runMain([], ["tools", "--search", "build status", "--json"], {})).stdout,
  );
  assert.deepEqual(
    json.tools.map((t: { name: string; score: number }) => [t.name, t.score]),
    rankTools(CATALOGUE, "build status").map((r) => [r.tool.name, r.score]),
  );
  const none = await runMain([], ["tools", "--search", "zzqx"], {});
  assert.equal(none.code, 0);
  assert.match(none.stdout, /^No tool matches "zzqx"/);
});
