export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / (values.length || 1);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: values.length,
    mean: r(mean),
    p50: r(percentile(sorted, 50)),
    p90: r(percentile(sorted, 90)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted[sorted.length - 1] ?? NaN),
  };
}
