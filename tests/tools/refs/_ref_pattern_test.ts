/** Bitbucket's branch permission patterns, with the examples of its documentation. */
import assert from "node:assert/strict";
import { refPatternMatches } from "../../../src/tools/refs/_ref_pattern.ts";

const cases: [string, string, boolean][] = [
  ["*", "refs/heads/main", true],
  ["PROJECT-*", "refs/heads/PROJECT-1234", true],
  ["PROJECT-*", "refs/heads/stable/PROJECT-new", true],
  ["PROJECT-*", "refs/tags/PROJECT-1.1", true],
  ["PROJECT-*", "refs/heads/PROJECT", false],
  ["?.?", "refs/heads/1.1", true],
  ["?.?", "refs/heads/stable/2.X", true],
  ["?.?", "refs/tags/3.1", true],
  ["?.?", "refs/heads/10.1", false],
  ["tags/", "refs/heads/stable/tags/some_branch", true],
  ["tags/", "refs/tags/project-1.1.0", true],
  ["tags/**", "refs/tags/project-1.1.0", true],
  ["tags/", "refs/heads/tagsx/a", false],
  ["heads/**/master", "refs/heads/master", true],
  ["heads/**/master", "refs/heads/stable/master", true],
  ["heads/**/master", "refs/tags/master", false],
  ["release/*", "refs/heads/release/2.0", true],
  ["release/*", "refs/heads/release/2.0/hotfix", false],
  ["main", "refs/heads/main", true],
  ["main", "refs/heads/not-main", false],
  ["refs/heads/main", "refs/heads/main", true],
  ["feature.x", "refs/heads/featureAx", false],
];
for (const [pattern, ref, expected] of cases) {
  Deno.test(`refPatternMatches: ${pattern} ${expected ? "matches" : "does not match"} ${ref}`, () => {
    assert.equal(refPatternMatches(pattern, ref), expected);
  });
}
