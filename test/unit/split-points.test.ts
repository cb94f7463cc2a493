// test/unit/split-points.test.ts — pre-split tables (issue 13, item 4): each table's split points
// (shared/schema/tables.ts SPLITS, splitPoints), the hbase shell script operators run
// (infra/schema/shell-script.ts), and the stage param regionsPerTable (infra/stage-settings.cjs).
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { hbaseShellScript, rubyBytes } from '../../infra/schema/shell-script.js';
import { compareBytes } from '../../shared/hbase/index.js';
import {
  MAX_REGIONS_PER_TABLE,
  TREND_SHARDS,
  commentPrefix,
  notificationEntryKey,
  notificationGroupKey,
  notificationMemberKey,
  postKey,
  relationKey,
  trendKey,
  trendShardOf,
  userKey,
} from '../../shared/schema/row-keys.js';
import { SPLITS, TABLES, splitPoints, type TableName } from '../../shared/schema/tables.js';
import { decimalStringSplit, quantileSplit } from '../bench/regions/seed-splits.js';

const require = createRequire(import.meta.url);
const { stageSettings } = require('../../infra/stage-settings.cjs') as {
  stageSettings: (stage: string, params: Record<string, unknown>) => { regionsPerTable: number };
};

const tables = Object.keys(TABLES) as TableName[];
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Index of the region a key falls in: the number of split points ≤ key. */
function regionOf(key: Uint8Array, points: Uint8Array[]): number {
  let i = 0;
  while (i < points.length && compareBytes(points[i]!, key) <= 0) i++;
  return i;
}

function spread(keys: Uint8Array[], points: Uint8Array[]): number[] {
  const counts = new Array<number>(points.length + 1).fill(0);
  for (const k of keys) counts[regionOf(k, points)]!++;
  return counts;
}

const maxOverMean = (counts: number[]) => Math.max(...counts) / (counts.reduce((a, b) => a + b, 0) / counts.length);

