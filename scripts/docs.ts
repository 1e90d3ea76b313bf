/**
 * `deno task docs`: writes the README's toolsets and tools tables from the
 * catalogue, between the `<!-- toolsets:start -->`/`<!-- tools:start -->`
 * markers, and the sample `check` run's tools line, so the README can never
 * say something the code does not. A test
 * (tests/docs_test.ts) fails, showing the diff, when the README differs from
 * what this writes.
 */
import { CATALOGUE, toolsetOf, TOOLSETS } from "../src/tools/catalogue.ts";
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

/** The toolsets table: each toolset with its tools in catalogue order. */
export function toolsetsTable(): string {
  return markdownTable(
    ["toolset", "what for", "tools"],
    TOOLSETS.map((set) => [
      `\`${set.name}\``,
      set.description,
      set.tools.map((t) => t.name).join(", "),
    ]),
  );
}

/** The tools table: every tool in catalogue order, with its access, its toolset and, for a write, why. */
export function toolsTable(): string {
  return markdownTable(
    ["tool", "access", "toolset", "what it does", "why this access"],
    CATALOGUE.map((tool) => [
      `\`${tool.name}\``,
      tool.access.level,
      toolsetOf(tool) ?? "",
      tool.description,
      tool.access.level === "read-only" ? "" : tool.access.why,
    ]),
  );
}

/** Replaces what stands between `<!-- name:start -->` and `<!-- name:end -->`. */
function between(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`Cannot write the README: no ${start} … ${end} pair`);
  return `${text.slice(0, from + start.length)}\n\n${content}\n\n${text.slice(to)}`;
}

/** The `tools` line of the sample `check` run, as `check` prints it with no flags. */
export function checkToolsLine(): string {
  return formatCheckLine(checkTools(parseFlags(["check"])));
}

/** The README as `deno task docs` writes it: its generated tables and sample `check` line made anew. */
export function renderReadme(readme: string): string {
  const tables = between(between(readme, "toolsets", toolsetsTable()), "tools", toolsTable());
  return tables.replace(/^✓ tools .*$/m, checkToolsLine());
}

if (import.meta.main) {
  const file = new URL("../README.md", import.meta.url);
  const before = await Deno.readTextFile(file);
  const after = renderReadme(before);
  if (after === before) {
    writeOut("README.md is up to date");
  } else {
    await Deno.writeTextFile(file, after);
    writeErr("README.md: toolsets and tools tables rewritten from the catalogue");
  }
}
