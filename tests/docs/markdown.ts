/**
 * Reading the docs' Markdown the way GitHub renders it, for the docs tests:
 * fenced blocks, sections, tables, headings' anchors and relative links.
 */

/** The repository root, from this file's place in it (tests/docs/). */
export const ROOT = new URL("../../", import.meta.url);

/** A file of the repository, by its path from the root. */
export function readRepoFile(path: string): string {
  return Deno.readTextFileSync(new URL(path, ROOT));
}

/** The docs pages: every `docs/*.md`, as paths from the root, in name order. */
export function docsPages(): string[] {
  return [...Deno.readDirSync(new URL("docs/", ROOT))]
    .filter((entry) => entry.isFile && entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`)
    .sort();
}

/** A fenced code block: its info string (`sh`, `json`, …, or empty), its body, and its opening and closing lines (1-based). */
export interface Fence {
  readonly lang: string;
  readonly body: string;
  readonly line: number;
  readonly endLine: number;
}

/** Every fenced code block (``` or ~~~), in order. */
export function fences(markdown: string): Fence[] {
  const found: Fence[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const marker = open[1]!;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(marker)) end++;
    found.push({
      lang: open[2]!,
      body: lines.slice(i + 1, end).join("\n"),
      line: i + 1,
      endLine: Math.min(end, lines.length - 1) + 1,
    });
    i = end;
  }
  return found;
}

/** The text with fenced blocks blanked out (their lines kept empty, so line numbers hold). */
export function withoutFences(markdown: string): string {
  const lines = markdown.split("\n");
  for (const fence of fences(markdown)) {
    for (let i = fence.line - 1; i < fence.endLine; i++) lines[i] = "";
  }
  return lines.join("\n");
}

/** A heading outside code blocks: its level, its text as written, and its line (1-based). */
export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly line: number;
}

/** Every ATX heading (`#` … `######`) outside fenced blocks, in order. */
export function headings(markdown: string): Heading[] {
  return withoutFences(markdown).split("\n").flatMap((line, i) => {
    const m = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    return m ? [{ level: m[1]!.length, text: m[2]!, line: i + 1 }] : [];
  });
}

/**
 * The anchor GitHub gives a heading: its rendered text (links as their text,
 * code without backticks), lowercased, every character that is not a letter,
 * digit, space, `-` or `_` dropped, and each space made a `-`.
 */
export function githubAnchor(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "");
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page's headings give, GitHub's way: a repeated one gets `-1`, `-2`, … */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const heading of headings(markdown)) {
    const base = githubAnchor(heading.text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** A link outside code: where it points, as written, and its line (1-based). */
export interface Link {
  readonly target: string;
  readonly line: number;
}

/** Every inline link or image (`[text](target)`, `![alt](target)`) outside code blocks and code spans. */
export function links(markdown: string): Link[] {
  const prose = withoutFences(markdown).replace(
    /(`+)[\s\S]*?\1/g,
    (code) => code.replace(/[^\n]/g, " "),
  );
  const found: Link[] = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ target: m[1]!, line: prose.slice(0, m.index).split("\n").length });
  }
  return found;
}

/** Whether a link leaves the repository: it has a scheme (`https:`, `mailto:`, …) or is protocol-relative. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/** The body of the section under the heading with this exact text, up to the next heading of its level or higher. */
export function section(markdown: string, heading: string): string {
  const all = headings(markdown);
  const at = all.findIndex((h) => h.text === heading);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const start = all[at]!;
  const next = all.slice(at + 1).find((h) => h.level <= start.level);
  const lines = markdown.split("\n");
  return lines.slice(start.line, next ? next.line - 1 : lines.length).join("\n");
}

/** The cells of each body row of every table in `markdown` (the header and its `---` row left out). */
export function tableRows(markdown: string): string[][] {
  const rows: string[][] = [];
  const lines = withoutFences(markdown).split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("|") || !/^\|[\s|:-]+\|$/.test(lines[i + 1] ?? "")) continue;
    for (i += 2; i < lines.length && lines[i]!.startsWith("|"); i++) {
      rows.push(lines[i]!.slice(1, -1).split("|").map((cell) => cell.trim()));
    }
  }
  return rows;
}
