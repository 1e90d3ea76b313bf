/**
 * A small metrics registry written for this server alone (no dependency):
 * counters, gauges and histograms with fixed label names, rendered in the
 * Prometheus text exposition format 0.0.4. Label values are escaped as the
 * format says (backslash, double quote, newline), and a family accepts only
 * the label names it was declared with, so nothing a caller sends can add a
 * label.
 */

/** The `Content-Type` of the text exposition format this registry renders. */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** A label value escaped for the exposition format: `\` → `\\`, `"` → `\"`, newline → `\n`. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** A `# HELP` text escaped for the exposition format: `\` → `\\`, newline → `\n`. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** A sample value as the format writes it (`+Inf`, `-Inf`, `NaN` spelled out). */
function formatValue(value: number): string {
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  if (Number.isNaN(value)) return "NaN";
  return String(value);
}

/** `{a="x",b="y"}` for these names and values; empty for none. */
function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return "";
  return `{${names.map((n, i) => `${n}="${escapeLabelValue(values[i] ?? "")}"`).join(",")}}`;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** What every family shares: its name, help, type and label names, and how it renders. */
abstract class Family {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge" | "histogram",
    readonly labelNames: readonly string[],
  ) {
    if (!NAME.test(name)) throw new TypeError(`bad metric name ${name}`);
    for (const label of labelNames) {
      if (!LABEL.test(label) || label.startsWith("__") || label === "le") {
        throw new TypeError(`bad label name ${label} on ${name}`);
      }
    }
  }

  /** The key of one series; throws for a wrong number of label values. */
  protected key(values: readonly string[]): string {
    if (values.length !== this.labelNames.length) {
      throw new TypeError(`${this.name} takes labels ${this.labelNames.join(", ") || "none"}`);
    }
    return values.join("\u0000");
  }

  /** The sample lines, without the HELP and TYPE lines. */
  abstract samples(): string[];

  render(): string {
    const head = `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} ${this.type}\n`;
    const lines = this.samples();
    return lines.length === 0 ? head : `${head}${lines.join("\n")}\n`;
  }
}

/** A family of values by label, rendered as counters or gauges. */
class ValueFamily extends Family {
  readonly #series = new Map<string, { values: readonly string[]; value: number }>();

  protected add(values: readonly string[], by: number): void {
    const key = this.key(values);
    const series = this.#series.get(key);
    if (series) series.value += by;
    else this.#series.set(key, { values: [...values], value: by });
  }

  protected put(values: readonly string[], value: number): void {
    const key = this.key(values);
    const series = this.#series.get(key);
    if (series) series.value = value;
    else this.#series.set(key, { values: [...values], value });
  }

  /** The current value of one series (0 when it has none yet). */
  value(...values: string[]): number {
    return this.#series.get(this.key(values))?.value ?? 0;
  }

  samples(): string[] {
    const lines: string[] = [];
    for (const { values, value } of this.#series.values()) {
      lines.push(`${this.name}${labelText(this.labelNames, values)} ${formatValue(value)}`);
    }
    return lines;
  }
}

/** A count that only goes up. */
export class Counter extends ValueFamily {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, "counter", labelNames);
    if (labelNames.length === 0) this.add([], 0);
  }

  /** Adds `by` (default 1) to the series of these label values. */
  inc(values: readonly string[] = [], by = 1): void {
    if (!(by >= 0)) throw new RangeError(`${this.name} only goes up`);
    this.add(values, by);
  }
}

/** A value that goes up and down, or one read when scraped (`collect`). */
export class Gauge extends ValueFamily {
  readonly #collect: (() => void) | undefined;

  /** `collect`, when given, runs before each render and sets the values then. */
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    collect?: (gauge: Gauge) => void,
  ) {
    super(name, help, "gauge", labelNames);
    this.#collect = collect && (() => collect(this));
    if (labelNames.length === 0) this.put([], 0);
  }

  set(values: readonly string[], value: number): void {
    this.put(values, value);
  }

  inc(values: readonly string[] = [], by = 1): void {
    this.add(values, by);
  }

  dec(values: readonly string[] = [], by = 1): void {
    this.add(values, -by);
  }

  override samples(): string[] {
    this.#collect?.();
    return super.samples();
  }
}

/** Observations counted into fixed buckets, with their sum and count. */
export class Histogram extends Family {
  readonly buckets: readonly number[];
  readonly #series = new Map<
    string,
    { values: readonly string[]; counts: number[]; sum: number; count: number }
  >();

  /** `buckets`: the upper bounds, ascending; `+Inf` is added. */
  constructor(name: string, help: string, labelNames: readonly string[], buckets: number[]) {
    super(name, help, "histogram", labelNames);
    if (buckets.some((b, i) => i > 0 && b <= buckets[i - 1]!)) {
      throw new TypeError(`${name}: buckets must ascend`);
    }
    this.buckets = buckets.filter((b) => b !== Infinity);
  }

  observe(values: readonly string[], value: number): void {
    const key = this.key(values);
    let series = this.#series.get(key);
    if (!series) {
      series = { values: [...values], counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const at = this.buckets.findIndex((bound) => value <= bound);
    if (at >= 0) series.counts[at]!++;
    series.sum += value;
    series.count++;
  }

  /** How many observations one series has. */
  count(...values: string[]): number {
    return this.#series.get(this.key(values))?.count ?? 0;
  }

  samples(): string[] {
    const lines: string[] = [];
    const names = [...this.labelNames, "le"];
    for (const { values, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += counts[i]!;
        const labels = labelText(names, [...values, formatValue(bound)]);
        lines.push(`${this.name}_bucket${labels} ${cumulative}`);
      });
      lines.push(`${this.name}_bucket${labelText(names, [...values, "+Inf"])} ${count}`);
      const own = labelText(this.labelNames, values);
      lines.push(`${this.name}_sum${own} ${formatValue(sum)}`);
      lines.push(`${this.name}_count${own} ${count}`);
    }
    return lines;
  }
}

/** The families of one process, rendered together in the order they were added. */
export class Registry {
  readonly #families: Family[] = [];

  /** Adds `family` (a name may be registered once) and returns it. */
  add<F extends Counter | Gauge | Histogram>(family: F): F {
    if (this.#families.some((f) => f.name === family.name)) {
      throw new TypeError(`metric ${family.name} is registered twice`);
    }
    this.#families.push(family);
    return family;
  }

  /** Every family in the text exposition format. */
  render(): string {
    return this.#families.map((f) => f.render()).join("");
  }
}
