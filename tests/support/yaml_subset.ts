/**
 * A reader for the YAML subset the Kubernetes example is written in, so that the deploy test
 * can check the manifests without a YAML dependency: `---` documents, `#` comments, block
 * mappings and sequences (a sequence may sit at its key's indent), plain and quoted scalars
 * (numbers and booleans typed as YAML 1.2's core schema does), and `[a, b]`, `[]`, `{}`. Anything
 * else (anchors, block scalars, flow mappings with content, tabs) is an error naming the line,
 * so a manifest never parses into something it does not say.
 */

interface Line {
  number: number;
  indent: number;
  text: string;
}

/** A line's text without a trailing comment (a `#` after a space, outside quotes). */
function withoutComment(text: string): string {
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "#" && (i === 0 || text[i - 1] === " ")) {
      return text.slice(0, i).trimEnd();
    }
  }
  return text.trimEnd();
}

function fail(line: Line | undefined, message: string): never {
  throw new Error(`YAML line ${line?.number ?? "end"}: ${message}`);
}

/** The items of a flow sequence's inside, split at commas outside quotes. */
function flowItems(inner: string): string[] {
  const items = [""];
  let quote = "";
  for (const c of inner) {
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ",") {
      items.push("");
      continue;
    }
    items[items.length - 1] += c;
  }
  return items;
}

/** A scalar or a one-line flow sequence. */
function scalar(raw: string, line: Line): unknown {
  const text = raw.trim();
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) fail(line, `unterminated string ${text}`);
    return JSON.parse(text);
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) fail(line, `unterminated string ${text}`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (text === "{}") return {};
  if (text.startsWith("[")) {
    if (!text.endsWith("]")) fail(line, `unterminated flow sequence ${text}`);
    const inner = text.slice(1, -1).trim();
    return inner === "" ? [] : flowItems(inner).map((item) => scalar(item, line));
  }
  if (/^[&*!|>{]/.test(text)) fail(line, `unsupported YAML: ${text}`);
  if (text === "true" || text === "false") return text === "true";
  if (text === "null" || text === "~" || text === "") return null;
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text)) return Number(text);
  return text;
}

/** `key: rest` of a mapping line, or undefined when the line is no mapping entry. */
function entry(text: string): { key: string; rest: string } | undefined {
  const match = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'#][^:]*?):(?:\s+(.*))?$/.exec(text);
  if (!match) return undefined;
  const key = match[1]!;
  return {
    key: key.startsWith('"') ? JSON.parse(key) : key.replace(/^'(.*)'$/, "$1"),
    rest: match[2] ?? "",
  };
}

const isItem = (text: string) => text === "-" || text.startsWith("- ");

/** Parses the block node at `lines[at]` (indented `indent`); returns it and the next line. */
function node(lines: Line[], at: number, indent: number): [unknown, number] {
  const first = lines[at];
  if (first === undefined || first.indent < indent) return [null, at];
  if (isItem(first.text)) return sequence(lines, at, first.indent);
  return mapping(lines, at, first.indent);
}

function sequence(lines: Line[], at: number, indent: number): [unknown[], number] {
  const items: unknown[] = [];
  let i = at;
  while (i < lines.length && lines[i]!.indent === indent && isItem(lines[i]!.text)) {
    const line = lines[i]!;
    const content = line.text.slice(1).trimStart();
    if (content === "") {
      const [value, next] = node(lines, i + 1, indent + 1);
      items.push(value);
      i = next;
    } else if (entry(content) !== undefined) {
      // `- key: value`: a mapping whose first entry sits where `key` starts.
      const inner = indent + (line.text.length - content.length);
      const rest = [...lines.slice(0, i), { ...line, indent: inner, text: content }];
      const [value, next] = mapping([...rest, ...lines.slice(i + 1)], i, inner);
      items.push(value);
      i = next;
    } else {
      items.push(scalar(content, line));
      i++;
    }
  }
  return [items, i];
}

function mapping(lines: Line[], at: number, indent: number): [Record<string, unknown>, number] {
  const map: Record<string, unknown> = {};
  let i = at;
  while (i < lines.length && lines[i]!.indent === indent && !isItem(lines[i]!.text)) {
    const line = lines[i]!;
    const found = entry(line.text);
    if (found === undefined) fail(line, `expected "key: value", not ${line.text}`);
    if (found.key in map) fail(line, `duplicate key ${found.key}`);
    if (found.rest !== "") {
      map[found.key] = scalar(found.rest, line);
      i++;
      continue;
    }
    const next = lines[i + 1];
    if (
      next !== undefined && (next.indent > indent || (next.indent === indent && isItem(next.text)))
    ) {
      [map[found.key], i] = node(lines, i + 1, next.indent);
    } else {
      map[found.key] = null;
      i++;
    }
  }
  return [map, i];
}

/** Parses every document of a YAML text (in the subset above). */
export function parseYamlDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  for (const part of text.split(/^---[ \t]*$/m)) {
    const lines: Line[] = [];
    let number = 0;
    for (const raw of part.split("\n")) {
      number++;
      if (raw.includes("\t")) fail({ number, indent: 0, text: raw }, "tabs are not allowed");
      const text = withoutComment(raw);
      if (text.trim() === "") continue;
      lines.push({ number, indent: text.length - text.trimStart().length, text: text.trim() });
    }
    if (lines.length === 0) continue;
    const [value, next] = node(lines, 0, 0);
    if (next < lines.length) fail(lines[next], `unexpected indentation: ${lines[next]!.text}`);
    documents.push(value);
  }
  return documents;
}
