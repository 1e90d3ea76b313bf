/**
 * The docs' generated parts (the README's toolsets table and sample
 * `✓ tools` line, docs/tools.md's toolsets and tools tables) are what
 * `deno task generate` writes from the catalogue (scripts/docs.ts), and say
 * true things.
 */
import assert from "node:assert/strict";
import {
  declaredIn,
  renderAll,
  renderTarget,
  type SourceFile,
  type Target,
  TARGETS,
} from "../../scripts/docs.ts";
import { USAGE } from "../../src/cli/flags.ts";
import { VIEW_PAGE_FILE } from "../../src/resources/view_page_render.ts";
import { MANIFEST_FILE } from "../../src/tools/manifest_record.ts";
import { CATALOGUE, TOOLSETS } from "../../src/tools/catalogue.ts";
import { LOOP_STEPS } from "../../src/tools/kit/default_set.ts";
import { staleFile } from "../support/line_diff.ts";
import { readRepoFile, ROOT, section, tableRows } from "./markdown.ts";

const TOOLS_PAGE = "docs/tools.md";

/** The rows of docs/tools.md's tools table, by tool name. */
function toolRows(): Map<string, string[]> {
  const table = section(readRepoFile(TOOLS_PAGE), "All tools");
  return new Map(
    tableRows(table).map((cells) => [cells[0]!.replace(/^`|`$/g, ""), cells]),
  );
}

Deno.test("README.md and docs/tools.md hold what `deno task generate` writes from the catalogue", async () => {
  const rendered = await renderAll();
  assert.deepEqual(rendered.map((r) => r.target.file), ["README.md", TOOLS_PAGE]);
  for (const { target, before, after } of rendered) {
    if (after !== before) {
      assert.fail(staleFile(target.file, before, after));
    }
  }
});

/**
 * Every writer `deno task generate` runs (the script or test file it ends
 * with) and the files it writes: the generated files the tests compare.
 */
const WRITERS: Record<string, readonly string[]> = {
  "scripts/view_page.ts": [VIEW_PAGE_FILE],
  "scripts/manifest.ts": [MANIFEST_FILE],
  "scripts/docs.ts": TARGETS.map((t) => t.file),
  "tests/tools/kit/published_schema_test.ts": ["tests/toolsnaps"],
  "tests/e2e/compatibility_matrix_test.ts": ["docs/compatibility.md"],
};

/** The comma list a flag is given in one command (`--allow-write=a,b`), or undefined. */
function flagList(command: string, flag: string): string[] | undefined {
  return new RegExp(`(?:^|\\s)${flag}=(\\S+)`).exec(command)?.[1]?.split(",");
}

Deno.test("deno task generate runs every writer, each allowed to write exactly the files it writes", () => {
  const { tasks } = JSON.parse(readRepoFile("deno.json"));
  const commands = (tasks.generate as string).split(" && ");
  const writers = commands.map((command) => command.split(" ").at(-1)!);
  assert.deepEqual(writers.toSorted(), Object.keys(WRITERS).toSorted());
  commands.forEach((command, i) => {
    const writer = writers[i]!;
    assert.doesNotMatch(command, /(^|\s)(-A|--allow-all)(\s|$)/, writer);
    assert.doesNotMatch(command, /--allow-(write|read|run|net|ffi|sys)(\s|$)/, `${writer}: scoped`);
    assert.match(command, /--no-prompt/, writer);
    assert.deepEqual(
      flagList(command, "--allow-write")?.toSorted(),
      [...WRITERS[writer]!].toSorted(),
    );
  });
  const docs = commands[writers.indexOf("scripts/docs.ts")]!;
  assert.deepEqual(
    flagList(docs, "--allow-read")?.toSorted(),
    [...WRITERS["scripts/docs.ts"]!, "src/tools"].toSorted(),
  );
});