describe('split points', () => {
  it('every table has a scheme, and n regions means n − 1 strictly ascending points (trends: at most one region per shard; meta: one)', () => {
    expect(Object.keys(SPLITS).sort()).toEqual([...tables].sort());
    for (const t of tables) {
      expect(splitPoints(t, 1), t).toEqual([]);
      for (const n of [2, 3, 16, 100, MAX_REGIONS_PER_TABLE]) {
        const points = splitPoints(t, n);
        const regions = SPLITS[t] === 'shard' ? Math.min(n, TREND_SHARDS) : SPLITS[t] === 'none' ? 1 : n;
        expect(points, `${t} ${n}`).toHaveLength(regions - 1);
        for (let i = 1; i < points.length; i++)
          expect(compareBytes(points[i - 1]!, points[i]!), `${t} ${n} #${i}`).toBeLessThan(0);
      }
    }
  });

  it('cuts the salt space into equal ranges', () => {
    expect(splitPoints('inbox', 4).map(hex)).toEqual(['4000', '8000', 'c000']);
    expect(splitPoints('inbox', 16)[0]).toEqual(Uint8Array.of(0x10, 0x00));
    expect(splitPoints('sessions', 4).map(hex)).toEqual(['40', '80', 'c0']);
    expect(splitPoints('comments', 4).map((p) => Buffer.from(p).toString('latin1'))).toEqual(['4000', '8000', 'c000']);
    expect(splitPoints('users', 3).map(hex)).toEqual(['5555', 'aaaa']);
  });

  it('rejects a region count outside 1..256', () => {
    for (const n of [0, -1, 1.5, 257, Number.NaN])
      expect(() => splitPoints('inbox', n), String(n)).toThrow(/from 1 to 256/);
    expect(() => splitPoints('trends', 0)).toThrow(/from 1 to 256/);
    expect(() => splitPoints('notifications', 257)).toThrow(/from 1 to 256/);
  });

  it('spreads real keys evenly: sequential numeric handles, their posts and edges, comment ids, session ids', () => {
    const n = 16;
    const handles = Array.from({ length: 20_000 }, (_, i) => String(i).padStart(5, '0'));
    const cases: [TableName, Uint8Array[]][] = [
      ['inbox', handles.map(userKey)],
      ['content', handles.map((h, i) => postKey(h, 1_700_000_000_000 + i))],
      ['relations', handles.map((h, i) => relationKey(h, 'F', handles[(i * 7919) % handles.length]!))],
      [
        'comments',
        handles.map((h) =>
          new TextEncoder().encode(`${commentPrefix(`${h}.1700000000000.abcdef012345`)}1700000000000-0000`),
        ),
      ],
      ['sessions', handles.map(() => randomBytes(16))],
    ];
    for (const [t, keys] of cases) {
      const counts = spread(keys, splitPoints(t, n));
      expect(
        counts.every((c) => c > 0),
        t,
      ).toBe(true);
      // 20,000 uniform keys over 16 regions: 1,250 each, σ ≈ 34; 1.15 is > 6 σ.
      expect(maxOverMean(counts), `${t}: ${counts.join(',')}`).toBeLessThan(1.15);
    }
    // The seed's unsalted uid keys with the split an operator has at creation: the population
    // fills the low end of the uid space, most regions stay empty.
    const seed = spread(
      handles.map((h) => new TextEncoder().encode(h)),
      decimalStringSplit(n),
    );
    expect(seed.filter((c) => c > 0).length).toBeLessThanOrEqual(4);
    // Split at the quantiles of the uids that exist: even, for those uids.
    expect(
      maxOverMean(
        spread(
          handles.map((h) => new TextEncoder().encode(h)),
          quantileSplit(handles, n),
        ),
      ),
    ).toBeLessThan(1.01);
  }, 30_000); // 20,000 handles: seconds of CPU on a loaded 2-core machine

  it('trends: the shard leads the key and the table splits on it, so the current bucket spreads over the regions', () => {
    expect(splitPoints('trends', 16).map(hex)).toEqual(['01', '02', '03', '04', '05', '06', '07']);
    expect(splitPoints('trends', 4).map(hex)).toEqual(['02', '04', '06']);
    expect(hex(trendKey(3, 0x01020304))).toBe('0301020304');
    // Every topic posted in the same five minutes: one bucket, yet every region takes a share.
    const bucket = 5_900_000;
    const names = Array.from({ length: 4_000 }, (_, i) => `topic${i}`);
    const counts = spread(
      names.map((name) => trendKey(trendShardOf(name), bucket)),
      splitPoints('trends', 16),
    );
    expect(counts).toHaveLength(TREND_SHARDS);
    // 4,000 uniform names over 8 shards: 500 each, σ ≈ 21; 1.2 is > 4 σ.
    expect(maxOverMean(counts), counts.join(',')).toBeLessThan(1.2);
    // Shard then bucket: one shard's buckets are adjacent rows, in time order.
    expect(compareBytes(trendKey(2, bucket), trendKey(2, bucket + 1))).toBeLessThan(0);
    expect(compareBytes(trendKey(2, bucket + 1), trendKey(3, bucket))).toBeLessThan(0);
  });

  it('notifications: list entries (hex text keys) and group / member rows (binary salt) both spread over the regions', () => {
    const n = 16;
    const points = splitPoints('notifications', n);
    const handles = Array.from({ length: 20_000 }, (_, i) => String(i).padStart(5, '0'));
    const text = new TextEncoder();
    const entries = spread(
      handles.map((h, i) => text.encode(notificationEntryKey(h, 1_700_000_000_000 + i, `follow/${i}`))),
      points,
    );
    const binary = spread(
      handles.flatMap((h) => [notificationGroupKey(h, 'follow/1'), notificationMemberKey(h, 'follow/1', 'ann')]),
      points,
    );
    // Split on the binary salt alone, the entries sat in 2 of 16 regions; now in half of them, evenly.
    const holding = entries.filter((c) => c > 0);
    expect(holding.length, entries.join(',')).toBeGreaterThanOrEqual(n / 2);
    expect(maxOverMean(holding), entries.join(',')).toBeLessThan(1.15);
    expect(Math.max(...entries) / handles.length).toBeLessThan(0.15);
    // The binary rows still reach every region that is not entries-only, and none takes more than ~1/8.
    expect(binary.filter((c) => c > 0).length, binary.join(',')).toBeGreaterThanOrEqual(n / 2);
    expect(Math.max(...binary) / (2 * handles.length), binary.join(',')).toBeLessThan(0.15);
  });

  it('matches RegionSplitter.DecimalStringSplit of HBase 2.6.1 for the seed comparison (its output, copied)', () => {
    const text = (n: number) => decimalStringSplit(n).map((p) => new TextDecoder().decode(p));
    expect(text(4)).toEqual(['25000000', '50000000', '75000000']);
    expect(text(6)).toEqual(['16666666', '33333332', '49999998', '66666664', '83333330']);
    expect(text(12).slice(0, 3)).toEqual(['08333333', '16666666', '24999999']);
  });
});

