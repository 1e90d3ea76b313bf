import assert from "node:assert/strict";
import { freePort } from "../../testing/free_port.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import { VERSION } from "../../src/version.ts";
import { TEST_TOKEN } from "../../testing/harness.ts";
import { ENV_FLAG, runMain, scopedPermissions } from "../../testing/spawn.ts";

const HOST = "bitbucket.example.com";
const ENV = { BITBUCKET_URL: `https://${HOST}`, BITBUCKET_TOKEN: TEST_TOKEN };

/** A port both --http and --metrics-listen name: the second listener cannot have it. */
const METRICS_CLASH = freePort();

const startupErrors: {
  why: string;
  flags?: string[];
  args?: string[];
  env: Record<string, string>;
  says: RegExp;
}[] = [
  { why: "missing URL", env: { BITBUCKET_TOKEN: TEST_TOKEN }, says: /BITBUCKET_URL is not set/ },
  {
    why: "missing token",
    env: { BITBUCKET_URL: `https://${HOST}` },
    says: /BITBUCKET_TOKEN is not set/,
  },
  {
    why: "malformed URL",
    env: { ...ENV, BITBUCKET_URL: "bitbucket" },
    says: /not a URL.*https:\/\//,
  },
  {
    why: "URL with credentials",
    env: { ...ENV, BITBUCKET_URL: `https://u:p@${HOST}` },
    says: /must not contain credentials/,
  },
  {
    why: "unknown tool in --tools",
    args: ["--tools", "list_branches,nope"],
    env: ENV,
    says: /unknown tool nope/,
  },
  {
    why: "unknown tool in --exclude",
    args: ["--exclude", "nah"],
    env: ENV,
    says: /unknown tool nah/,
  },
  {
    why: "unknown toolset in --toolsets, the keywords named beside the toolsets",
    args: ["--toolsets", "defualt"],
    env: ENV,
    says: /unknown toolset defualt: the toolsets are repositories, .*, default, all$/,
  },
  {
    why: "--search outside tools",
    args: ["check", "--search", "diff"],
    env: ENV,
    says: /--search applies to tools only/,
  },
  { why: "unknown flag", args: ["--frobnicate"], env: ENV, says: /frobnicate.*--help/ },
  {
    why: "token as a flag",
    args: ["--token", TEST_TOKEN],
    env: ENV,
    says: /--token is not accepted.*BITBUCKET_TOKEN/,
  },
  {
    why: "no net permission for the host",
    flags: [
      "--allow-net=other.example.com",
      ENV_FLAG,
    ],
    env: ENV,
    says: new RegExp(`no network permission for ${HOST}: run with --allow-net=${HOST}`),
  },
  {
    why: "no env permission",
    flags: [`--allow-net=${HOST}`],
    env: ENV,
    says: new RegExp(`cannot read BITBUCKET_URL: run with ${ENV_FLAG}`),
  },
  { why: "mistyped command", args: ["srve"], env: ENV, says: /unknown command "srve": use serve/ },
  {
    why: "a token pasted as a command",
    args: [TEST_TOKEN],
    env: ENV,
    says: /unknown command \(\d+ characters, not shown in case it is a secret\)/,
  },
  {
    why: "a token pasted as a second argument",
    args: ["serve", TEST_TOKEN],
    env: ENV,
    says: /unexpected argument \(\d+ characters, not shown/,
  },
  {
    why: "a confirmation-state key too short to sign with",
    env: { ...ENV, BITBUCKET_MCP_STATE_KEY: "short" },
    says: /BITBUCKET_MCP_STATE_KEY is too short: use at least 32 bytes/,
  },
  {
    why: "an unknown --audit-failure mode",
    args: ["--audit-file", "/tmp/audit.jsonl", "--audit-failure", "ignore"],
    env: ENV,
    says: /--audit-failure must be refuse or warn, not ignore/,
  },
  {
    why: "--audit-failure without --audit-file",
    args: ["--audit-failure", "warn"],
    env: ENV,
    says: /--audit-failure applies to --audit-file only/,
  },
  {
    why: "bad timeout",
    args: ["--timeout", "soon"],
    env: ENV,
    says: /--timeout must be a number of seconds/,
  },
  {
    why: "--metrics-listen without --http",
    args: ["--metrics-listen", "9090"],
    env: ENV,
    says: /^bitbucket-mcp: --metrics-listen applies to --http only$/,
  },
  {
    why: "a --metrics-listen that is no address",
    args: ["serve", "--http", "8080", "--metrics-listen", "metrics.example"],
    env: ENV,
    says: /--metrics-listen takes \[host:\]port/,
  },
  {
    why: "a --metrics-listen address in use (the MCP port's own)",
    flags: scopedPermissions(HOST).map((f) =>
      f.startsWith("--allow-net=") ? `${f},127.0.0.1:${METRICS_CLASH}` : f
    ),
    args: [
      "serve",
      "--http",
      `127.0.0.1:${METRICS_CLASH}`,
      "--metrics-listen",
      `127.0.0.1:${METRICS_CLASH}`,
    ],
    env: ENV,
    says: new RegExp(`cannot listen on 127\\.0\\.0\\.1:${METRICS_CLASH} for the metrics: `),
  },
  {
    why: "no permission to listen on the --metrics-listen address",
    flags: scopedPermissions(HOST).map((f) =>
      f.startsWith("--allow-net=") ? `${f},127.0.0.1:8080` : f
    ),
    args: ["serve", "--http", "127.0.0.1:8080", "--metrics-listen", "127.0.0.1:9090"],
    env: ENV,
    says: /no network permission to listen on 127\.0\.0\.1:9090/,
  },
];

for (const c of startupErrors) {
  Deno.test(`startup: ${c.why} prints one actionable line and exits 2`, async () => {
    const out = await runMain(c.flags ?? scopedPermissions(HOST), c.args ?? [], c.env);
    assert.equal(out.code, 2, out.stderr);
    assert.equal(out.stdout, "", "nothing on stdout");
    const lines = out.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, out.stderr);
    assert.match(lines[0]!, /^bitbucket-mcp: /);
    assert.match(lines[0]!, c.says);
    assert.ok(!out.stderr.includes(TEST_TOKEN), "the token is never printed");
  });
}

