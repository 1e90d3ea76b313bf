/** Summary statistics for a set of samples: what every bench figure is reported as. */
export interface Summary {
  min: number;
  median: number;
  max: number;
  p95?: number;
  p99?: number;
}

/** The q-quantile (0..1) of sorted samples, by nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

/** Min, median and max (and p95/p99 when asked) of the samples. */
export function summarize(samples: number[], percentiles = false): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const summary: Summary = {
    min: sorted[0] ?? NaN,
    median: quantile(sorted, 0.5),
    max: sorted[sorted.length - 1] ?? NaN,
  };
  if (percentiles) {
    summary.p95 = quantile(sorted, 0.95);
    summary.p99 = quantile(sorted, 0.99);
  }
  return summary;
}

/** Ratios of paired samples a[i]/b[i], so that machine drift between pairs cancels out. */
export function pairedRatios(a: number[], b: number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}
