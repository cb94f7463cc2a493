// test/integration/search-bench-smoke.test.ts — `npm run bench:search -- --smoke` keeps working:
// the search benchmark runs end to end in its tiny configuration on the real stack and writes a
// JSON result in which every figure is measured. It checks that the bench MEASURES, never how
// fast search is (the bench command reports that); the one exception is what search must do:
// every query finds posts, and a published post is found by the first search after it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

const outDir = mkdtempSync(join(tmpdir(), 'search-bench-smoke-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function runSmoke(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'test/bench/search.bench.ts', '--smoke'], {
      env: { ...process.env, BENCH_OUT_DIR: outDir, HBASE_REST_URL: inject('hbaseRestUrl') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Figure {
  posts: number;
  holding: number;
  shown: number;
  roundTrips: number;
  latency: { n: number; medianMs: number; p99Ms: number };
}

describe('npm run bench:search -- --smoke', () => {
  it('measures the index size, three queries at two corpus sizes, publish → searchable and the hot job', async () => {
    const { code, stdout, stderr } = await runSmoke();
    expect(code, `bench exited ${code}\n${stderr.slice(-3000)}`).toBe(0);
    const result = JSON.parse(readFileSync(join(outDir, 'search-bench-smoke.json'), 'utf8')) as {
      profile: string;
      settings: { smallPosts: number; posts: number; queryReps: number; lagPosts: number };
      index: Record<string, number | string>;
      queries: { label: string; small: Figure; big: Figure; p50Ratio: number; p99Ratio: number }[];
      lag: { n: number; searchable: { medianMs: number; p99Ms: number }; searchesMax: number };
      hot: { engagements: number; written: number; ranked: number; job: { n: number; medianMs: number } };
    };
    expect(result.profile).toBe('smoke');
    const { settings: s, index } = result;
    for (const name of ['entriesPerPost', 'cellBytesPerPost', 'keyValueBytesPerPost', 'storeFileBytesPerPost'])
      expect(index[name], `${name} (${String(index.storeFileUnavailable ?? '')})`).toBeGreaterThan(0);
    expect(index.keyValueBytesPerPost).toBeGreaterThan(index.cellBytesPerPost as number);

    expect(result.queries.map((q) => q.label)).toEqual(['rare word', 'common word', 'two words']);
    for (const q of result.queries) {
      for (const [size, f] of [
        [s.smallPosts, q.small],
        [s.posts, q.big],
      ] as const) {
        expect(f.posts, q.label).toBe(size);
        expect(f.latency.n, q.label).toBe(s.queryReps);
        expect(f.latency.p99Ms, q.label).toBeGreaterThan(0);
        // Every query's words are in the corpus, so a first page shows posts, at most 2 round trips.
        expect(f.holding, q.label).toBeGreaterThan(0);
        expect(f.shown, q.label).toBeGreaterThan(0);
        expect(f.roundTrips, q.label).toBeLessThanOrEqual(2);
      }
      expect(Number.isFinite(q.p50Ratio) && Number.isFinite(q.p99Ratio), q.label).toBe(true);
    }
    expect(result.lag.n).toBe(s.lagPosts);
    expect(result.lag.searchesMax, 'the entries are written before the post: the first search finds it').toBe(1);
    // The hot job read the day it was given and ranked some of its posts (each needs 3 people).
    expect(result.hot.written).toBeGreaterThan(0);
    expect(result.hot.written).toBeLessThanOrEqual(result.hot.engagements);
    expect(result.hot.ranked).toBeGreaterThan(0);
    expect(result.hot.job.medianMs).toBeGreaterThan(0);
    expect(stdout).toContain('measured in');
  }, 180_000);
});
