// test/bench/feed/backfill.ts — follow backfill: our design against seed 000's addAttends, on
// the same posts. BENCH_SEED_POSTS posts are written twice with 1000-row batch puts: into a
// seed-style table (row `uid_ts`, cf:content — the seed's weibo:content) and into our content
// table (postKey layout). The followee's posts go first, then everyone else's, and both
// algorithms run at two table sizes (10 % and 100 % of the posts), so the table grows around an
// unchanged followee.
//
//  ours : the real follow use case + the real backfill message handler (prefix scan bounded by
//         BACKFILL_LIMIT).
//  seed : addAttends as written in seeds/000 — put attends/fans, scan the WHOLE content table
//         with RowFilter(EQUAL, SubstringComparator("<followee>_")), put every row key found
//         into the seed inbox (column = followee, version = post time, VERSIONS 1000).
//
// Rows read: ours = read requests of our tables over the operation (region servers' counters,
// /status/cluster). The seed's scan has no start/stop row, so the region server reads every row
// of the table and applies the filter to each; /status/cluster's readRequestsCount only counts
// the rows that PASSED the filter (rejected rows go to filteredReadRequestsCount, which the REST
// gateway does not expose), so the seed's rows examined = the table's rows (known: we wrote
// them), and its counter delta is reported beside it as "rows returned".
import { performance } from 'node:perf_hooks';
import type { CellInput, HBaseRestClient, RowInput } from '../../../shared/hbase/index.js';
import { postKey } from '../../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import { handleFanoutMessage } from '../../../shared/use-cases/fan-out.js';
import { follow } from '../../../shared/use-cases/relations.js';
import { readDelta, settledReadRequests } from './cluster-status.js';
import type { BenchContext } from './context.js';
import { bodyText, handleWidth, userRow } from './graph.js';
import { prng, randomBytes } from './random.js';

export interface BackfillCheckpoint {
  tablePosts: number;
  oursRowsRead: number;
  oursContentRowsRead: number;
  oursRequests: number;
  oursPostsBackfilled: number;
  oursWallMs: number;
  seedRowsExamined: number;
  seedRowsReturned: number;
  seedRowKeysFound: number;
  seedWallMs: number;
  rowsRatio: number;
  wallRatio: number;
}

export interface BackfillResult {
  followee: string;
  followeePosts: number;
  backfillLimit: number;
  writeSeconds: number;
  checkpoints: BackfillCheckpoint[];
  /** At the full table size. */
  final: BackfillCheckpoint;
}

const ALL_KEYS = { startRow: new Uint8Array(0), stopRow: new Uint8Array(64).fill(0xff) };

export const seedTables = (ns: string) => ({
  content: `${ns}:seed_content`,
  relations: `${ns}:seed_relations`,
  inbox: `${ns}:seed_inbox`,
});

export async function createSeedTables(client: HBaseRestClient, ns: string): Promise<void> {
  const t = seedTables(ns);
  // As seed 000 creates them (defaults otherwise): content cf; relations attends + fans; the
  // receive-content-email inbox cf with VERSIONS 1000.
  await client.createTable(t.content, { columnFamilies: [{ name: 'cf' }] });
  await client.createTable(t.relations, { columnFamilies: [{ name: 'attends' }, { name: 'fans' }] });
  await client.createTable(t.inbox, { columnFamilies: [{ name: 'cf', VERSIONS: 1000 }] });
}

/** seed 000 addAttends(uid, attend), faithfully, over REST. Returns the row keys it found. */
export async function seedAddAttends(client: HBaseRestClient, ns: string, uid: string, attend: string): Promise<number> {
  const t = seedTables(ns);
  // a + b: relations, both rows in one batch.
  await client.put(t.relations, [
    { key: uid, cells: [{ column: `attends:${attend}`, value: attend }] },
    { key: attend, cells: [{ column: `fans:${uid}`, value: uid }] },
  ]);
  // c.1: scan the whole content table for row keys containing "<attend>_".
  const rowkeys: Uint8Array[] = [];
  const filter = { type: 'RowFilter', op: 'EQUAL', comparator: { type: 'SubstringComparator', value: `${attend}_` } };
  for await (const row of client.scan(t.content, { ...ALL_KEYS, limit: Number.MAX_SAFE_INTEGER, pageSize: 1000, filter })) {
    for (let i = 0; i < row.cells.length; i++) rowkeys.push(row.key);
  }
  if (rowkeys.length === 0) return 0;
  // c.2: one inbox cell version per post: row uid, column cf:<attend>, timestamp = post time.
  const cells: CellInput[] = rowkeys.map((rk) => {
    const s = Buffer.from(rk).toString('utf8');
    return { column: `cf:${s.slice(0, s.indexOf('_'))}`, value: rk, timestamp: Number(s.slice(s.indexOf('_') + 1)) };
  });
  await client.put(t.inbox, [{ key: uid, cells }]);
  return rowkeys.length;
}

