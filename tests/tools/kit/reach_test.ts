/**
 * Every tool's declared reach (src/tools/kit/reach.ts): required by the
 * types and checked when a tool is defined, valid for every tool of the
 * catalogue and of the manifest a starting server lists from, and true to
 * what the tool takes; a server-wide tool's `confine` is what the policy and
 * the kit bound it by.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";
import { defineTool, READ_ONLY, type ToolSpec } from "../../../src/tools/kit/define.ts";
import { OUTSIDE_KEY, REACHES } from "../../../src/tools/kit/reach.ts";
import { MANIFEST_TOOLS } from "../../../src/tools/manifest.ts";
import { BitbucketClient } from "../../../src/bitbucket/transport/client.ts";

/** A tool's spec but its reach, for the tests that get the reach wrong. */
const body = {
  name: "sample",
  title: "Sample",
  description: "A sample.",
  access: READ_ONLY,
  input: z.object({ query: z.string() }),
  output: z.object({ items: z.array(z.string()) }),
  handler: () => Promise.resolve({ items: [] }),
};

Deno.test("reach: a tool that declares none, or a server-wide one that says nothing of its confinement, does not compile", () => {
  // @ts-expect-error: no reach
  const noReach: ToolSpec<typeof body.input, typeof body.output> = { ...body };
  // @ts-expect-error: server-wide, and no confine
  const unbounded: ToolSpec<typeof body.input, typeof body.output> = { ...body, reach: "server" };
  // @ts-expect-error: a confine on a tool that is not server-wide
  const confinedRepository: ToolSpec<typeof body.input, typeof body.output> = {
    ...body,
    reach: "repository",
    confine: { withheld: "why" },
  };
  assert.ok(noReach && unbounded && confinedRepository);
});

Deno.test("reach: defineTool refuses a spec without a valid reach, or with a confine that does not fit it", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{}, /Cannot define tool sample: its reach must be one of repository, project, server/],
    [{ reach: "everywhere" }, /not "everywhere"/],
    [{ reach: "server" }, /a confine is declared exactly when its reach is "server"/],
    [{ reach: "project", confine: { withheld: "why" } }, /exactly when its reach is "server"/],
    [{ reach: "server", confine: { item: () => ({ project: "P" }), query: "q" } }, /no argument q/],
  ];
  for (const [reach, says] of cases) {
    const spec = { ...body, ...reach } as unknown as Parameters<typeof defineTool>[0];
    assert.throws(() => defineTool(spec), says, JSON.stringify(reach));
  }
});

Deno.test("reach: every tool of the catalogue and of the manifest declares a valid one, the same in both", () => {
  assert.equal(MANIFEST_TOOLS.length, CATALOGUE.length);
  for (const [i, tool] of CATALOGUE.entries()) {
    assert.ok(REACHES.includes(tool.reach), `${tool.name}: reach ${tool.reach}`);
    assert.equal(tool.bounding !== undefined, tool.reach === "server", tool.name);
    const entry = MANIFEST_TOOLS[i]!;
    assert.equal(entry.name, tool.name);
    assert.equal(entry.reach, tool.reach, `${tool.name}: the manifest's reach`);
    assert.deepEqual(entry.bounding, tool.bounding, `${tool.name}: the manifest's bounding`);
  }
});

Deno.test("reach: a repository tool takes project and repo, a project tool project; a declared query is an argument", () => {
  for (const tool of CATALOGUE) {
    const input = tool.convertedSchemas().input;
    const required = (input.required ?? []) as string[];
    const properties = Object.keys((input.properties ?? {}) as Record<string, unknown>);
    if (tool.reach === "repository") {
      assert.ok(required.includes("project") && required.includes("repo"), tool.name);
    }
    if (tool.reach === "project") assert.ok(required.includes("project"), tool.name);
    if (tool.bounding?.mode === "drop" && tool.bounding.query !== undefined) {
      assert.ok(properties.includes(tool.bounding.query), tool.name);
    }
  }
});

Deno.test("reach: exactly the tools that drop items outside a confinement publish the count of them", () => {
  for (const tool of CATALOGUE) {
    const output = tool.convertedSchemas().output;
    const properties = (output.properties ?? {}) as Record<string, unknown>;
    const drops = tool.bounding?.mode === "drop";
    assert.equal(OUTSIDE_KEY in properties, drops, tool.name);
    if (drops) assert.ok(!((output.required ?? []) as string[]).includes(OUTSIDE_KEY));
  }
});

/** A server-wide tool listing `values`, each living where its `PROJECT/repo` string says. */
function lister(checks: boolean) {
  return defineTool({
    ...body,
    reach: "server",
    confine: {
      item: (value: string) => ({ project: value.split("/")[0]!, repo: value.split("/")[1] }),
      wide: true,
    },
    handler: (_args, { inside }) => {
      const values = ["PROJ/web", "PROJ/api", "OTHER/x"];
      return Promise.resolve({ items: checks ? inside(values) : values });
    },
  });
}

const bitbucket = new BitbucketClient({
  baseUrl: new URL("http://127.0.0.1:9"),
  token: "t",
  timeoutMs: 1000,
});
const within = (place: { project: string; repo?: string }) =>
  place.project === "PROJ" && place.repo === "web";

Deno.test("reach: a dropping tool drops what lies outside before its result is built, and says how many", async () => {
  const tool = lister(true);
  const confined = await tool.call({ query: "q" }, { bitbucket, within });
  assert.deepEqual(confined.structuredContent, { items: ["PROJ/web"], [OUTSIDE_KEY]: 2 });
  assert.deepEqual(JSON.parse((confined.content[0] as { text: string }).text), {
    items: ["PROJ/web"],
    [OUTSIDE_KEY]: 2,
  });
  const open = await tool.call({ query: "q" }, { bitbucket });
  assert.deepEqual(open.structuredContent, { items: ["PROJ/web", "PROJ/api", "OTHER/x"] });
});

Deno.test("reach: a dropping tool whose handler skips the check fails under a confinement, showing nothing", async () => {
  const tool = lister(false);
  await assert.rejects(
    tool.call({ query: "q" }, { bitbucket, within }),
    /Cannot call sample: its items were not checked against this server's confinement/,
  );
  const open = await tool.call({ query: "q" }, { bitbucket });
  assert.equal((open.structuredContent as { items: string[] }).items.length, 3);
});
