/**
 * The docs' writer of `deno task generate`: writes every generated part of
 * the docs from the catalogue, so the docs can never say something the code
 * does not:
 *
 * - README.md: the `default` set's table (between `<!-- default:start -->`
 *   and `<!-- default:end -->`: each step of the review loop, why, its
 *   tools), the toolsets table (between `<!-- toolsets:start -->` and
 *   `<!-- toolsets:end -->`, the `default` set's tools in bold) and the
 *   `✓ tools` line of the sample `check` run;
 * - docs/tools.md: the same two tables and the tools table (between
 *   `<!-- tools:start -->` and `<!-- tools:end -->`), whose last column names
 *   the file under `src/tools/<toolset>/` that declares each tool.
 *
 * A test (tests/docs/generated_test.ts) fails, showing the diff, when a file
 * differs from what this writes.
 */
import { CATALOGUE, TOOLSETS } from "../src/tools/catalogue.ts";
import { LOOP_STEPS, type LoopStep } from "../src/tools/kit/default_set.ts";
import { checkTools, formatCheckLine } from "../src/cli/check.ts";
import { parseFlags } from "../src/cli/flags.ts";
import { writeErr, writeOut } from "../src/cli/output.ts";

/** A Markdown table laid out as `deno fmt` lays one out: every column padded to its widest cell. */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The toolsets table: each toolset with its tools in catalogue order, those of the `default` set in bold. */
export function toolsetsTable(): string {
  return markdownTable(
    ["toolset", "what for", "tools (**bold**: in `default`)"],
    TOOLSETS.map((set) => [
      `\`${set.name}\``,
      set.description,
      set.tools.map((t) => t.defaultFor ? `**${t.name}**` : t.name).join(", "),
    ]),
  );
}

/** The `default` set's table: each step of the review loop, what it is for, and the tools serving it. */
export function defaultTable(): string {
  return markdownTable(
    ["step", "why", "tools"],
    (Object.entries(LOOP_STEPS) as [LoopStep, string][]).map(([step, why]) => [
      `\`${step}\``,
      why,
      CATALOGUE.filter((t) => t.defaultFor === step).map((t) => t.name).join(", "),
    ]),
  );
}

/**
 * The tools table: every tool in catalogue order, with its access, its
 * toolset, for a write why, and the file declaring it (`declared` maps a tool
 * name to its path from the repository root; see {@link declaredIn}). The
 * file is a link relative to docs/, where the table lives.
 */
export function toolsTable(declared: ReadonlyMap<string, string>): string {
  return markdownTable(
    ["tool", "access", "toolset", "default", "what it does", "why this access", "declared in"],
    CATALOGUE.map((tool) => {
      const path = declared.get(tool.name);
      if (path === undefined) throw new Error(`No declaring file given for the tool ${tool.name}`);
      return [
        `\`${tool.name}\``,
        tool.access.level,
        tool.toolset,
        tool.defaultFor ?? "",
        tool.description,
        tool.access.level === "read-only" ? "" : tool.access.why,
        `[\`${path}\`](../${path})`,
      ];
    }),
  );
}

/** A source file, by its path from the repository root. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/** Where tools are declared: `src/tools/<folder>/<file>.ts`, one level down. */
export const TOOL_SOURCES = "src/tools/*/*.ts";

/**
 * The file each named tool is declared in: the one file whose text holds
 * `name: "<tool>"` (as `defineTool({ name: "list_branches", ... })` writes
 * it). Throws, naming the tool and what was found, when that text occurs in
 * no file or more than once.
 */
export function declaredIn(
  names: readonly string[],
  sources: readonly SourceFile[],
): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of names) {
    const needle = `name: ${JSON.stringify(name)}`;
    const hits = sources
      .map((file) => ({ path: file.path, count: file.text.split(needle).length - 1 }))
      .filter((hit) => hit.count > 0);
    const total = hits.reduce((n, hit) => n + hit.count, 0);
    if (total === 0) {
      throw new Error(
        `Cannot find where the tool ${name} is declared: no file of ${TOOL_SOURCES} ` +
          `(${sources.length} files) holds ${needle}`,
      );
    }
    if (total > 1) {
      const where = hits.map((hit) =>
        hit.count > 1 ? `${hit.path} (${hit.count} times)` : hit.path
      );
      throw new Error(
        `Cannot tell where the tool ${name} is declared: ${needle} occurs ${total} times in ` +
          `${TOOL_SOURCES}: ${where.join(", ")}`,
      );
    }
    found.set(name, hits[0]!.path);
  }
  return found;
}