Deno.test("--help names every toolset of the catalogue, in order, and no other", () => {
  const entry = /--toolsets a,b +expose only these toolsets: ([\s\S]*?) \(safety/.exec(USAGE);
  assert.ok(entry, "--help has a --toolsets entry");
  const named = entry[1]!.split(/,\s+/).map((name) => name.trim());
  assert.deepEqual(named, TOOLSETS.map((set) => set.name));
  for (const line of USAGE.split("\n")) assert.ok(line.length <= 90, `short line: ${line}`);
});

Deno.test("docs/tools.md has a row for every tool, in catalogue order, and each write's row gives its reason", () => {
  const rows = toolRows();
  assert.deepEqual([...rows.keys()], CATALOGUE.map((tool) => tool.name));
  for (const tool of CATALOGUE) {
    const [, access, toolset, step, , why] = rows.get(tool.name)!;
    assert.equal(access, tool.access.level, `${tool.name}'s access`);
    assert.equal(toolset, tool.toolset, `${tool.name}'s toolset`);
    assert.equal(step, tool.defaultFor ?? "", `${tool.name}'s step of the review loop`);
    if (tool.access.level !== "read-only") {
      assert.equal(why, tool.access.why, `${tool.name}'s row gives its reason`);
    }
  }
});

Deno.test("the README's and docs/tools.md's default-set table: each step, why, and the tools serving it", () => {
  for (const file of ["README.md", TOOLS_PAGE]) {
    const text = readRepoFile(file);
    const block = text.slice(
      text.indexOf("<!-- default:start -->"),
      text.indexOf("<!-- default:end -->"),
    );
    const rows = tableRows(block);
    assert.deepEqual(
      rows.map((cells) => [cells[0], cells[1], cells[2]!.split(", ")]),
      Object.entries(LOOP_STEPS).map(([step, why]) => [
        `\`${step}\``,
        why,
        CATALOGUE.filter((t) => t.defaultFor === step).map((t) => t.name),
      ]),
      file,
    );
  }
});

Deno.test("docs/tools.md names, for every tool, the file under src/tools/ whose module exports it", async () => {
  for (const [name, cells] of toolRows()) {
    const link = /^\[`([^`]+)`\]\(\.\.\/([^)]+)\)$/.exec(cells.at(-1)!);
    assert.ok(link, `${name}: the last cell links its file (${cells.at(-1)})`);
    const [, shown, path] = link;
    assert.equal(shown, path, `${name}: the link shows the path it goes to`);
    assert.match(path!, /^src\/tools\/[^/]+\/[^/]+\.ts$/, name);
    const module: Record<string, unknown> = await import(new URL(path!, ROOT).href);
    const exported = Object.values(module).some((value) =>
      typeof value === "object" && value !== null && (value as { name?: unknown }).name === name &&
      "access" in value
    );
    assert.ok(exported, `${name}: ${path} exports the tool`);
  }
});

const sources: SourceFile[] = [
  { path: "src/tools/a/one.ts", text: 'defineTool({ name: "list_things_old" })' },
  { path: "src/tools/a/two.ts", text: 'defineTool({ name: "list_things" })' },
  {
    path: "src/tools/b/three.ts",
    text: 'defineTool({ name: "twice" }); defineTool({ name: "twice" })',
  },
  { path: "src/tools/b/four.ts", text: 'const x = { name: "spread" };' },
  { path: "src/tools/c/five.ts", text: 'defineTool({ name: "spread" })' },
];

Deno.test("declaredIn finds the one file that declares each tool, not one holding a longer name", () => {
  assert.deepEqual(
    [...declaredIn(["list_things"], sources)],
    [["list_things", "src/tools/a/two.ts"]],
  );
});

Deno.test("declaredIn refuses a tool declared nowhere, or more than once, naming the tool and the files", () => {
  assert.throws(
    () => declaredIn(["list_things", "missing_tool"], sources),
    /missing_tool.*no file of src\/tools\/\*\/\*\.ts \(5 files\) holds name: "missing_tool"/,
  );
  assert.throws(
    () => declaredIn(["twice"], sources),
    /twice.*occurs 2 times.*src\/tools\/b\/three\.ts \(2 times\)/,
  );
  assert.throws(
    () => declaredIn(["spread"], sources),
    /spread.*occurs 2 times.*src\/tools\/b\/four\.ts, src\/tools\/c\/five\.ts/,
  );
});

Deno.test("renderTarget refuses a file that lacks a generated part, or holds one it does not write", () => {
  const declared = declaredIn(CATALOGUE.map((t) => t.name), [{
    path: "src/tools/x/all.ts",
    text: CATALOGUE.map((t) => `name: "${t.name}"`).join("\n"),
  }]);
  const readme: Target = { file: "R.md", blocks: ["toolsets"], checkLine: true };
  const page: Target = { file: "P.md", blocks: ["tools"], checkLine: false };
  const block = (name: string) => `<!-- ${name}:start -->\n<!-- ${name}:end -->\n`;
  assert.throws(() => renderTarget(readme, "✓ tools old\n", declared), /R\.md.*toolsets:start/);
  assert.throws(() => renderTarget(readme, block("toolsets"), declared), /R\.md holds 0 sample/);
  assert.throws(
    () => renderTarget(page, block("tools") + "✓ tools old\n", declared),
    /P\.md holds 1 sample.*none/,
  );
  assert.throws(
    () => renderTarget(page, block("tools") + block("toolsets"), declared),
    /P\.md holds a toolsets block/,
  );
  assert.throws(
    () => renderTarget(page, block("tools") + block("tools"), declared),
    /P\.md: it needs exactly one/,
  );
  const written = renderTarget(readme, `${block("toolsets")}\n✓ tools old\n`, declared);
  assert.match(written, /\| `refs` +\| branches, tags/);
  assert.doesNotMatch(written, /✓ tools old/);
  assert.match(written, /^✓ tools +\d+ of \d+ tools exposed/m);
});
