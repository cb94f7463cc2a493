// test/bench/search.bench.ts — `npm run bench:search`: post search (GET /search/posts) on a big
// corpus, through the real use case (searchPosts) on the real HBase adapters:
//   1. index size: the search entries' bytes per post as HBase stores each KeyValue uncompressed
//      (its row, family, qualifier and value, with the KeyValue's own 20 bytes of lengths,
//      timestamp and type), counted while writing; and the search table's store files on disk
//      after a flush (the local HBase data dir), divided by the posts;
//   2. query p50 / p99 for a rare word, a common word and two words, first page of 20, at
//      10,000 posts and again at 1,000,000 (the same corpus grown): a page reads a bounded number
//      of rows whatever the corpus, so the ratio should stay near 1. Beside each: the HBase
//      requests and sequential round trips a page made;
//   3. publish → searchable: publishPost, then search for a word only that post holds until it
//      is on the page; p50 / p99. The entries are written before the post row, so the first
//      search finds it: the lag is the publish itself plus one search.
// The corpus is synthetic Weibo-like text (./search/corpus.ts: Zipf words, 20–60 characters)
// written with raw batched puts in the real layouts (content rows; search entries keyed by
// searchEntryKey over indexTerms) — the product never writes like this; the bench does, so that a
// million posts take minutes. Everything lives in a throwaway namespace, dropped at the end.
// Output: tables on stdout, docs/bench/search-bench.json (smoke: bench-results/) and
// docs/benchmarks.md rewritten from docs/bench. Flags: --smoke, --posts N (default 1,000,000),
// --small-posts N, --reps N, --lag-posts N (./search/settings.ts).
// The stack must already run: `bash infra/local/stack.sh start`.
import { dropBenchNamespace } from './drop-namespace.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { feedLimits, loadConfig } from '../../shared/config/config.js';
import { formatPostId } from '../../shared/domain/post.js';
import { indexTerms } from '../../shared/domain/post-search.js';
import { HBaseRestClient, type RowInput } from '../../shared/hbase/index.js';
import {
  hotEngagementKey,
  hotEngagementQualifier,
  hotShardOf,
  postKey,
  searchEntryKey,
} from '../../shared/schema/row-keys.js';
import { hotBucketOf } from '../../shared/domain/hot.js';
import { rankHot } from '../../shared/use-cases/jobs/rank-hot.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { searchPosts } from '../../shared/use-cases/search-posts.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { bulkPut } from './feed/bulk.js';
import { userRow } from './feed/graph.js';
import { RequestRecorder } from './feed/requests.js';
import { COMMON_WORD, corpus, RARE_WORD, TWO_WORDS } from './search/corpus.js';
import { searchBenchSettings } from './search/settings.js';
import { printTable, summarize, type LatencySummary } from './stats.js';

/** A KeyValue's bytes beyond its row, family, qualifier and value: key and value lengths (4 + 4), row length (2), family length (1), timestamp (8), type (1). */
const KEYVALUE_FRAMING = 20;
const PAGE = 20;

const started = performance.now();
const s = searchBenchSettings();
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const ns = `bench_${runId}`;
process.env.HBASE_NAMESPACE = ns;
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const cfg = loadConfig(process.env);
const restUrl = cfg.HBASE_REST_URL;
const headers: Record<string, string> = cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {};

try {
  const res = await fetch(`${restUrl}/version/cluster`, {
    headers: { ...headers, Accept: 'application/json' },
    signal: AbortSignal.timeout(5_000),
  });
  if (res.status !== 200) throw new Error(`answered ${res.status} to /version/cluster`);
} catch (err) {
  process.stderr.write(
    `search bench: the HBase REST gateway ${restUrl} does not answer (${(err as Error).message}).\n` +
      'Start the stack first with:  bash infra/local/stack.sh start   (or npm run stack:start), then run the bench again.\n',
  );
  process.exit(2);
}

const recorder = new RequestRecorder();
const hb = new HBaseRestClient({ baseUrl: restUrl, timeoutMs: 300_000, headers, onRequest: recorder.onRequest });
const deps: FeedDeps = {
  ...hbaseFeedStores(hb, ns),
  queue: { send: async () => {} },
  limits: feedLimits(cfg),
};
const log = (line: string) => process.stderr.write(`search bench: ${line}\n`);

let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await dropBenchNamespace(hb, restUrl, headers, ns, log);
}
process.once('SIGINT', () => {
  log('interrupted, dropping the bench namespace…');
  void cleanup().finally(() => process.exit(130));
});

interface Population {
  posts: number;
  entries: number;
  /** Σ (row + family + qualifier + value) over the entries. */
  cellBytes: number;
  /** Σ the same + KEYVALUE_FRAMING: the KeyValue as HBase stores it uncompressed. */
  keyValueBytes: number;
  /** Posts holding each query (as the corpus wrote them). */
  holding: Record<string, number>;
  seconds: number;
}

