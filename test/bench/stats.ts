// test/bench/stats.ts — small helpers every benchmark shares: timing, percentiles, a table.
import { performance } from 'node:perf_hooks';

export interface LatencySummary {
  n: number;
  medianMs: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
}

/** Nearest-rank percentile of an unsorted sample. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) throw new RangeError('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: number[]): LatencySummary {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: samples.length,
    medianMs: round(percentile(samples, 50)),
    p99Ms: round(percentile(samples, 99)),
    minMs: round(Math.min(...samples)),
    maxMs: round(Math.max(...samples)),
  };
}

/** Runs `op` `warmup` times untimed, then `reps` times timed, one after another. */
export async function timeRepeated(
  reps: number,
  warmup: number,
  op: (i: number) => Promise<unknown>,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await op(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await op(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}

export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((v, c) => (c === 0 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}
