import assert from "node:assert/strict";
import { selectTools, type ToolSelection, unknownNames } from "../../src/policy/selection.ts";
import { TOOLSET_NAMES } from "../../src/tools/manifest.ts";
import { CATALOGUE } from "../../src/tools/catalogue.ts";
import {
  defineTool,
  defineToolset,
  READ_ONLY,
  safeWrite,
  type Tool,
  unsafeWrite,
} from "../../src/tools/kit/mod.ts";
import { z } from "zod";
import { toolArguments } from "../../testing/cases/mod.ts";
import { connect, firstText } from "../../testing/harness.ts";

async function listed(selection: Partial<ToolSelection> & { yolo?: boolean }) {
  // A client that draws MCP Apps views, so every selected tool is listed, the view tools too.
  await using h = await connect({ selection, apps: true });
  const { tools } = await h.client.listTools();
  return tools;
}

const base: ToolSelection = { readOnly: false };
const dummy = (name: string, access: "read" | "safe" | "unsafe"): Tool =>
  defineTool({
    name,
    reach: "repository",
    title: name,
    description: name,
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    access: access === "read"
      ? READ_ONLY
      : access === "safe"
      ? safeWrite("a test's safe write")
      : unsafeWrite("a test's unsafe write"),
    handler: () => Promise.resolve({ ok: true }),
  });
const sample = defineToolset({
  name: "sample",
  description: "a test's",
  tools: [dummy("r", "read"), dummy("s", "safe"), dummy("u", "unsafe")],
}).tools;
const names = (tools: Tool[]) => tools.map((t) => t.name);

const cases: { flags: Partial<ToolSelection>; expect: string[]; why: string }[] = [
  { flags: {}, expect: ["r", "s", "u"], why: "default: every tool (unsafe ones ask first)" },
  {
    flags: { withholdUnsafe: true },
    expect: ["r", "s"],
    why: "--withhold-unsafe leaves unsafe writes out",
  },
  { flags: { readOnly: true }, expect: ["r"], why: "--read-only keeps read-only tools only" },
  {
    flags: { tools: ["u"], withholdUnsafe: true },
    expect: ["u"],
    why: "--tools overrides --withhold-unsafe",
  },
  { flags: { tools: ["u"] }, expect: ["u"], why: "--tools overrides the safety filter" },
  {
    flags: { tools: ["u", "r"], readOnly: true },
    expect: ["r"],
    why: "--read-only wins over --tools",
  },
  { flags: { exclude: ["r"] }, expect: ["s", "u"], why: "--exclude removes" },
  { flags: { tools: ["r", "s"], exclude: ["s"] }, expect: ["r"], why: "--exclude applies last" },
];
for (const c of cases) {
  Deno.test(`gating: ${c.why}`, () => {
    assert.deepEqual(names(selectTools(sample, { ...base, ...c.flags })), c.expect);
  });
}

Deno.test("gating: every tool is listed by default, the same with --yolo; --withhold-unsafe leaves unsafe ones out", async () => {
  const defaults = (await listed({})).map((t) => t.name);
  const yolo = (await listed({ yolo: true })).map((t) => t.name);
  const withheld = new Set((await listed({ withholdUnsafe: true })).map((t) => t.name));
  assert.deepEqual(defaults, CATALOGUE.map((t) => t.name));
  assert.deepEqual(yolo, defaults, "--yolo changes what a call does, not what is listed");
  for (const tool of CATALOGUE) {
    assert.equal(
      withheld.has(tool.name),
      tool.access.level !== "unsafe write",
      `${tool.name}: listed under --withhold-unsafe iff not an unsafe write`,
    );
  }
});

Deno.test("gating: destructiveHint marks unsafe writes and readOnlyHint read-only tools, from access alone", async () => {
  const tools = await listed({});
  for (const tool of CATALOGUE) {
    const entry = tools.find((t) => t.name === tool.name);
    const { access } = tool;
    assert.equal(entry?.annotations?.destructiveHint, access.level === "unsafe write", tool.name);
    assert.equal(entry?.annotations?.readOnlyHint, access.level === "read-only", tool.name);
    if (access.level !== "read-only") {
      assert.ok(access.why.length > 10, `${tool.name} says why it is a ${access.level}`);
    }
  }
});

