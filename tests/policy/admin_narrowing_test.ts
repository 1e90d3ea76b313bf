/**
 * The administrator's policy applied to the flags
 * (src/policy/admin_narrowing.ts): flags can only narrow it.
 */
import assert from "node:assert/strict";
import { StartupError } from "../../src/config.ts";
import { parseFlags } from "../../src/cli/flags.ts";
import { narrowByPolicy, narrowConfinement } from "../../src/policy/admin_narrowing.ts";
import type { PolicyState } from "../../src/policy/admin_policy.ts";
import { parsePolicy } from "../../src/policy/admin_policy_file.ts";
import { Confinement } from "../../src/policy/confinement.ts";

const PATH = "/etc/bitbucket-mcp/policy.json";

/** The state of a policy file holding `file`. */
function inForce(file: Record<string, unknown>): PolicyState {
  const parsed = parsePolicy(JSON.stringify(file));
  assert.ok("policy" in parsed, JSON.stringify(parsed));
  return { kind: "in force", path: PATH, policy: parsed.policy };
}

/** The confinement the flags and the policy leave, as `describe` says it. */
function left(argv: string[], confine: Record<string, unknown>): string | undefined {
  return narrowByPolicy(parseFlags(argv), inForce({ confine })).flags.confinement?.describe();
}

Deno.test("admin narrowing: read_only wins without --read-only; no_yolo takes --yolo back and says so", () => {
  const { flags, notes } = narrowByPolicy(
    parseFlags(["--yolo", "--tools", "merge_pull_request"]),
    inForce({ read_only: true, no_yolo: true }),
  );
  assert.equal(flags.readOnly, true);
  assert.equal(flags.yolo, false);
  assert.deepEqual(flags.tools, ["merge_pull_request"], "the other flags stay");
  assert.equal(notes.length, 1);
  assert.match(notes[0]!, /^--yolo has no effect: the administrator's policy .* ask the person/);
  const quiet = narrowByPolicy(parseFlags([]), inForce({ no_yolo: true }));
  assert.deepEqual(quiet.notes, [], "nothing to say without --yolo");
});

Deno.test("admin narrowing: without a policy in force the flags stay as they are", () => {
  const asked = parseFlags(["--yolo", "--project", "PROJ"]);
  for (
    const state of [
      { kind: "none", path: PATH },
      { kind: "unread", path: PATH },
    ] as PolicyState[]
  ) {
    assert.deepEqual(narrowByPolicy(asked, state), { flags: asked, notes: [] });
  }
  const open = narrowByPolicy(asked, inForce({}));
  assert.equal(open.flags.yolo, true);
  assert.equal(open.flags.confinement, asked.confinement);
});

Deno.test("admin narrowing: confine with no --project/--repo is the policy's; the flags narrow it", () => {
  const confine = { projects: ["PROJ"], repos: ["OPS/infra", "OPS/docs"] };
  assert.equal(left([], confine), "project PROJ, OPS/infra, OPS/docs");
  assert.equal(left(["--repo", "PROJ/web"], confine), "PROJ/web");
  assert.equal(left(["--project", "proj"], confine), "project proj", "keys in any case");
  assert.equal(left(["--project", "OPS"], confine), "OPS/infra, OPS/docs");
  assert.equal(left(["--repo", "OPS/Infra"], confine), "OPS/Infra");
  assert.equal(
    left(["--project", "PROJ", "--repo", "PROJ/web,OPS/docs"], confine),
    "project PROJ, OPS/docs",
  );
});

Deno.test("admin narrowing: a --project or --repo outside the policy's confine stops start-up, naming it and what is allowed", () => {
  const confine = { projects: ["PROJ"], repos: ["OPS/infra"] };
  for (
    const [argv, named] of [
      [["--project", "SECRET"], "--project SECRET"],
      [["--repo", "OPS/docs"], "--repo OPS/docs"],
      [["--repo", "SECRET/x", "--project", "PROJ"], "--repo SECRET/x"],
    ] as const
  ) {
    assert.throws(
      () => left([...argv], confine),
      (error: unknown) =>
        error instanceof StartupError &&
        error.message ===
          `${named} is outside the administrator's policy ${PATH}, which confines this server to project PROJ, OPS/infra`,
      argv.join(" "),
    );
  }
});

Deno.test("admin narrowing: a confine-free policy leaves the flags' confinement alone", () => {
  const asked = new Confinement(["PROJ"], []);
  assert.equal(narrowConfinement({}, PATH, asked), asked);
  assert.equal(narrowConfinement({}, PATH, undefined), undefined);
});