const authors = Array.from({ length: s.authors }, (_, i) => `sb${i}`);
const text = corpus({ seed: s.seed, minChars: s.minChars, maxChars: s.maxChars, rareEvery: s.rareEvery });
const now = Date.now();
/** The corpus spans the 30 days before the run, post i after post i − 1. */
const span = 30 * 24 * 3600_000;
const millisOf = (i: number) => now - span + Math.floor((i * span) / s.posts);
const QUERIES: Array<[label: string, query: string]> = [
  ['rare word', RARE_WORD],
  ['common word', COMMON_WORD],
  ['two words', TWO_WORDS],
];
const population: Population = {
  posts: 0,
  entries: 0,
  cellBytes: 0,
  keyValueBytes: 0,
  holding: Object.fromEntries(QUERIES.map(([label]) => [label, 0])),
  seconds: 0,
};

/** Post i's content row and search entries, in the layouts publish writes. */
function chunk(from: number, to: number): { content: RowInput[]; search: RowInput[] } {
  const content: RowInput[] = [];
  const search: RowInput[] = [];
  for (let i = from; i < to; i++) {
    const body = text(i);
    const author = authors[i % authors.length]!;
    const millis = millisOf(i);
    const suffix = i.toString(16).padStart(12, '0');
    const id = formatPostId({ author, millis, suffix });
    content.push({
      key: postKey(author, millis, Uint8Array.from(Buffer.from(suffix, 'hex'))),
      cells: [
        { column: 'p:b', value: body },
        { column: 'p:t', value: String(millis) },
      ],
    });
    for (const term of indexTerms({ body })) {
      const key = searchEntryKey(term, id);
      const bytes = Buffer.byteLength(key) + 1 + 1; // row + family 's' + qualifier 'a' + value ''
      population.cellBytes += bytes;
      population.keyValueBytes += bytes + KEYVALUE_FRAMING;
      search.push({ key, cells: [{ column: 's:a', value: '' }] });
    }
    if (body.includes(RARE_WORD)) population.holding['rare word']!++;
    if (body.includes(COMMON_WORD)) population.holding['common word']!++;
    if (TWO_WORDS.split(' ').every((w) => body.includes(w))) population.holding['two words']!++;
  }
  population.entries += search.length;
  population.posts += to - from;
  return { content, search };
}

/** Writes posts [from, to) with batched puts, the next chunk generated while the last is written. */
async function populate(from: number, to: number): Promise<void> {
  const t0 = performance.now();
  const contentTable = qualifiedTableName(ns, 'content');
  const searchTable = qualifiedTableName(ns, 'search');
  let pending: Promise<unknown> = Promise.resolve();
  let lastLog = 0;
  for (let c = from; c < to; c += s.chunkPosts) {
    const rows = chunk(c, Math.min(to, c + s.chunkPosts));
    await pending;
    pending = Promise.all([
      bulkPut(hb, contentTable, rows.content, { concurrency: 1, maxRows: 1000, maxCells: 2000 }),
      bulkPut(hb, searchTable, rows.search, { concurrency: s.writeConcurrency, maxRows: 2000, maxCells: 2000 }),
    ]);
    if (c > from && performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      const secs = (lastLog - t0) / 1000;
      log(
        `${c.toLocaleString('en-US')} / ${to.toLocaleString('en-US')} posts, ${Math.round((c - from) / Math.max(secs, 0.001))} posts/s`,
      );
    }
  }
  await pending;
  population.seconds += (performance.now() - t0) / 1000;
}

interface QueryFigure {
  label: string;
  query: string;
  posts: number;
  holding: number;
  latency: LatencySummary;
  /** Posts on the first page (the last timed search). */
  shown: number;
  requests: number;
  roundTrips: number;
}

async function measureQueries(): Promise<QueryFigure[]> {
  const out: QueryFigure[] = [];
  for (const [label, query] of QUERIES) {
    for (let i = 0; i < s.warmup; i++) await searchPosts(deps, query, PAGE);
    const samples: number[] = [];
    let shown = 0;
    let requests = 0;
    let roundTrips = 0;
    for (let i = 0; i < s.queryReps; i++) {
      const t0 = performance.now();
      const r = await recorder.record(() => searchPosts(deps, query, PAGE));
      samples.push(performance.now() - t0);
      shown = r.result.items.length;
      requests = Math.max(requests, r.requests);
      roundTrips = Math.max(roundTrips, r.sequential);
    }
    out.push({
      label,
      query,
      posts: population.posts,
      holding: population.holding[label]!,
      latency: summarize(samples),
      shown,
      requests,
      roundTrips,
    });
  }
  return out;
}

