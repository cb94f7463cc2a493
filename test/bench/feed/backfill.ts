// test/bench/feed/backfill.ts — follow backfill: our design against seed 000's addAttends, on
// the same posts. BENCH_SEED_POSTS posts are written twice with 1000-row batch puts: into a
// seed-style table (row `uid_ts`, cf:content — the seed's weibo:content) and into our content
// table (postKey layout). The followee's posts go first, then everyone else's, and both
// algorithms run at 100,000 and at 1,000,000 posts (BACKFILL_CHECKPOINTS below BENCH_SEED_POSTS,
// then BENCH_SEED_POSTS itself), so the table grows around an unchanged followee.
//
//  ours : the real follow use case + the real backfill message handler (prefix scan bounded by
//         BACKFILL_LIMIT).
//  seed : addAttends as written in seeds/000 — put attends/fans, scan the WHOLE content table
//         with RowFilter(EQUAL, SubstringComparator("<followee>_")), put every row key found
//         into the seed inbox (column = followee, version = post time, VERSIONS 1000).
//
// Rows, all measured from the region servers' counters over the operation:
//  - rows read (ours, as before): readRequestsCount of our tables, from the gateway's
//    /status/cluster (rows the regions returned).
//  - rows EXAMINED (both sides): readRequestsCount + filteredReadRequestsCount. The seed's scan
//    has no start/stop row, so the region server reads every row of the table and applies the
//    filter to each; readRequestsCount only counts the rows that PASSED the filter, the rejected
//    ones go to filteredReadRequestsCount, which /status/cluster does not carry. The master has
//    it (the same region load reports); cluster-status.ts ExaminedProbe reads it with a Java
//    client on the stack's jars. Where that probe cannot run (no local jars, BENCH_EXAMINED_PROBE
//    =off), the seed's rows examined fall back to the table's size (known: we wrote it) and the
//    result says so (seedRowsExaminedSource).
// readRequestsCount also counts each region scanner's last, empty `next` (one per region per
// scan), so examined = table rows + 1 for a one-region full scan.
import { performance } from 'node:perf_hooks';
import type { CellInput, HBaseRestClient, RowInput } from '../../../shared/hbase/index.js';
import { postKey } from '../../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import { handleFanoutMessage } from '../../../shared/use-cases/background/handlers.js';
import { follow } from '../../../shared/use-cases/relations.js';
import {
  ExaminedProbe,
  examinedDelta,
  readDelta,
  settledReadRequests,
  type ExaminedCounters,
} from './cluster-status.js';
import type { BenchContext } from './context.js';
import { bodyText, handleWidth, userRow } from './graph.js';
import { prng, randomBytes } from './random.js';

export interface BackfillCheckpoint {
  tablePosts: number;
  /** readRequestsCount delta of our tables (/status/cluster). */
  oursRowsRead: number;
  oursContentRowsRead: number;
  /** read + filtered delta of our tables (the probe); null when not measured. */
  oursRowsExamined: number | null;
  oursRequests: number;
  oursPostsBackfilled: number;
  oursWallMs: number;
  /** read + filtered delta of the seed content table when measured; else the table's size. */
  seedRowsExamined: number;
  seedRowsExaminedMeasured: boolean;
  /** filteredReadRequestsCount delta of the seed content table (rows the filter rejected); null when not measured. */
  seedRowsFiltered: number | null;
  /** The probe's readRequestsCount delta of the seed content table (rows passed + one end-of-scan next); null when not measured. */
  seedRowsPassed: number | null;
  /** readRequestsCount delta of the seed content table from /status/cluster. */
  seedRowsReturned: number;
  /** Regions of the seed content table (examined = table rows + one end-of-scan read per region); null when not measured. */
  seedRegions: number | null;
  /** The probe's readRequestsCount delta equals /status/cluster's (same load reports); null when not measured. */
  seedCountersAgree: boolean | null;
  seedRowKeysFound: number;
  seedWallMs: number;
  /** seed rows examined / ours (rows examined when measured, else rows read). */
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
  /** How the seed's rows examined were obtained, or why they could not be measured. */
  seedRowsExaminedSource: string;
}