Deno.test("gating: --read-only lists only read-only tools over a real client", async () => {
  const tools = await listed({ readOnly: true });
  const readOnly = CATALOGUE.filter((t) => t.access.level === "read-only").map((t) => t.name);
  assert.deepEqual(tools.map((t) => t.name), readOnly);
});

Deno.test("gating: a withheld tool is refused when called by name, and nothing reaches Bitbucket", async () => {
  const write = CATALOGUE.find((t) => t.access.level !== "read-only");
  assert.ok(write, "the catalogue has a write tool");
  await using h = await connect({ selection: { readOnly: true } });
  let message = "";
  try {
    const result = await h.client.callTool({
      name: write.name,
      arguments: toolArguments[write.name]?.args,
    });
    message = result.isError ? firstText(result) : "";
  } catch (error) {
    message = String(error);
  }
  assert.match(message, new RegExp(`${write.name}.*not found`));
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("server declares what it implements: tools, resources, prompts (lists never change), completions", async () => {
  await using h = await connect();
  assert.deepEqual(h.client.getServerCapabilities(), {
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
    completions: {},
  });
});

/** Listed under --withhold-unsafe: every tool but the unsafe writes. */
const notUnsafe = (t: Tool) => t.access.level !== "unsafe write";

const setCases: { flags: Partial<ToolSelection>; expect: (t: Tool) => boolean; why: string }[] = [
  {
    flags: { toolsets: ["source"] },
    expect: (t) => t.toolset === "source",
    why: "--toolsets narrows the catalogue",
  },
  {
    flags: { toolsets: ["pull_requests"], withholdUnsafe: true },
    expect: (t) => t.toolset === "pull_requests" && notUnsafe(t),
    why: "--withhold-unsafe still applies within a toolset",
  },
  {
    flags: { toolsets: ["builds"], tools: ["merge_pull_request"], withholdUnsafe: true },
    expect: (t) => (t.toolset === "builds" && notUnsafe(t)) || t.name === "merge_pull_request",
    why: "--tools adds named tools, whatever their safety",
  },
  {
    flags: { toolsets: ["builds"], readOnly: true },
    expect: (t) => t.toolset === "builds" && t.access.level === "read-only",
    why: "--read-only wins within a toolset",
  },
  {
    flags: { toolsets: ["refs", "commits"], exclude: ["create_tag"] },
    expect: (t) => ["refs", "commits"].includes(t.toolset) && t.name !== "create_tag",
    why: "--exclude applies last",
  },
  {
    flags: { toolsets: ["default"] },
    expect: (t) => t.defaultFor !== undefined,
    why: "default selects the tools that serve a step of the review loop, across toolsets",
  },
  {
    flags: { toolsets: ["default", "jira"] },
    expect: (t) => t.defaultFor !== undefined || t.toolset === "jira",
    why: "default,jira adds a toolset to the default set",
  },
  {
    flags: { toolsets: ["all"], readOnly: true },
    expect: (t) => t.access.level === "read-only",
    why: "all is every toolset, the other filters still applying",
  },
  {
    flags: { toolsets: ["default"], tools: ["list_tags"], readOnly: true },
    expect: (t) =>
      (t.defaultFor !== undefined || t.name === "list_tags") &&
      t.access.level === "read-only",
    why: "--tools adds single tools to the default set; --read-only still narrows them",
  },
];
for (const c of setCases) {
  Deno.test(`toolsets: ${c.why}`, () => {
    const expected = CATALOGUE.filter(c.expect).map((t) => t.name);
    assert.ok(expected.length > 0);
    assert.deepEqual(names(selectTools(CATALOGUE, { ...base, ...c.flags })), expected);
  });
}

Deno.test("toolsets: an unknown toolset name is reported", () => {
  assert.deepEqual(unknownNames(TOOLSET_NAMES, ["refs", "nope"]), ["nope"]);
});