/** The search table's store files after a flush, in bytes; or why it could not be read. */
function storeFileBytes(): { bytes: number } | { unavailable: string } {
  const table = qualifiedTableName(ns, 'search');
  if (!existsSync(s.hbaseLib)) return { unavailable: `no HBase jars at ${s.hbaseLib}` };
  const source = join(dirname(fileURLToPath(import.meta.url)), 'search', 'FlushTable.java');
  const flush = spawnSync(
    'java',
    ['-Xmx128m', '-cp', join(s.hbaseLib, '*'), source, s.zkHost, String(s.zkPort), table],
    {
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  if (flush.status !== 0 || !flush.stdout.includes('flushed'))
    return {
      unavailable: `flush failed: ${(flush.error?.message ?? flush.stderr).trim().split('\n').slice(-2).join(' | ')}`,
    };
  const dir = join(s.hbaseData, ns, 'search');
  if (!existsSync(dir)) return { unavailable: `no table directory at ${dir}` };
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      // Store files live in <region>/s/; .regioninfo, recovered edits and temporaries are not the index.
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && basename(d) === 's' && !e.name.startsWith('.')) bytes += statSync(p).size;
    }
  };
  walk(dir);
  return { bytes };
}

interface LagFigure {
  n: number;
  searchable: LatencySummary;
  publish: LatencySummary;
  /** Searches until the post was on the page (1 = the first search found it). */
  searchesMax: number;
}

async function measureLag(): Promise<LagFigure> {
  const searchable: number[] = [];
  const publish: number[] = [];
  let searchesMax = 0;
  for (let i = 0; i < s.lagPosts; i++) {
    const word = `lag${runId}n${i}`;
    const t0 = performance.now();
    const { post } = await publishPost(deps, authors[i % authors.length]!, { body: `${COMMON_WORD}发了一条 ${word}` });
    publish.push(performance.now() - t0);
    let searches = 0;
    for (;;) {
      searches++;
      const page = await searchPosts(deps, word, PAGE);
      if (page.items.some((p) => p.id === post.id)) break;
      if (performance.now() - t0 > 30_000) throw new Error(`post ${post.id} not searchable after 30 s`);
    }
    searchable.push(performance.now() - t0);
    searchesMax = Math.max(searchesMax, searches);
  }
  return { n: s.lagPosts, searchable: summarize(searchable), publish: summarize(publish), searchesMax };
}

interface HotFigure {
  engagements: number;
  posts: number;
  people: number;
  written: number;
  ranked: number;
  job: LatencySummary;
}

/** A day of engagements on the newest posts (most on a few, as likes go), then the ranking job, timed. */
async function measureHotJob(): Promise<HotFigure> {
  const posts = Math.min(s.hotPosts, s.posts);
  const people = Math.max(100, Math.floor(s.hotEngagements / 10));
  let seed = s.seed;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const rows = new Map<string, RowInput>();
  for (let k = 0; k < s.hotEngagements; k++) {
    const i = s.posts - 1 - Math.floor(posts * random() ** 3);
    const postId = formatPostId({
      author: authors[i % authors.length]!,
      millis: millisOf(i),
      suffix: i.toString(16).padStart(12, '0'),
    });
    const at = Math.max(millisOf(i), now - Math.floor(random() * 24 * 3600_000));
    const key = hotEngagementKey(hotShardOf(postId), hotBucketOf(at));
    const id = Buffer.from(key).toString('hex');
    const row = rows.get(id) ?? { key, cells: [] };
    row.cells.push({ column: `e:${hotEngagementQualifier(postId, `hb${k % people}`)}`, value: '', timestamp: at });
    rows.set(id, row);
  }
  await bulkPut(hb, qualifiedTableName(ns, 'hot'), [...rows.values()], { concurrency: 4, maxRows: 50, maxCells: 5000 });
  const times: number[] = [];
  let ranked = 0;
  let read = 0;
  for (let r = 0; r < s.hotReps; r++) {
    const run = await rankHot(deps, now);
    times.push(run.ms);
    ranked = run.posts;
    read = run.engagements;
  }
  return { engagements: s.hotEngagements, posts, people, written: read, ranked, job: summarize(times) };
}

