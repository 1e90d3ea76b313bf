/**
 * List tools (src/tools/kit/list_tool.ts): the kit appends the paging
 * arguments, last, and builds the paged output; a list tool states its access
 * like any other tool.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";
import { defineListTool, READ_ONLY } from "../../../src/tools/kit/mod.ts";
import { ApplicationUser as User } from "../../../src/bitbucket/entities/user.ts";

/** A list tool's spec but its access. */
const spec = {
  name: "list_sample",
  reach: "repository" as const,
  title: "List samples",
  description: "Samples.",
  input: z.object({ project: z.string(), repo: z.string(), filter: z.string().optional() }),
  key: "samples" as const,
  item: z.object({ name: z.string() }),
  entity: User,
  map: (user: z.infer<typeof User>) => ({ name: user.name }),
  request: () => ({ path: "/api/latest/users" }),
};

Deno.test("list tool: its own arguments, then limit and start, last", () => {
  const tool = defineListTool({ ...spec, access: READ_ONLY });
  const { input, output } = tool.convertedSchemas();
  assert.deepEqual(Object.keys(input.properties as object), [
    "project",
    "repo",
    "filter",
    "limit",
    "start",
  ]);
  assert.deepEqual(Object.keys(output.properties as object), [
    "samples",
    "isLastPage",
    "nextPageStart",
  ]);
});

Deno.test("list tool: a list tool without an access does not compile", () => {
  // @ts-expect-error: no access
  const tool = () => defineListTool({ ...spec });
  assert.equal(typeof tool, "function");
});

Deno.test("list tool: every tool of the catalogue that takes a start takes limit and start last", () => {
  const paged = CATALOGUE.filter((tool) =>
    "start" in (tool.convertedSchemas().input.properties as object)
  );
  assert.ok(paged.length > 0);
  for (const tool of paged) {
    const keys = Object.keys(tool.convertedSchemas().input.properties as object);
    assert.deepEqual(keys.slice(-2), ["limit", "start"], tool.name);
  }
});
