/**
 * The administrator's policy file (src/policy/admin_policy.ts): where it is,
 * what a file sets, and that a file that cannot be read or is not a valid
 * policy (bad JSON, wrong types, unknown keys) takes the restrictive side:
 * nothing is served, with one line saying why.
 */
import assert from "node:assert/strict";
import {
  defaultPolicyPath,
  POLICY_KEYS,
  policyInstructions,
  type PolicyReader,
  readPolicy,
  refusalOf,
} from "../../src/policy/admin_policy.ts";
import { parsePolicy, PolicyFile } from "../../src/policy/admin_policy_file.ts";

const PATH = "/etc/bitbucket-mcp/policy.json";

/** A reader that finds `files` (path → text) and may read only `permitted` paths. */
function readerOf(files: Record<string, string>, permitted = true): PolicyReader {
  return {
    permitted: () => permitted,
    read: (path) => {
      const text = files[path];
      if (text === undefined) throw new Deno.errors.NotFound(`no ${path}`);
      return text;
    },
  };
}

Deno.test("admin policy: the file is /etc/bitbucket-mcp/policy.json, and on Windows under C:\\ProgramData, whatever the environment says", () => {
  assert.equal(defaultPolicyPath("linux"), PATH);
  assert.equal(defaultPolicyPath("darwin"), PATH);
  assert.equal(defaultPolicyPath("windows"), "C:\\ProgramData\\bitbucket-mcp\\policy.json");
});

Deno.test("admin policy: a valid file sets disabled, who decided, read_only, no_yolo and confine", () => {
  const parsed = parsePolicy(JSON.stringify({
    disabled: false,
    reason: "pilot",
    contact: "it@example.com",
    read_only: true,
    no_yolo: true,
    confine: { projects: ["PROJ"], repos: ["OPS/infra"] },
  }));
  assert.ok("policy" in parsed, JSON.stringify(parsed));
  const { policy } = parsed;
  assert.equal(policy.readOnly, true);
  assert.equal(policy.noYolo, true);
  assert.equal(policy.confinement?.allowsProject("PROJ"), true);
  assert.equal(policy.confinement?.allowsRepo("OPS", "infra"), true);
  assert.equal(policy.confinement?.allowsRepo("OPS", "other"), false);
  const empty = parsePolicy("{}");
  assert.ok("policy" in empty);
  assert.deepEqual(
    [empty.policy.disabled, empty.policy.readOnly, empty.policy.noYolo, empty.policy.confinement],
    [false, false, false, undefined],
  );
});

Deno.test("admin policy: bad JSON, wrong types, unknown keys and an empty confine are each invalid, with the key named", () => {
  const cases: [string, RegExp][] = [
    ['{"read_only": true,}', /^not JSON: /],
    ['{"read_only": "yes"}', /^read_only: .*boolean/],
    ['{"disabled": 1}', /^disabled: .*boolean/],
    ['{"readonly": true}', /readonly/],
    ['{"confine": {"projects": []}}', /^confine: names no project or repository/],
    ['{"confine": {"repos": ["PROJ"]}}', /^confine\.repos\.0: PROJECT\/slug/],
    ['{"confine": {"projects": ["a b"]}}', /^confine\.projects\.0: a project key/],
    ['{"confine": {"project": ["PROJ"]}}', /project/],
    ["[]", /expected object/],
  ];
  for (const [text, says] of cases) {
    const parsed = parsePolicy(text);
    assert.ok("problem" in parsed, `${text} is refused`);
    assert.match(parsed.problem, says, text);
    assert.doesNotMatch(parsed.problem, /\n/, "one line");
  }
});

Deno.test("admin policy: no file is no policy; a file this process may not read is not read, and says so", async () => {
  assert.deepEqual(await readPolicy(PATH, readerOf({})), { kind: "none", path: PATH });
  assert.deepEqual(await readPolicy(PATH, readerOf({ [PATH]: '{"disabled": true}' }, false)), {
    kind: "unread",
    path: PATH,
  });
  assert.equal(refusalOf(await readPolicy(PATH, readerOf({}))), undefined);
});

Deno.test("admin policy: through Deno, a path outside --allow-read is unread, a missing one none, a directory invalid", async () => {
  // The test task may read the checkout only.
  assert.equal((await readPolicy("/etc/bitbucket-mcp/policy.json")).kind, "unread");
  assert.equal((await readPolicy("./no-such-policy.json")).kind, "none");
  const directory = await readPolicy("./docs");
  assert.equal(directory.kind, "invalid");
  assert.match(refusalOf(directory) ?? "", /\.\/docs is invalid \(cannot be read: /);
});

Deno.test("admin policy: an invalid file refuses to serve in one line naming the file and the problem", async () => {
  const state = await readPolicy(PATH, readerOf({ [PATH]: '{"read_only": "yes"}' }));
  assert.equal(state.kind, "invalid");
  const refusal = refusalOf(state);
  assert.ok(refusal);
  assert.match(
    refusal,
    /^the administrator's policy \/etc\/bitbucket-mcp\/policy\.json is invalid/,
  );
  assert.match(refusal, /read_only: .*nothing is served until it is fixed/);
  const unreadable: PolicyReader = {
    permitted: () => true,
    read: () => {
      throw new Deno.errors.PermissionDenied("Permission denied (os error 13)");
    },
  };
  assert.match(
    refusalOf(await readPolicy(PATH, unreadable)) ?? "",
    /cannot be read: Permission denied/,
  );
});

Deno.test("admin policy: disabled refuses to serve, saying who decided", async () => {
  const file = { disabled: true, reason: "under review", contact: "it@example.com" };
  const state = await readPolicy(PATH, readerOf({ [PATH]: JSON.stringify(file) }));
  assert.equal(
    refusalOf(state),
    `the administrator's policy ${PATH} disables bitbucket-mcp on this machine: under review (contact: it@example.com)`,
  );
  const bare = await readPolicy(PATH, readerOf({ [PATH]: '{"disabled": true}' }));
  assert.match(refusalOf(bare) ?? "", /: no reason given$/);
  const open = await readPolicy(PATH, readerOf({ [PATH]: '{"read_only": true}' }));
  assert.equal(refusalOf(open), undefined);
});

Deno.test("admin policy: the instructions name a policy in force in one sentence, and nothing without one", async () => {
  const state = await readPolicy(
    PATH,
    readerOf({ [PATH]: '{"read_only": true, "no_yolo": true}' }),
  );
  assert.equal(
    policyInstructions(state),
    "An administrator's policy governs this server (read-only, unsafe writes always ask); no flag lifts it.",
  );
  assert.equal(policyInstructions(await readPolicy(PATH, readerOf({}))), undefined);
});

Deno.test("admin policy: the keys named without loading the schema are the schema's keys", () => {
  assert.deepEqual([...POLICY_KEYS].sort(), Object.keys(PolicyFile.shape).sort());
});
