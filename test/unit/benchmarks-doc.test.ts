// test/unit/benchmarks-doc.test.ts — docs/benchmarks.md is what `npm run docs:benchmarks` writes
// from the results in docs/bench/*.json today: the figures people read are the last run's, never
// a copy kept by hand.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BENCH_DIR,
  BENCHMARKS_PAGE,
  refreshBenchmarksPage,
  renderBenchmarks,
} from '../../infra/docs/benchmarks-document.js';

const STALE = 'stale: run `npm run docs:benchmarks` and commit the result';

describe('docs/benchmarks.md', () => {
  it(`is the page generated from docs/bench/*.json (${STALE})`, () => {
    expect(readFileSync(BENCHMARKS_PAGE, 'utf8'), STALE).toBe(renderBenchmarks(BENCH_DIR));
  });

  it('explains every benchmark and says so where a result is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'bench-empty-'));
    try {
      const page = renderBenchmarks(empty);
      for (const command of [
        'npm run bench`',
        'npm run bench:media',
        'npm run bench:regions',
        'npm run bench:live',
        'npm run bench:search',
        'npm run bench:hbase',
        'npm run bench:cold',
      ]) {
        expect(page).toContain(command);
      }
      expect(page).toContain('No result in `docs/bench/feed-bench.json` yet');
    } finally {
      rmSync(empty, { recursive: true });
    }
  });

  it('is rewritten only by runs that write into docs/bench (a smoke run writes elsewhere)', () => {
    expect(refreshBenchmarksPage('bench-results')).toBe(false);
  });
});