/** Every file of {@link TOOL_SOURCES} under the repository at `root`, in path order. */
export async function readToolSources(root: URL): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  const tools = new URL("src/tools/", root);
  for await (const folder of Deno.readDir(tools)) {
    if (!folder.isDirectory) continue;
    for await (const entry of Deno.readDir(new URL(`${folder.name}/`, tools))) {
      if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
      const path = `src/tools/${folder.name}/${entry.name}`;
      files.push({ path, text: await Deno.readTextFile(new URL(path, root)) });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The `tools` line of the sample `check` run, as `check` prints it with no flags. */
export function checkToolsLine(): string {
  return formatCheckLine(checkTools(parseFlags(["check"])));
}

/** The marked blocks this script knows how to write. */
export type Block = "default" | "toolsets" | "tools";

/** A file with generated parts: which marked blocks it holds, and whether it holds the sample `✓ tools` line. */
export interface Target {
  /** Path from the repository root. */
  readonly file: string;
  readonly blocks: readonly Block[];
  readonly checkLine: boolean;
}

/** Every file this script writes, and what it writes in each. */
export const TARGETS: readonly Target[] = [
  { file: "README.md", blocks: ["default", "toolsets"], checkLine: true },
  { file: "docs/tools.md", blocks: ["default", "toolsets", "tools"], checkLine: false },
];

const BLOCKS: readonly Block[] = ["default", "toolsets", "tools"];
const CHECK_LINE = /^✓ tools .*$/gm;

/** Replaces what stands between `<!-- name:start -->` and `<!-- name:end -->`, which must occur once each. */
function between(file: string, text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (
    from < 0 || to < from || text.indexOf(start, from + 1) >= 0 || text.indexOf(end, to + 1) >= 0
  ) {
    throw new Error(`Cannot write ${file}: it needs exactly one ${start} … ${end} pair`);
  }
  return `${text.slice(0, from + start.length)}\n\n${content}\n\n${text.slice(to)}`;
}

/**
 * A target file as this script writes it: its generated parts made anew.
 * Throws when a part it should hold is missing, and when it holds a generated
 * part its target does not name (which would otherwise go stale unnoticed).
 */
export function renderTarget(
  target: Target,
  text: string,
  declared: ReadonlyMap<string, string>,
): string {
  const content: Record<Block, () => string> = {
    default: defaultTable,
    toolsets: toolsetsTable,
    tools: () => toolsTable(declared),
  };
  for (const block of BLOCKS) {
    if (!target.blocks.includes(block) && text.includes(`<!-- ${block}:start -->`)) {
      throw new Error(`${target.file} holds a ${block} block that scripts/docs.ts does not write`);
    }
  }
  let out = text;
  for (const block of target.blocks) out = between(target.file, out, block, content[block]());
  const lines = out.match(CHECK_LINE)?.length ?? 0;
  if (target.checkLine ? lines !== 1 : lines !== 0) {
    throw new Error(
      `${target.file} holds ${lines} sample \`✓ tools\` check lines; scripts/docs.ts writes ` +
        `${target.checkLine ? "exactly one" : "none"} there`,
    );
  }
  return target.checkLine ? out.replace(CHECK_LINE, checkToolsLine()) : out;
}

/** The repository root, from this script's place in it. */
export const ROOT = new URL("../", import.meta.url);

/** Every target as it is and as this script writes it. */
export async function renderAll(
  root: URL = ROOT,
): Promise<{ target: Target; before: string; after: string }[]> {
  const declared = declaredIn(CATALOGUE.map((t) => t.name), await readToolSources(root));
  return await Promise.all(TARGETS.map(async (target) => {
    const before = await Deno.readTextFile(new URL(target.file, root));
    return { target, before, after: renderTarget(target, before, declared) };
  }));
}

if (import.meta.main) {
  const changed: string[] = [];
  for (const { target, before, after } of await renderAll()) {
    if (after === before) continue;
    await Deno.writeTextFile(new URL(target.file, ROOT), after);
    changed.push(target.file);
  }
  const files = TARGETS.map((t) => t.file).join(", ");
  if (changed.length === 0) writeOut(`${files}: up to date`);
  else writeErr(`${changed.join(", ")}: generated tables rewritten from the catalogue`);
}
