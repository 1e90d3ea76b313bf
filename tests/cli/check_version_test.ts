/**
 * src/cli/check_version.ts: what `check` says of the Bitbucket version, from
 * the feature table: a pass with every feature, a warning naming each missing
 * feature, its version and the toolset that refuses it, and a failure below
 * the oldest supported version, with the fix.
 */
import assert from "node:assert/strict";
import { FEATURES, OLDEST_SUPPORTED } from "../../src/bitbucket/features.ts";
import { atLeast, parseVersion } from "../../src/bitbucket/transport/server_version.ts";
import { versionLine } from "../../src/cli/check_version.ts";

const line = (text: string) => versionLine(`Bitbucket Data Center ${text}`, parseVersion(text));
const newest = Object.values(FEATURES).map((f) => parseVersion(f.since)!).reduce((a, b) =>
  atLeast(a, b.text) ? a : b
);

Deno.test("check passes a server with every feature the tools use", () => {
  assert.deepEqual(line(newest.text), {
    status: "pass",
    detail: `Bitbucket Data Center ${newest.text}`,
  });
});

for (const feature of Object.values(FEATURES)) {
  const v = parseVersion(feature.since)!;
  const before = v.minor > 0 ? `${v.major}.${v.minor - 1}.9` : `${v.major - 1}.99.9`;
  if (!atLeast(parseVersion(before)!, OLDEST_SUPPORTED)) continue;
  Deno.test(`check warns that ${before} lacks ${feature.what}, naming ${feature.toolset}`, () => {
    const verdict = line(before);
    assert.equal(verdict.status, "warn");
    assert.ok(
      verdict.detail.includes(`${feature.what} (${feature.since}, ${feature.toolset})`),
      verdict.detail,
    );
    assert.match(verdict.detail, /the tools refuse calls that need them$/);
  });
}

Deno.test("check fails a server older than the oldest supported version, with the fix", () => {
  const oldest = parseVersion(OLDEST_SUPPORTED)!;
  const verdict = line(`${oldest.major}.${oldest.minor - 1}.0`);
  assert.equal(verdict.status, "fail");
  assert.match(verdict.detail, new RegExp(`older than ${OLDEST_SUPPORTED.replace(".", "\\.")}`));
  assert.equal(verdict.fix, `upgrade Bitbucket to ${OLDEST_SUPPORTED} or later`);
});

Deno.test("check says nothing of features when the server names no version it can read", () => {
  assert.deepEqual(versionLine("Bitbucket Data Center next", undefined), {
    status: "pass",
    detail: "Bitbucket Data Center next",
  });
});
