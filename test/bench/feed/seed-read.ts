// test/bench/feed/seed-read.ts — the seeds' READ path against our home timeline page, on the
// same data, timed in the same loop.
//
//  seed : seed 000 getAttendsContens(uid), as written: get the reader's row of the inbox table
//         (receive-content-email: row = reader uid, one column cf:<followee uid> per followee,
//         cell versions = that followee's post times, value = the post's content row key
//         `uid_ts`) with setMaxVersions(5); then one Get per returned cell on the content table
//         (`contentTBL.get(List<Get>)`, sent as one batched request by the Java client — here the
//         gateway's multi-get, split only where the URL budget demands); the messages come back
//         in the inbox row's cell order, i.e. grouped by author (column), newest 5 per author.
//         No paging, no ordering across authors, no per-viewer state: that is the seed's read.
//         (Versions: the seed's design notes give the inbox VERSIONS 1000 and its shell example
//         reads {VERSIONS=>5}; its code reads setMaxVersions(5) — BENCH_SEED_READ_VERSIONS, 5.
//         Not modelled: the seed opens a new HConnection per call, which would only add to its
//         time; over REST both sides share the client's pooled keep-alive connections.)
//  ours : the real homeTimeline use case, first page of 20 (as timeline.ts measures it).
//
// Same data: the readers are timeline.ts's sampled readers (the same PRNG draw); the seed tables
// hold, in seed 000's layout, exactly the graph posts of those readers' followees (what the
// seed's publishContent would have put in each follower's inbox: every post, VERSIONS 1000), and
// our tables hold the same posts (the graph load). The seed side gets its own two tables with
// the seed's schema (seed_read_content, seed_read_inbox) so that the backfill comparison's seed
// content table keeps its exact size.
import { performance } from 'node:perf_hooks';
import type { HBaseRestClient, RowInput } from '../../../shared/hbase/index.js';
import { homeTimeline } from '../../../shared/use-cases/home-timeline.js';
import { summarize, type LatencySummary } from '../stats.js';
import { bulkPut } from './bulk.js';
import type { BenchContext } from './context.js';
import { prng, sampleDistinct } from './random.js';

const LIMIT = 20;
const WARMUP = 20;

export const seedReadTables = (ns: string) => ({
  content: `${ns}:seed_read_content`,
  inbox: `${ns}:seed_read_inbox`,
});

export interface SeedReadResult {
  readers: number;
  /** Versions per followee column the seed's get asks for (seed 000: 5). */
  versions: number;
  /** Our page size. */
  limit: number;
  seed: LatencySummary;
  ours: LatencySummary;
  /** seed / ours. */
  p50Ratio: number;
  p99Ratio: number;
  seedRequestsPerRead: { mean: number; max: number };
  seedSequentialRoundTrips: { mean: number; max: number };
  oursRequestsPerPage: { mean: number; max: number };
  oursSequentialRoundTrips: { mean: number; max: number };
  /** Posts one read returns: the seed returns every followee's newest `versions`, we return a page. */
  seedPostsPerRead: { mean: number; max: number };
  oursPostsPerPage: { mean: number; max: number };
  /** Authors in one seed read, and whether every read came back grouped by author (one run per author). */
  seedAuthorsPerRead: { mean: number; max: number };
  seedGroupedByAuthor: boolean;
  /** The seed layout's data: content rows, inbox cells (all versions), load time. */
  loaded: { contentRows: number; inboxCells: number; seconds: number };
}

export async function createSeedReadTables(client: HBaseRestClient, ns: string): Promise<void> {
  const t = seedReadTables(ns);
  // seed 000's weibo:content (cf, one version) and weibo:receive-content-email (cf, VERSIONS 1000).
  await client.createTable(t.content, { columnFamilies: [{ name: 'cf' }] });
  await client.createTable(t.inbox, { columnFamilies: [{ name: 'cf', VERSIONS: 1000 }] });
}

/** seed 000 getAttendsContens(uid), faithfully, over REST. Returns the messages in the seed's order. */
export async function seedGetAttendsContents(
  client: HBaseRestClient,
  ns: string,
  uid: string,
  versions: number,
): Promise<{ uid: string; timestamp: string; content: string }[]> {
  const t = seedReadTables(ns);
  // a. the reader's inbox row, `versions` versions per column: the content row keys.
  const row = await client.getRow(t.inbox, uid, { versions });
  const rowkeys = (row?.cells ?? []).map((c) => c.value);
  if (rowkeys.length === 0) return [];
  // b. one Get per row key on the content table, as one batch.
  const results = await client.multiGet(t.content, rowkeys);
  const messages: { uid: string; timestamp: string; content: string }[] = [];
  for (const res of results) {
    for (const cell of res.cells) {
      const rowkey = Buffer.from(res.key).toString('utf8');
      const i = rowkey.indexOf('_');
      messages.push({
        uid: rowkey.slice(0, i),
        timestamp: rowkey.slice(i + 1),
        content: Buffer.from(cell.value).toString('utf8'),
      });
    }
  }
  return messages;
}