describe('the hbase shell script', () => {
  /** Reads a Ruby double-quoted literal of only \xNN escapes and [A-Za-z0-9] back into bytes. */
  const parseRuby = (lit: string) => {
    expect(lit).toMatch(/^"(?:\\x[0-9A-F]{2}|[A-Za-z0-9])*"$/);
    const out: number[] = [];
    const body = lit.slice(1, -1);
    for (let i = 0; i < body.length; ) {
      if (body[i] === '\\') {
        out.push(parseInt(body.slice(i + 2, i + 4), 16));
        i += 4;
      } else out.push(body.charCodeAt(i++));
    }
    return Uint8Array.from(out);
  };

  it('escapes every byte that is not a letter or digit', () => {
    expect(rubyBytes(Uint8Array.of(0x10, 0x00))).toBe('"\\x10\\x00"');
    expect(rubyBytes(new TextEncoder().encode('a"#{x}\\'))).toBe('"a\\x22\\x23\\x7Bx\\x7D\\x5C"');
    const any = randomBytes(64);
    expect(parseRuby(rubyBytes(any))).toEqual(Uint8Array.from(any));
  });

  it('creates the namespace and every table with its families and split keys', () => {
    const script = hbaseShellScript('weibo', 16);
    const lines = script.trim().split('\n');
    expect(lines[0]).toMatch(/^# /);
    expect(lines[1]).toBe("create_namespace 'weibo'");
    const creates = lines.slice(2);
    expect(creates).toHaveLength(tables.length);
    const grammar =
      /^create '(weibo:[a-z_]+)'((?:, \{NAME => '[a-z]+'(?:, [A-Z_]+ => (?:\d+|'[A-Za-z_]+'))*\})+)(?:, SPLITS => \[((?:"[^"]*")(?:, "[^"]*")*)\])?$/;
    for (const [i, line] of creates.entries()) {
      const t = tables[i]!;
      const m = grammar.exec(line);
      expect(m, line).not.toBeNull();
      expect(m![1]).toBe(`weibo:${TABLES[t].name}`);
      expect([...m![2]!.matchAll(/NAME => '([a-z]+)'/g)].map((x) => x[1])).toEqual(
        TABLES[t].families.map((f) => f.name),
      );
      for (const f of TABLES[t].families)
        for (const [k, v] of Object.entries(f))
          if (k !== 'name') expect(m![2], `${t} ${k}`).toContain(`${k} => ${typeof v === 'number' ? v : `'${v}'`}`);
      const points = m![3] ? m![3].split(', ').map(parseRuby) : [];
      expect(points.map(hex), t).toEqual(splitPoints(t, 16).map(hex));
    }
    // One region: no SPLITS at all.
    expect(hbaseShellScript('weibo', 1)).not.toContain('SPLITS');
  });
});

describe('the stage param regionsPerTable', () => {
  const params = {
    hbaseRestUrl: 'https://hbase-rest.internal:8443',
    hbaseNamespace: 'weibo',
    jwtSecretParameter: '/weibo/prod/jwt-secret',
    secretsMaxAgeSeconds: 300,
    workerMaxConcurrency: 10,
    mediaWorkerMaxConcurrency: 10,
    jobReservedConcurrency: 1,
    apiThrottleRate: 100,
    apiThrottleBurst: 200,
    celebrityFollowers: 10000,
    inactiveAfterSeconds: 2592000,
    inboxCap: 800,
    outboxCap: 200,
    backfillLimit: 200,
    settleSeconds: 60,
    jobRowsPerStep: 500,
    regenStuckSeconds: 600,
    schedulesEnabled: true,
    logLevel: 'INFO',
  };

  it('is an integer from 1 to 256, 1 when absent', () => {
    expect(stageSettings('prod', params).regionsPerTable).toBe(1);
    expect(stageSettings('prod', { ...params, regionsPerTable: 16 }).regionsPerTable).toBe(16);
    expect(stageSettings('prod', { ...params, regionsPerTable: '256' }).regionsPerTable).toBe(256);
    for (const bad of [0, 257, 2.5, 'many']) {
      expect(() => stageSettings('prod', { ...params, regionsPerTable: bad }), String(bad)).toThrow(
        /Stage "prod" is not configured: regionsPerTable must be an integer from 1 to 256/,
      );
    }
  });

  it('holds for MD5 salts as the shared key code computes them', () => {
    // The salt really is the first 2 bytes of MD5(handle): the points cut that space.
    const k = userKey('alice');
    expect(hex(k.subarray(0, 2))).toBe(createHash('md5').update('alice').digest('hex').slice(0, 4));
  });
});