Deno.test("--version and --help answer without credentials or permissions", async () => {
  const version = await runMain([], ["--version"], {});
  assert.equal(version.code, 0);
  assert.equal(version.stdout.trim(), `bitbucket-mcp ${VERSION}`);
  const help = await runMain([], ["--help"], {});
  assert.equal(help.code, 0);
  for (
    const flag of [
      "--url",
      "--yolo",
      "--read-only",
      "--tools",
      "--exclude",
      "--timeout",
      "BITBUCKET_TOKEN",
    ]
  ) {
    assert.ok(help.stdout.includes(flag), `help mentions ${flag}`);
  }
});

Deno.test("tools says, under each write tool, why it has its access", async () => {
  const out = await runMain([], ["tools"], {});
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.split("\n");
  for (const tool of CATALOGUE) {
    const at = lines.findIndex((line) => line.slice(2).startsWith(`${tool.name} `));
    assert.ok(at >= 0, `${tool.name} is listed`);
    const next = lines[at + 1]?.trim() ?? "";
    if (tool.access.level === "read-only") assert.ok(!next.startsWith("why:"), tool.name);
    else assert.equal(next, `why: ${tool.access.why}`, tool.name);
  }
});

Deno.test("tools --json lists the whole catalogue with access and exposure, without credentials", async () => {
  const out = await runMain([], ["tools", "--json"], {});
  assert.equal(out.code, 0, out.stderr);
  const { tools } = JSON.parse(out.stdout) as {
    tools: {
      name: string;
      access: string;
      why?: string;
      defaultFor?: string;
      exposed: boolean;
      description: string;
    }[];
  };
  assert.deepEqual(tools.map((t) => t.name), CATALOGUE.map((t) => t.name));
  for (const t of tools) {
    const { access } = CATALOGUE.find((c) => c.name === t.name)!;
    assert.equal(t.access, access.level);
    assert.equal(
      t.why,
      access.level === "read-only" ? undefined : access.why,
      `${t.name}'s reason`,
    );
    // By default, the default set: the tools that serve a step of the review loop.
    const { defaultFor } = CATALOGUE.find((c) => c.name === t.name)!;
    assert.equal(t.defaultFor, defaultFor, `${t.name}'s step`);
    assert.equal(t.exposed, defaultFor !== undefined, `${t.name} exposed by default or not`);
  }
  const all = JSON.parse((await runMain([], ["tools", "--json", "--toolsets", "all"], {})).stdout);
  assert.ok(
    (all.tools as { exposed: boolean }[]).every((t) => t.exposed),
    "--toolsets all exposes every tool (unsafe ones ask first)",
  );
  const withheld = JSON.parse(
    (await runMain([], ["tools", "--json", "--withhold-unsafe", "--toolsets", "all"], {})).stdout,
  ) as { tools: { exposed: boolean; access: string }[] };
  assert.ok(withheld.tools.every((t) => t.exposed === (t.access !== "unsafe write")));
  const readOnly = JSON.parse(
    (await runMain([], ["tools", "--json", "--read-only", "--toolsets", "all"], {})).stdout,
  ) as {
    tools: { exposed: boolean; access: string }[];
  };
  assert.ok(readOnly.tools.every((t) => t.exposed === (t.access === "read-only")));
});
