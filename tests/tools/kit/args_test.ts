import assert from "node:assert/strict";
import { CATALOGUE } from "../../../src/tools/catalogue.ts";
import { toolArguments } from "../../../testing/cases/mod.ts";
import { refs } from "../../../testing/cases/refs.ts";
import { repositories } from "../../../testing/cases/repositories.ts";
import { connect, firstText } from "../../../testing/harness.ts";
import { z } from "zod";
import {
  AtArg,
  filePathArg,
  MAX_REF,
  nameArg,
  NameFilterArg,
  pathArg,
  refArg,
  refPathArg,
  ReviewersArg,
  segmentArg,
} from "../../../src/tools/kit/args.ts";

/**
 * For every tool and every required string argument: leaving it out, or
 * passing it empty, gives an error naming the argument, and no request
 * reaches Bitbucket.
 */
Deno.test("a missing or empty required argument is an error naming it, with no HTTP request", async (t) => {
  // No routes: nothing may reach Bitbucket.
  // A client that draws MCP Apps views, so the view tools are listed and checked too.
  await using h = await connect({ selection: { yolo: true }, apps: true });
  const { tools } = await h.client.listTools();
  let checked = 0;
  for (const tool of CATALOGUE) {
    const entry = tools.find((e) => e.name === tool.name);
    const args = toolArguments[tool.name]?.args ?? {};
    const schema = entry?.inputSchema as {
      required?: string[];
      properties: Record<string, { type?: string }>;
    };
    for (const name of schema.required ?? []) {
      const variants: [string, Record<string, unknown>][] = [["missing", { ...args }]];
      delete variants[0]![1][name];
      if (schema.properties[name]?.type === "string") {
        variants.push(["empty", { ...args, [name]: "" }]);
      }
      for (const [how, callArgs] of variants) {
        checked++;
        await t.step(`${tool.name}: ${name} ${how}`, async () => {
          const before = h.fixture.requests.length;
          const result = await h.client.callTool({ name: tool.name, arguments: callArgs });
          assert.equal(result.isError, true);
          assert.match(firstText(result), new RegExp(`\\b${name}\\b`));
          assert.equal(h.fixture.requests.length, before, "no request reached Bitbucket");
        });
      }
    }
  }
  assert.ok(checked > 0, "some required argument was left out");
});

const hostile = [
  {
    name: "a path traversal in a project key stays one segment",
    args: { project: "../../admin", repo: "web" },
    path: "/api/latest/projects/..%2F..%2Fadmin/repos/web",
  },
  {
    name: "a query string in a slug stays one segment",
    args: { project: "PROJ", repo: "web?x=1#f" },
    path: "/api/latest/projects/PROJ/repos/web%3Fx%3D1%23f",
  },
];
for (const c of hostile) {
  Deno.test(`hostile input: ${c.name}`, async () => {
    await using h = await connect({ routes: repositories.routes });
    await h.client.callTool({ name: "get_repository", arguments: c.args });
    assert.equal(h.fixture.requests.length, 1);
    assert.equal(h.fixture.requests[0]?.path, c.path);
  });
}

for (const segment of [".", ".."]) {
  Deno.test(`hostile input: a repo slug of ${segment} is refused before any request`, async () => {
    await using h = await connect({ routes: repositories.routes });
    const result = await h.client.callTool({
      name: "get_repository",
      arguments: { project: "PROJ", repo: segment },
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /repo/);
    assert.equal(h.fixture.requests.length, 0);
  });
}

Deno.test("limit above the cap is refused with the cap named", async () => {
  await using h = await connect({ routes: refs.routes });
  const result = await h.client.callTool({
    name: "list_branches",
    arguments: { project: "PROJ", repo: "web", limit: 5000 },
  });
  assert.equal(result.isError, true);
  assert.match(firstText(result), /limit.*1000/);
  assert.equal(h.fixture.requests.length, 0);
});

Deno.test("every identifier argument takes a name as results show it and gives its real bytes", () => {
  const shown = "fix\\u{202E}ed\\u{200B}\\u{E0041}";
  const real = "fix\u202Eed\u200B\u{E0041}";
  const builders = {
    segmentArg: segmentArg(),
    nameArg: nameArg(),
    refArg: refArg(),
    refPathArg: refPathArg("Tag"),
    pathArg: pathArg(),
    filePathArg: filePathArg(),
    AtArg,
    NameFilterArg,
  };
  for (const [name, schema] of Object.entries(builders)) {
    assert.equal(schema.parse(shown), real, name);
    assert.equal(schema.parse(real), real, `${name}: the real bytes, given raw, stay`);
  }
  assert.deepEqual(ReviewersArg.parse(["j\\u{200B}doe", "asmith"]), ["j\u200Bdoe", "asmith"]);
});

Deno.test("an escape never makes a path segment: '.', '..' and '/' are not read from one", () => {
  for (const path of ["a/\\u{2E}\\u{2E}/b", "a\\u{2F}b", "\\u{2E}"]) {
    assert.equal(filePathArg().parse(path), path);
  }
  // A backslash is read back, and stays one character of its segment.
  assert.equal(filePathArg().parse("dir/a\\u{5C}b"), "dir/a\\b");
  assert.equal(segmentArg().safeParse("..").success, false);
});

Deno.test("an identifier argument publishes the JSON schema of its string, the escape unsaid", () => {
  const plain = z.object({ ref: z.string().min(1).max(MAX_REF).describe("A ref") });
  const taking = z.object({ ref: refArg("A ref") });
  assert.deepEqual(
    JSON.stringify(taking.toJSONSchema({ io: "input" })),
    JSON.stringify(plain.toJSONSchema({ io: "input" })),
  );
});