export async function runBackfill(ctx: BenchContext): Promise<BackfillResult> {
  const { s, hb, deps, graph } = ctx;
  const rand = prng(s.seed + 2);
  const width = handleWidth(s.users);
  const followee = '9'.repeat(width + 1); // numeric like the graph's uids, never one of them
  const now = Date.now();
  const tables = seedTables(ctx.ns);
  const ourContent = qualifiedTableName(ctx.ns, 'content');
  const readers = ['bfr1', 'bfr2'];
  await hb.put(qualifiedTableName(ctx.ns, 'users'), [
    userRow(followee, now - 365 * 24 * 3600_000, { followers: 0, following: 0, posts: s.seedFolloweePosts }),
    ...readers.map((r) => userRow(r, now, { followers: 0, following: 0, posts: 0 })),
  ]);

  const total = s.seedPosts;
  const checkpoints = total >= 10_000 ? [Math.round(total / 10), total] : [total];
  const perAuthor = new Array<number>(graph.handles.length).fill(0);
  /** Post i: the followee's first, then round robin over the graph's users, one minute apart per author. */
  const post = (i: number): { author: string; millis: number } => {
    if (i < s.seedFolloweePosts) return { author: followee, millis: now - 120_000 - i * 60_000 };
    const a = (i - s.seedFolloweePosts) % graph.handles.length;
    const j = perAuthor[a]!++;
    return { author: graph.handles[a]!, millis: now - 365 * 24 * 3600_000 - j * 60_000 - a };
  };

  let written = 0;
  let writeMs = 0;
  const writeUpTo = async (target: number) => {
    const t0 = performance.now();
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    while (written < target) {
      const n = Math.min(1000, target - written);
      const seedRows: RowInput[] = [];
      const ourRows: RowInput[] = [];
      for (let k = 0; k < n; k++) {
        const { author, millis } = post(written + k);
        const body = bodyText(rand, `seed post ${written + k}`);
        seedRows.push({ key: `${author}_${millis}`, cells: [{ column: 'cf:content', value: body }] });
        ourRows.push({ key: postKey(author, millis, randomBytes(rand, 6)), cells: [{ column: 'p:b', value: body }, { column: 'p:t', value: String(millis) }] });
      }
      written += n;
      while (inFlight.size >= s.writeConcurrency) await Promise.race(inFlight);
      if (failure) throw failure;
      const p: Promise<void> = Promise.all([hb.put(tables.content, seedRows), hb.put(ourContent, ourRows)])
        .then(() => ctx.progress.update((0.8 * written) / total, `${Math.round(written / 1000)}k/${Math.round(total / 1000)}k posts written (both layouts)`))
        .catch((err: unknown) => {
          failure ??= err;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    writeMs += performance.now() - t0;
  };

  const results: BackfillCheckpoint[] = [];
  for (const [k, size] of checkpoints.entries()) {
    await writeUpTo(size);
    const reader = readers[k]!;
    const seedReader = `8${String(k).padStart(width, '0')}`;
    const before = await settledReadRequests(ctx.restUrl, s.statusWaitMs, ctx.headers);

    const t0 = performance.now();
    const rec = await ctx.recorder.record(async () => {
      ctx.queued.length = 0;
      await follow(deps, reader, followee);
      const msg = ctx.queued.find((m) => m.type === 'backfill');
      if (!msg) throw new Error('follow queued no backfill message');
      ctx.queued.length = 0;
      await handleFanoutMessage(deps, msg);
    });
    const oursWallMs = performance.now() - t0;

    const t1 = performance.now();
    const seedRowKeysFound = await seedAddAttends(hb, ctx.ns, seedReader, followee);
    const seedWallMs = performance.now() - t1;

    const after = await settledReadRequests(ctx.restUrl, s.statusWaitMs, ctx.headers);
    const ours = (t: string) => t.startsWith(`${ctx.ns}:`) && !t.startsWith(`${ctx.ns}:seed_`);
    const oursRowsRead = readDelta(before, after, ours);
    const oursPostsBackfilled = (await deps.inbox.stats(reader)).size;
    const cp: BackfillCheckpoint = {
      tablePosts: size,
      oursRowsRead,
      oursContentRowsRead: readDelta(before, after, (t) => t === ourContent),
      oursRequests: rec.requests,
      oursPostsBackfilled,
      oursWallMs: Math.round(oursWallMs * 10) / 10,
      seedRowsExamined: size,
      seedRowsReturned: readDelta(before, after, (t) => t === tables.content),
      seedRowKeysFound,
      seedWallMs: Math.round(seedWallMs * 10) / 10,
      rowsRatio: size / Math.max(1, oursRowsRead),
      wallRatio: seedWallMs / oursWallMs,
    };
    results.push(cp);
    ctx.progress.update((0.8 * written) / total + 0.2 * ((k + 1) / checkpoints.length), `checkpoint ${size} posts done`);
  }
  return {
    followee,
    followeePosts: s.seedFolloweePosts,
    backfillLimit: ctx.limits.backfillLimit,
    writeSeconds: Math.round(writeMs / 100) / 10,
    checkpoints: results,
    final: results[results.length - 1]!,
  };
}