try {
  log(`namespace ${ns}; ${s.posts.toLocaleString('en-US')} posts (${s.smallPosts.toLocaleString('en-US')} first)`);
  const hbaseVersion = await hb.clusterVersion();
  await applySchema(hb, ns);
  await bulkPut(
    hb,
    qualifiedTableName(ns, 'users'),
    authors.map((h) => userRow(h, now - span - 3600_000, { followers: 0, following: 0, posts: 0 })),
    { concurrency: 2 },
  );

  await populate(0, s.smallPosts);
  const small = { ...population, holding: { ...population.holding } };
  log(`${small.posts} posts in ${small.seconds.toFixed(1)} s; timing the queries`);
  const smallQueries = await measureQueries();

  await populate(s.smallPosts, s.posts);
  // Flushed before the big corpus is searched: its pages then read store files, as they would
  // on a table that has been live for a while, and the files give the index's size on disk.
  log(`${population.posts} posts in ${population.seconds.toFixed(1)} s; flushing the search table`);
  const disk = storeFileBytes();
  log('timing the queries');
  const bigQueries = await measureQueries();

  log('publish → searchable');
  const lag = await measureLag();

  log(`the hot job over a day of ${s.hotEngagements.toLocaleString('en-US')} engagements`);
  const hot = await measureHotJob();

  const perPost = (n: number) => Math.round((n / population.posts) * 10) / 10;
  const index = {
    posts: population.posts,
    entries: population.entries,
    entriesPerPost: perPost(population.entries),
    cellBytesPerPost: perPost(population.cellBytes),
    keyValueBytesPerPost: perPost(population.keyValueBytes),
    ...('bytes' in disk
      ? { storeFileBytes: disk.bytes, storeFileBytesPerPost: perPost(disk.bytes) }
      : { storeFileUnavailable: disk.unavailable }),
  };
  const queries = QUERIES.map(([label], i) => {
    const a = smallQueries[i]!;
    const b = bigQueries[i]!;
    return {
      label,
      query: a.query,
      small: a,
      big: b,
      p50Ratio: Math.round((b.latency.medianMs / a.latency.medianMs) * 100) / 100,
      p99Ratio: Math.round((b.latency.p99Ms / a.latency.p99Ms) * 100) / 100,
    };
  });

  printTable(
    `Search index (${population.posts.toLocaleString('en-US')} posts)`,
    ['figure', 'value'],
    [
      ['entries per post', index.entriesPerPost],
      ['bytes per post: row + family + qualifier + value', index.cellBytesPerPost],
      ['bytes per post: KeyValues, uncompressed', index.keyValueBytesPerPost],
      [
        'bytes per post: store files on disk after a flush',
        'storeFileBytesPerPost' in index ? index.storeFileBytesPerPost : `– (${index.storeFileUnavailable})`,
      ],
      ['population, posts/s', Math.round(population.posts / population.seconds)],
    ],
  );
  printTable(
    `Search, first page of ${PAGE} (ms), ${small.posts.toLocaleString('en-US')} vs ${population.posts.toLocaleString('en-US')} posts`,
    ['query', 'posts holding it', 'p50', 'p99', 'p50', 'p99', 'p50 ×', 'p99 ×', 'requests', 'round trips'],
    queries.map((q) => [
      `${q.label} (${q.query})`,
      `${q.small.holding} / ${q.big.holding}`,
      q.small.latency.medianMs,
      q.small.latency.p99Ms,
      q.big.latency.medianMs,
      q.big.latency.p99Ms,
      q.p50Ratio,
      q.p99Ratio,
      `${q.small.requests} / ${q.big.requests}`,
      `${q.small.roundTrips} / ${q.big.roundTrips}`,
    ]),
  );
  printTable(
    `Publish → searchable (${lag.n} posts, ms)`,
    ['figure', 'p50', 'p99'],
    [
      ['publish → on the search page', lag.searchable.medianMs, lag.searchable.p99Ms],
      ['the publish alone', lag.publish.medianMs, lag.publish.p99Ms],
      [`searches until found (max)`, lag.searchesMax, ''],
    ],
  );

  printTable(
    `The hot job over a day of activity (${hot.engagements.toLocaleString('en-US')} engagements by ${hot.people.toLocaleString('en-US')} people on ${hot.posts.toLocaleString('en-US')} posts, ms)`,
    ['figure', 'value'],
    [
      ['engagement entries read (person × post × hour)', hot.written],
      ['posts ranked', hot.ranked],
      ['job p50 ms', hot.job.medianMs],
      ['job max ms', hot.job.p99Ms],
    ],
  );

  const wallSeconds = Math.round((performance.now() - started) / 1000);
  const result = {
    at: new Date().toISOString(),
    profile: s.profile,
    cores: availableParallelism(),
    node: process.version,
    hbaseVersion,
    wallSeconds,
    settings: { ...s, hbaseLib: undefined, hbaseData: undefined },
    population: {
      small: { posts: small.posts, seconds: Math.round(small.seconds * 10) / 10 },
      big: { posts: population.posts, seconds: Math.round(population.seconds * 10) / 10 },
    },
    index,
    queries,
    lag,
    hot,
  };
  mkdirSync(s.outDir, { recursive: true });
  const out = join(s.outDir, `${s.outName}.json`);
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  const page = refreshBenchmarksPage(s.outDir) ? ' and docs/benchmarks.md' : '';
  console.log(`\nmeasured in ${wallSeconds} s; wrote ${out}${page}`);
} finally {
  await cleanup();
}
