/**
 * Renders a tool's payload for a person reading a terminal: indented
 * `key: value` lines, long strings and lists cut short with a note of what
 * was left out, multi-line text (a diff) shown as its first lines.
 */

/** How much of a payload to show. */
export interface RenderLimits {
  /** Items shown of each list. */
  items: number;
  /** Lines shown of a multi-line string. */
  textLines: number;
  /** Characters shown of a one-line string. */
  chars: number;
  /** Nesting shown; deeper objects are summarised. */
  depth: number;
}

/** The default limits: enough to read a payload, short enough to scroll past. */
export const DEFAULT_LIMITS: RenderLimits = { items: 2, textLines: 12, chars: 90, depth: 3 };

function scalar(value: unknown, limits: RenderLimits): string {
  if (typeof value === "string") {
    const text = value.length > limits.chars ? `${value.slice(0, limits.chars)}…` : value;
    return JSON.stringify(text);
  }
  return String(value);
}

function summary(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length} items]`;
  return `{${Object.keys(value as object).join(", ")}}`;
}

/** The lines for `value` under `key`, indented by `indent` spaces. */
function lines(
  key: string,
  value: unknown,
  indent: number,
  depth: number,
  limits: RenderLimits,
): string[] {
  const pad = " ".repeat(indent);
  const label = key === "" ? "" : `${key}: `;
  if (typeof value === "string" && value.includes("\n")) {
    const all = value.replace(/\n$/, "").split("\n");
    const shown = all.slice(0, limits.textLines).map((l) => `${pad}  │ ${l}`);
    const more = all.length - limits.textLines;
    return [
      `${pad}${label}(${all.length} lines)`,
      ...shown,
      ...(more > 0 ? [`${pad}  │ … ${more} more lines`] : []),
    ];
  }
  if (value === null || typeof value !== "object") {
    return [`${pad}${label}${scalar(value, limits)}`];
  }
  if (depth >= limits.depth) return [`${pad}${label}${summary(value)}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}${label}[]`];
    const out = [`${pad}${label}(${value.length} item${value.length === 1 ? "" : "s"})`];
    for (const item of value.slice(0, limits.items)) {
      const inner = lines("", item, indent + 4, depth + 1, limits);
      inner[0] = `${pad}  - ${inner[0]!.trimStart()}`;
      out.push(...inner);
    }
    if (value.length > limits.items) out.push(`${pad}  … ${value.length - limits.items} more`);
    return out;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return [`${pad}${label}{}`];
  const out: string[] = key === "" ? [] : [`${pad}${label.trimEnd()}`];
  const childIndent = key === "" ? indent : indent + 2;
  for (const [k, v] of entries) out.push(...lines(k, v, childIndent, depth + 1, limits));
  return out;
}

/** A named payload (a tool's `structuredContent`) as indented lines. */
export function renderPayload(
  payload: Record<string, unknown>,
  indent = 0,
  limits: RenderLimits = DEFAULT_LIMITS,
): string[] {
  return Object.entries(payload).flatMap(([key, value]) => lines(key, value, indent, 0, limits));
}
