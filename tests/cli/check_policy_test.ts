/**
 * The `policy` line of `check` (src/cli/check_policy.ts): none, not read,
 * in force with its keys and who decided, and the two that serve nothing
 * (disabled, invalid) as failures with a fix.
 */
import assert from "node:assert/strict";
import { checkPolicy } from "../../src/cli/check_policy.ts";
import type { PolicyState } from "../../src/policy/admin_policy.ts";
import { parsePolicy, PolicyFile } from "../../src/policy/admin_policy_file.ts";

const PATH = "/etc/bitbucket-mcp/policy.json";

function inForce(file: Record<string, unknown>): PolicyState {
  const parsed = parsePolicy(JSON.stringify(file));
  assert.ok("policy" in parsed);
  return { kind: "in force", path: PATH, policy: parsed.policy };
}

Deno.test("check policy: no file and a file not permitted both pass, the second naming the permission", () => {
  assert.deepEqual(checkPolicy({ kind: "none", path: PATH }), {
    status: "pass",
    detail: `none (no ${PATH})`,
  });
  const unread = checkPolicy({ kind: "unread", path: PATH });
  assert.equal(unread.status, "pass");
  assert.match(unread.detail, /^none read: .*--allow-read=\/etc\/bitbucket-mcp\/policy\.json\)$/);
});

Deno.test("check policy: a policy in force passes with its path, its keys and who decided", () => {
  const line = checkPolicy(inForce({ no_yolo: true, reason: "pilot", contact: "it@example.com" }));
  assert.deepEqual(line, {
    status: "pass",
    detail: `${PATH}: unsafe writes always ask; why: pilot (contact: it@example.com)`,
  });
  assert.equal(checkPolicy(inForce({})).detail, `${PATH}: no restriction`);
});

Deno.test("check policy: disabled and invalid fail, saying nothing is served, with a fix", () => {
  const off = checkPolicy(inForce({ disabled: true, reason: "paused" }));
  assert.equal(off.status, "fail");
  assert.equal(off.detail, `${PATH}: disabled, nothing is served: paused`);
  assert.match(off.fix ?? "", /no flag can change this/);
  const bad = checkPolicy({ kind: "invalid", path: PATH, problem: "not JSON: x" });
  assert.equal(bad.status, "fail");
  assert.equal(bad.detail, `${PATH} is invalid (not JSON: x): nothing is served`);
  assert.ok(bad.fix?.includes(Object.keys(PolicyFile.shape).join(", ")), bad.fix);
});