export async function runSeedRead(ctx: BenchContext): Promise<SeedReadResult> {
  const { s, graph, deps, hb, recorder } = ctx;
  // timeline.ts's readers: the same first draw of the same PRNG.
  const distinct = sampleDistinct(
    prng(s.seed + 1),
    graph.handles.length,
    Math.min(s.timelineReaders, graph.handles.length),
  );
  const readers = [...distinct];
  while (readers.length < s.timelineReaders) readers.push(readers[readers.length % graph.handles.length]!);
  const t = seedReadTables(ctx.ns);

  // The seed layout's data: every post of every followee of the readers (content), and each
  // reader's inbox row with every followee's posts as versions of that followee's column.
  const loadStarted = performance.now();
  const authors = new Set<number>();
  for (const r of distinct) for (const v of graph.following[r]!) authors.add(v);
  const seedKey = (author: number, millis: number) => `${graph.handles[author]}_${millis}`;
  let contentRows = 0;
  let inboxCells = 0;
  await bulkPut(
    hb,
    t.content,
    (function* (): Generator<RowInput> {
      for (const a of authors) {
        for (const p of graph.posts[a]!) {
          contentRows++;
          yield { key: seedKey(a, p.millis), cells: [{ column: 'cf:content', value: p.body }] };
        }
      }
    })(),
    {
      concurrency: s.writeConcurrency,
      onBatch: () =>
        ctx.progress.update(0.15 * (contentRows / Math.max(1, authors.size * s.postsPerUser)), 'seed layout: content'),
    },
  );
  await bulkPut(
    hb,
    t.inbox,
    (function* (): Generator<RowInput> {
      for (const r of distinct) {
        const cells = graph.following[r]!.flatMap((v) =>
          graph.posts[v]!.map((p) => ({
            column: `cf:${graph.handles[v]}`,
            value: seedKey(v, p.millis),
            timestamp: p.millis,
          })),
        );
        inboxCells += cells.length;
        if (cells.length) yield { key: graph.handles[r]!, cells };
      }
    })(),
    {
      concurrency: s.writeConcurrency,
      maxCells: 8000,
      onBatch: () => ctx.progress.update(0.3, 'seed layout: inboxes'),
    },
  );
  const loaded = { contentRows, inboxCells, seconds: Math.round((performance.now() - loadStarted) / 100) / 10 };

  const seedOp = (r: number) => seedGetAttendsContents(hb, ctx.ns, graph.handles[r]!, s.seedReadVersions);
  const oursOp = (r: number) => homeTimeline(deps, graph.handles[r]!, LIMIT);
  for (let i = 0; i < WARMUP; i++) {
    const r = readers[i % readers.length]!;
    await seedOp(r);
    await oursOp(r);
  }

  const seedMs: number[] = [];
  const seedRequests: number[] = [];
  const seedSequential: number[] = [];
  const seedPosts: number[] = [];
  const seedAuthors: number[] = [];
  let grouped = true;
  const oursMs: number[] = [];
  const oursRequests: number[] = [];
  const oursSequential: number[] = [];
  const oursPosts: number[] = [];
  for (let i = 0; i < readers.length; i++) {
    const r = readers[i]!;
    const timeSeed = async () => {
      const t0 = performance.now();
      const rec = await recorder.record(() => seedOp(r));
      seedMs.push(performance.now() - t0);
      seedRequests.push(rec.requests);
      seedSequential.push(rec.sequential);
      seedPosts.push(rec.result.length);
      // Grouped by author: each author's messages form one run.
      const runs = rec.result.filter((m, k) => k === 0 || rec.result[k - 1]!.uid !== m.uid).length;
      const distinctAuthors = new Set(rec.result.map((m) => m.uid)).size;
      seedAuthors.push(distinctAuthors);
      if (runs !== distinctAuthors) grouped = false;
    };
    const timeOurs = async () => {
      const t0 = performance.now();
      const rec = await recorder.record(() => oursOp(r));
      oursMs.push(performance.now() - t0);
      oursRequests.push(rec.requests);
      oursSequential.push(rec.sequential);
      oursPosts.push(rec.result.items.length);
    };
    // Alternate who goes first, as timeline.ts does with its floor.
    if (i % 2 === 0) {
      await timeSeed();
      await timeOurs();
    } else {
      await timeOurs();
      await timeSeed();
    }
    if (i % 10 === 0) ctx.progress.update(0.3 + (0.7 * i) / readers.length, `${i}/${readers.length} readers`);
  }

  const seed = summarize(seedMs);
  const ours = summarize(oursMs);
  const stat = (xs: number[]) => ({
    mean: Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10,
    max: Math.max(...xs),
  });
  return {
    readers: readers.length,
    versions: s.seedReadVersions,
    limit: LIMIT,
    seed,
    ours,
    p50Ratio: seed.medianMs / ours.medianMs,
    p99Ratio: seed.p99Ms / ours.p99Ms,
    seedRequestsPerRead: stat(seedRequests),
    seedSequentialRoundTrips: stat(seedSequential),
    oursRequestsPerPage: stat(oursRequests),
    oursSequentialRoundTrips: stat(oursSequential),
    seedPostsPerRead: stat(seedPosts),
    oursPostsPerPage: stat(oursPosts),
    seedAuthorsPerRead: stat(seedAuthors),
    seedGroupedByAuthor: grouped,
    loaded,
  };
}
