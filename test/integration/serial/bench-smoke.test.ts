// test/integration/serial/bench-smoke.test.ts — `npm run bench:smoke` keeps working: the feed benchmark
// runs end to end in its tiny configuration on the real stack and leaves a JSON result in which
// every metric is a finite number. It checks that the benchmark MEASURES, never that performance
// targets pass (performance is reported by the bench command, not asserted by tests). The one
// exception is correctness under load: the hot-post phase's like count must be exact.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

const outDir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
/** The per-route table's route classes, as the ids of their figures spell them (test/bench/feed/routes.ts). */
const ROUTES = [
  'get_home_timeline',
  'get_home_timeline_celebrity_reader',
  'get_profile_page',
  'get_an_author_s_posts',
  'get_post_detail',
  'get_likers_hot_post',
  'get_followers_list',
  'get_notifications',
  'post_publish',
  'put_like',
  'put_follow',
];

/** The smoke profile's group cases (test/bench/feed/settings.ts): ordinary groups, then 特别关注 fans. */
const GROUP_CASES = ['groups_10', 'groups_40', 'special_3', 'special_10'];

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
      settings: { hotLikers: number };
      timeline: {
        floorShape: string;
        floorRequestsPerPage: { max: number };
        floorSequentialRoundTrips: { max: number };
        likedPerPage: { mean: number };
        seeded: { likes: number };
      };
      routes: {
        floor: { medianMs: number; p99Ms: number };
        routes: { route: string; samples: number; requests: { max: number }; sequentialRoundTrips: { max: number } }[];
      };
      hotPost: {
        likers: number;
        exact: boolean;
        first: { errors: number; likeCount: number; likersListed: number; likersMatching: number };
        repeat: { errors: number; likeCount: number; likersListed: number; likersMatching: number };
      };
    };
    expect(result.profile).toBe('smoke');

    const metrics = Object.entries(result.metrics);
    expect(metrics.length).toBeGreaterThan(30);
    for (const [name, value] of metrics) expect(Number.isFinite(value), `metric ${name} = ${String(value)}`).toBe(true);
    for (const name of [
      'floor_row_get_p99_ms',
      'floor_multiget20_p99_ms',
      'floor_put_1000_cells_per_s',
      'floor_timeline_p99_ms',
      'timeline_p99_ratio',
      'timeline_requests_per_page_max',
      'fanout_ratio',
      'fanout_large_ratio',
      'fanout_cold_ratio',
      'fanout_large_cold_ratio',
      'fanout_requests_per_post',
      ...GROUP_CASES.map((c) => `fanout_${c}_ratio`),
      'special_10_notice_ms_median',
      'lag_last_follower_ms_median',
      'lag_last_follower_ms_p99',
      'backfill_rows_ratio',
      'backfill_ours_wall_ms',
      'backfill_seed_wall_ms',
      'backfill_seed_rows_examined',
      'seed_read_p50_ms',
      'seed_read_ours_p99_ms',
      'memory_peak_rss_ratio',
      'timeline_liked_per_page_mean',
      'hot_post_likes_per_s',
      'hot_post_like_p50_ms',
      'hot_post_like_p99_ms',
      'hot_post_like_count',
      'hot_post_repeat_like_count',
      'newer_check_p50_ratio',
      'newer_check_sequential_round_trips_max',
      ...ROUTES.flatMap((r) => [
        `route_${r}_p50_ms`,
        `route_${r}_p99_ms`,
        `route_${r}_p99_ratio`,
        `route_${r}_requests_max`,
        `route_${r}_round_trips_max`,
      ]),
    ]) {
      expect(result.metrics, name).toHaveProperty(name);
    }

    expect(result.targets.map((t) => t.id).sort()).toEqual(
      [
        'backfill_ratio',
        'fanout_ratio',
        'fanout_ratio_cold',
        'fanout_ratio_large',
        'fanout_ratio_large_cold',
        ...GROUP_CASES.map((c) => `fanout_ratio_${c}`),
        'special_notice_ms_3',
        'special_notice_ms_10',
        'lag_p50',
        'lag_p99',
        'hot_post_like_count',
        'hot_post_like_count_repeat',
        'hot_post_likers',
        'memory_ratio',
        'memory_retained_ratio',
        'memory_peak_rss_share',
        'newer_check_ratio',
        'newer_check_sequential_round_trips',
        'seed_read_p50_ratio',
        'seed_read_p99_ratio',
        'timeline_p99_ratio',
        'timeline_sequential_round_trips',
        ...ROUTES.flatMap((r) => [`route_${r}_round_trips`, `route_${r}_p99_ratio`]),
      ].sort(),
    );
    for (const t of result.targets) {
      expect(Number.isFinite(t.value), `target ${t.id} value`).toBe(true);
      expect(Number.isFinite(t.target), `target ${t.id} target`).toBe(true);
      expect(typeof t.pass).toBe('boolean');
    }

    // The timeline is compared with a floor of its own shape, on pages whose readers liked some posts.
    expect(result.timeline.floorShape).toBe('inbox get + 3 parallel multi-gets');
    expect(result.timeline.floorRequestsPerPage.max, 'floor: inbox get, content, reactions and blocks multi-gets').toBe(
      4,
    );
    expect(result.timeline.floorSequentialRoundTrips.max, 'floor: the three multi-gets overlap').toBe(2);
    expect(result.timeline.seeded.likes).toBeGreaterThan(0);
    expect(result.timeline.likedPerPage.mean, "the state multi-get found the reader's likes").toBeGreaterThan(0);

    // Every route class was driven and charged with what it sent (each reaches HBase at least once).
    expect(result.routes.floor.p99Ms).toBeGreaterThan(0);
    for (const r of result.routes.routes) {
      expect(r.samples, r.route).toBeGreaterThan(0);
      expect(r.requests.max, r.route).toBeGreaterThanOrEqual(1);
      expect(r.sequentialRoundTrips.max, r.route).toBeGreaterThanOrEqual(1);
    }

    // Hot post: every one of the concurrent likes counted exactly once, and liking again changed nothing.
    const hot = result.hotPost;
    expect(hot.likers).toBe(result.settings.hotLikers);
    expect(hot.likers).toBeGreaterThanOrEqual(100);
    for (const [name, r] of [
      ['first round', hot.first],
      ['repeat round', hot.repeat],
    ] as const) {
      expect({
        name,
        errors: r.errors,
        likeCount: r.likeCount,
        likersListed: r.likersListed,
        likersMatching: r.likersMatching,
      }).toEqual({
        name,
        errors: 0,
        likeCount: hot.likers,
        likersListed: hot.likers,
        likersMatching: hot.likers,
      });
    }
    expect(hot.exact).toBe(true);
    for (const id of ['hot_post_like_count', 'hot_post_likers', 'hot_post_like_count_repeat']) {
      expect(
        result.targets.find((t) => t.id === id),
        id,
      ).toMatchObject({ value: hot.likers, target: hot.likers, pass: true });
    }

    // Each post of an author kept in 特别关注 wrote a special notice for every such fan.
    expect(result.metrics).toMatchObject({ special_3_notices_per_post: 3, special_10_notices_per_post: 10 });

    expect(readFileSync(join(outDir, 'feed-bench.svg'), 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
    expect(stdout).toContain('measured');
  }, 300_000);
});
