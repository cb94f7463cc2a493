// test/integration/bench-smoke.test.ts — `npm run bench:smoke` keeps working: the feed benchmark
// runs end to end in its tiny configuration on the real stack and leaves a JSON result in which
// every metric is a finite number. It checks that the benchmark MEASURES, never that targets
// pass (performance is reported by the bench command, not asserted by tests).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

const outDir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function runSmoke(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'test/bench/feed.bench.ts'], {
      env: {
        ...process.env,
        BENCH_PROFILE: 'smoke',
        BENCH_OUT_DIR: outDir,
        BENCH_OUT_NAME: 'feed-bench',
        HBASE_REST_URL: inject('hbaseRestUrl'),
        SQS_ENDPOINT: inject('sqsEndpoint'),
      },
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

describe('npm run bench:smoke', () => {
  it('measures every figure and writes the JSON and the chart', async () => {
    const { code, stdout, stderr } = await runSmoke();
    expect(code, `bench exited ${code}\n${stderr.slice(-3000)}`).toBe(0);

    const jsonPath = join(outDir, 'feed-bench.json');
    expect(existsSync(jsonPath)).toBe(true);
    const result = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
      profile: string;
      metrics: Record<string, unknown>;
      targets: { id: string; value: unknown; target: unknown; pass: unknown }[];
    };
    expect(result.profile).toBe('smoke');

    const metrics = Object.entries(result.metrics);
    expect(metrics.length).toBeGreaterThan(30);
    for (const [name, value] of metrics) expect(Number.isFinite(value), `metric ${name} = ${String(value)}`).toBe(true);
    for (const name of [
      'floor_row_get_p99_ms',
      'floor_multiget20_p99_ms',
      'floor_put_1000_cells_per_s',
      'floor_two_request_p99_ms',
      'timeline_p99_ratio',
      'timeline_requests_per_page_max',
      'fanout_ratio',
      'lag_last_follower_ms_median',
      'backfill_rows_ratio',
      'backfill_ours_wall_ms',
      'backfill_seed_wall_ms',
      'memory_peak_rss_ratio',
    ]) {
      expect(result.metrics, name).toHaveProperty(name);
    }

    expect(result.targets.map((t) => t.id).sort()).toEqual(
      ['backfill_ratio', 'fanout_ratio', 'memory_ratio', 'timeline_p99_ratio', 'timeline_sequential_round_trips'].sort(),
    );
    for (const t of result.targets) {
      expect(Number.isFinite(t.value), `target ${t.id} value`).toBe(true);
      expect(Number.isFinite(t.target), `target ${t.id} target`).toBe(true);
      expect(typeof t.pass).toBe('boolean');
    }

    expect(readFileSync(join(outDir, 'feed-bench.svg'), 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
    expect(stdout).toContain('measured');
  }, 300_000);
});