/** Table sizes the comparison runs at (those below BENCH_SEED_POSTS), then BENCH_SEED_POSTS. */
export const BACKFILL_CHECKPOINTS = [100_000, 1_000_000];

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
export async function seedAddAttends(
  client: HBaseRestClient,
  ns: string,
  uid: string,
  attend: string,
): Promise<number> {
  const t = seedTables(ns);
  // a + b: relations, both rows in one batch.
  await client.put(t.relations, [
    { key: uid, cells: [{ column: `attends:${attend}`, value: attend }] },
    { key: attend, cells: [{ column: `fans:${uid}`, value: uid }] },
  ]);
  // c.1: scan the whole content table for row keys containing "<attend>_".
  const rowkeys: Uint8Array[] = [];
  const filter = { type: 'RowFilter', op: 'EQUAL', comparator: { type: 'SubstringComparator', value: `${attend}_` } };
  for await (const row of client.scan(t.content, {
    ...ALL_KEYS,
    limit: Number.MAX_SAFE_INTEGER,
    pageSize: 1000,
    filter,
  })) {
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
  const checkpoints = [...BACKFILL_CHECKPOINTS.filter((c) => c < total), total];
  if (checkpoints.length > readers.length) throw new Error(`at most ${readers.length} backfill checkpoints`);
  // The rows-examined probe starts while the posts are written (its JVM takes a few seconds).
  const probeStart = s.examinedProbe
    ? ExaminedProbe.start({ hbaseLib: s.hbaseLib, zkHost: s.zkHost, zkPort: s.zkPort, startTimeoutMs: 30_000 })
    : Promise.resolve({ unavailable: 'BENCH_EXAMINED_PROBE=off' } as const);
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
        ourRows.push({
          key: postKey(author, millis, randomBytes(rand, 6)),
          cells: [
            { column: 'p:b', value: body },
            { column: 'p:t', value: String(millis) },
          ],
        });
      }
      written += n;
      while (inFlight.size >= s.writeConcurrency) await Promise.race(inFlight);
      if (failure) throw failure;
      const p: Promise<void> = Promise.all([hb.put(tables.content, seedRows), hb.put(ourContent, ourRows)])
        .then(() =>
          ctx.progress.update(
            (0.8 * written) / total,
            `${Math.round(written / 1000)}k/${Math.round(total / 1000)}k posts written (both layouts)`,
          ),
        )
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
  let probe: ExaminedProbe | undefined;
  let seedRowsExaminedSource = '';
  try {
    for (const [k, size] of checkpoints.entries()) {
      await writeUpTo(size);
      if (k === 0) {
        const started = await probeStart;
        if ('probe' in started) {
          probe = started.probe;
          seedRowsExaminedSource = `measured: readRequestsCount + filteredReadRequestsCount of the seed content table's regions, from the master's region metrics (HBase Java Admin.getClusterMetrics via ZooKeeper ${s.zkHost}:${s.zkPort})`;
        } else {
          seedRowsExaminedSource = `NOT measured — the table's size (rows written), because the rows-examined probe could not run: ${started.unavailable}`;
        }
      }
      const reader = readers[k]!;
      const seedReader = `8${String(k).padStart(width, '0')}`;
      const before = await settledReadRequests(ctx.restUrl, s.statusWaitMs, ctx.headers);
      const examinedBefore: ExaminedCounters | undefined = await probe?.read();

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
      const examinedAfter = await probe?.read();
      const ours = (t: string) => t.startsWith(`${ctx.ns}:`) && !t.startsWith(`${ctx.ns}:seed_`);
      const oursRowsRead = readDelta(before, after, ours);
      const oursPostsBackfilled = (await deps.inbox.stats(reader)).size;
      // The probe reads the HBase its ZooKeeper names: if this run's tables are not there, it is
      // another cluster than the gateway's, and nothing it says counts.
      const sameCluster = Boolean(examinedAfter?.has(tables.content));
      if (probe && !sameCluster) {
        seedRowsExaminedSource = `NOT measured — the table's size (rows written): the probe's HBase (ZooKeeper ${s.zkHost}:${s.zkPort}) has no ${tables.content}, so it is not the gateway's cluster`;
      }
      const seedDelta =
        examinedBefore && examinedAfter && sameCluster
          ? examinedDelta(examinedBefore, examinedAfter, (t) => t === tables.content)
          : undefined;
      // A split in between resets the counters of the regions involved: then nothing was measured.
      const seedEx = seedDelta && !seedDelta.regionsChanged ? seedDelta : undefined;
      if (seedDelta?.regionsChanged) {
        seedRowsExaminedSource = `NOT measured at ${size} posts — the table's size (rows written): ${tables.content} split during the scan (region counters reset)`;
      }
      const oursDelta =
        examinedBefore && examinedAfter && sameCluster ? examinedDelta(examinedBefore, examinedAfter, ours) : undefined;
      const oursEx = oursDelta && !oursDelta.regionsChanged ? oursDelta : undefined;
      const seedRowsExamined = seedEx ? seedEx.examined : size;
      const cp: BackfillCheckpoint = {
        tablePosts: size,
        oursRowsRead,
        oursContentRowsRead: readDelta(before, after, (t) => t === ourContent),
        oursRowsExamined: oursEx ? oursEx.examined : null,
        oursRequests: rec.requests,
        oursPostsBackfilled,
        oursWallMs: Math.round(oursWallMs * 10) / 10,
        seedRowsExamined,
        seedRowsExaminedMeasured: Boolean(seedEx),
        seedRowsFiltered: seedEx ? seedEx.filtered : null,
        seedRowsPassed: seedEx ? seedEx.read : null,
        seedRowsReturned: readDelta(before, after, (t) => t === tables.content),
        seedRegions: seedDelta ? seedDelta.regions : null,
        seedCountersAgree: seedEx ? seedEx.read === readDelta(before, after, (t) => t === tables.content) : null,
        seedRowKeysFound,
        seedWallMs: Math.round(seedWallMs * 10) / 10,
        rowsRatio: seedRowsExamined / Math.max(1, oursEx ? oursEx.examined : oursRowsRead),
        wallRatio: seedWallMs / oursWallMs,
      };
      results.push(cp);
      ctx.progress.update(
        (0.8 * written) / total + 0.2 * ((k + 1) / checkpoints.length),
        `checkpoint ${size} posts done`,
      );
    }
  } finally {
    probe?.close();
    if (!probe) void probeStart.then((r) => ('probe' in r ? r.probe.close() : undefined));
  }
  return {
    seedRowsExaminedSource,
    followee,
    followeePosts: s.seedFolloweePosts,
    backfillLimit: ctx.limits.backfillLimit,
    writeSeconds: Math.round(writeMs / 100) / 10,
    checkpoints: results,
    final: results[results.length - 1]!,
  };
}
