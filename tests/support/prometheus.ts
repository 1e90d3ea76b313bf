/**
 * Reads the Prometheus text exposition format (0.0.4) strictly, for the
 * metrics tests: every line is a `# HELP`, a `# TYPE` or a sample
 * `name{label="value",…} value`, anything else throws naming the line.
 */

/** One sample line, its label values unescaped. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A scrape read: its samples, and the HELP and TYPE of each family. */
export interface Scrape {
  samples: Sample[];
  help: Map<string, string>;
  types: Map<string, string>;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const VALUE = String.raw`(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN)`;
const LABEL_VALUE = String.raw`"(?:[^"\\\n]|\\[\\"n])*"`;
const PAIR = `[a-zA-Z_][a-zA-Z0-9_]*=${LABEL_VALUE}`;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${PAIR})(?:,${PAIR})*)?\\})? (${VALUE})$`);
const PAIRS = new RegExp(`([a-zA-Z_][a-zA-Z0-9_]*)=(${LABEL_VALUE})`, "g");

function unescape(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function number(text: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  return Number(text);
}

/** Parses `text`; throws for a line the format does not allow. */
export function parseExposition(text: string): Scrape {
  const scrape: Scrape = { samples: [], help: new Map(), types: new Map() };
  if (!text.endsWith("\n")) throw new Error("the exposition does not end with a newline");
  for (const line of text.slice(0, -1).split("\n")) {
    const help = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    if (help) {
      scrape.help.set(help[1]!, help[2]!);
      continue;
    }
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`)
      .exec(line);
    if (type) {
      scrape.types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a HELP, TYPE or sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? "").matchAll(PAIRS)) labels[key!] = unescape(value!);
    scrape.samples.push({ name: sample[1]!, labels, value: number(sample[3]!) });
  }
  return scrape;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function valueOf(
  scrape: Scrape,
  name: string,
  labels: Record<string, string> = {},
): number {
  const found = scrape.samples.filter((s) =>
    s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} names several samples`);
  return found[0]?.value ?? 0;
}
