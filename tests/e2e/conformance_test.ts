/**
 * The official MCP conformance suite against the HTTP mode, at 2025-11-25 and
 * at 2026-07-28, check by check against each revision's baseline
 * (testing/conformance.ts): a new failure, or a baselined check that passes,
 * fails this test with the suite's own report.
 */
import assert from "node:assert/strict";
import { REVISIONS, runConformance } from "../../testing/conformance.ts";

Deno.test("conformance: every server scenario at 2025-11-25 and 2026-07-28 passes but the baselined checks", async () => {
  const runs = await runConformance();
  assert.deepEqual(runs.map((run) => run.revision), [...REVISIONS]);
  for (const run of runs) {
    assert.ok(run.passed, `at ${run.revision}:\n${run.output}`);
    assert.match(run.summary, /Total: [1-9]\d* passed/, `at ${run.revision} checks ran`);
  }
});
