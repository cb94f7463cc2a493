// test/bench/feed/random.ts — a small seeded PRNG and the distributions the synthetic graph
// needs (Zipf-like popularity, log-normal out-degree), so a seed always builds the same graph.

/** mulberry32: fast, 32-bit state, good enough for synthetic data. Returns [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomInt(rand: () => number, lo: number, hiInclusive: number): number {
  return lo + Math.floor(rand() * (hiInclusive - lo + 1));
}

export function randomBytes(rand: () => number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

/** Standard normal by Box–Muller. */
export function normal(rand: () => number): number {
  const u = 1 - rand();
  const v = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Draws ranks 0..n-1 with P(rank r) ∝ 1/(r+1)^s (inverse CDF by binary search). */
export function zipfSampler(n: number, s: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / (r + 1) ** s;
  return () => {
    const u = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** k distinct items of 0..n-1 (k ≤ n), without replacement. */
export function sampleDistinct(rand: () => number, n: number, k: number): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(k, n)) picked.add(Math.floor(rand() * n));
  return [...picked];
}
