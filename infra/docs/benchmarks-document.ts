// infra/docs/benchmarks-document.ts — renders docs/benchmarks.md from the results the bench
// commands write into docs/bench/*.json: what each benchmark measures and its targets (fixed
// text here), then the latest figures of each result file present. The figures come only from
// the JSON, so the page is as new as the last run of each bench; earlier runs live in git.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the full bench runs write their results, and the page rendered from them. */
export const BENCH_DIR = fileURLToPath(new URL('../../docs/bench', import.meta.url));
export const BENCHMARKS_PAGE = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));

interface Target {
  label: string;
  formula?: string;
  value: number;
  kind: 'max' | 'min' | 'exact' | 'band' | 'info' | string;
  target: number;
  unit: string;
  pass: boolean;
}

interface Latency {
  medianMs: number;
  p99Ms: number;
}

/** The fields of each result file (docs/bench/*.json) this page reads. */
interface FeedResult {
  at: string;
  profile: string;
  cores: number;
  node: string;
  hbaseVersion: string;
  wallSeconds: number;
  targets: (Target & { id: string })[];
  routes: {
    floor: { shape: string } & Latency;
    routes: {
      route: string;
      latency: Latency;
      p50Ratio: number;
      p99Ratio: number;
      requests: { mean: number; max: number };
      sequentialRoundTrips: { max: number };
    }[];
  };
}

interface MediaResult {
  at: string;
  profile: string;
  cores: number;
  node: string;
  wallSeconds: number;
  targets: Target[];
}

interface RegionsPhase {
  load: { perNode: Record<string, number> };
}

interface RegionsResult {
  at: string;
  profile: string;
  layouts: { id: string; label: string }[];
  /** phase → layout → its load. */
  phases: Record<string, Record<string, RegionsPhase> | undefined>;
  targets: { label: string; value: number; target: number; pass: boolean }[];
  regionServers: unknown[];
  settings: { regions: number; readers: number };
  machine: { cores: number };
}

interface MemoryFigures {
  offlineMB: number;
  offlineThreads: number;
  hbaseMasterMB: number | null;
  hbaseRestMB: number | null;
}

interface LiveResult {
  at: string;
  profile: string;
  ok: boolean;
  cores: number;
  node: string;
  wallSeconds: number;
  settings: {
    sockets: number;
    posts: number;
    missedPosts: number;
    connectConcurrency: number;
    stormJitterMs: number;
    workerTimeoutSeconds: number;
    workerConcurrency: number;
  };
  connect: { total: Latency };
  delivery: {
    posts: {
      reached: number;
      lastMs: number | null;
      firstMs: number | null;
      p50Ms: number | null;
      p99Ms: number | null;
    }[];
    /** null when no post reached every socket. */
    lastSocketP50Ms: number | null;
    lastSocketP99Ms: number | null;
    postsReachingEverySocket: number;
    socketsWithEveryPost: number;
    doubled: number;
  };
  storm: {
    settleMs: number;
    reconnect?: Latency;
    settledSockets: number;
    lost: number;
    doubled: number;
    extra: number;
    failureCount: number;
  };
  /** The messages phase (absent from runs before it existed). */
  messages?: {
    pairs: number;
    perPair: number;
    sent: number;
    delivered: number;
    deliveryP50Ms: number | null;
    deliveryP99Ms: number | null;
    lost: number;
    doubled: number;
    failedSends: number;
  };
  memory: Record<string, MemoryFigures | undefined>;
}

interface SearchQueryFigure {
  posts: number;
  holding: number;
  latency: Latency;
  requests: number;
  roundTrips: number;
}

interface SearchResult {
  at: string;
  profile: string;
  cores: number;
  node: string;
  hbaseVersion: string;
  wallSeconds: number;
  population: Record<'small' | 'big', { posts: number; seconds: number }>;
  index: {
    posts: number;
    entriesPerPost: number;
    cellBytesPerPost: number;
    keyValueBytesPerPost: number;
    storeFileBytesPerPost?: number;
    storeFileUnavailable?: string;
  };
  queries: {
    label: string;
    query: string;
    small: SearchQueryFigure;
    big: SearchQueryFigure;
    p50Ratio: number;
    p99Ratio: number;
  }[];
  lag: { n: number; searchable: Latency; publish: Latency; searchesMax: number };
  /** Absent in results written before the hot job was measured. */
  hot?: { engagements: number; posts: number; people: number; written: number; ranked: number; job: Latency };
}

interface FloorResult {
  at: string;
  reps: number;
  node: string;
  hbaseVersion: string;
  rowGet: Latency;
  multiGet20: Latency;
  batchPut: { batchSize: number; cellsPerSec: number }[];
}

interface BeforeAfter {
  before: number;
  after: number;
}

interface ColdResult {
  measuredAt: string;
  machine: { cpus: number; node: string };
  runsPerFunction: number;
  summary: {
    functions: number;
    totalBundleBytes: BeforeAfter;
    totalZipBytes: BeforeAfter;
    medianRequireCpuMs: BeforeAfter;
    medianRequireMs: BeforeAfter;
    medianFirstInvokeMs: BeforeAfter;
  };
}

const HEADER = `<!-- docs/benchmarks.md — written by npm run docs:benchmarks (infra/docs/write-benchmarks.ts) from docs/bench/*.json; every bench:* command runs it after its measurement. Do not edit. -->
# Benchmarks

Each benchmark runs against the real local stack and measures what it can as a **ratio to a
floor measured in the same run** (the raw HBase request the operation cannot avoid), so a busy
or slow machine moves both sides. Every full run writes its result to \`docs/bench/\` and
rewrites this page from the files there; a \`--smoke\` run (the tiny configuration CI runs) writes
to \`bench-results/\` instead and leaves this page alone. Earlier figures are in git history.

| command | measures | result |
|---|---|---|
| \`npm run bench\` | the feed: timeline latency and round trips, hot-post likes, fan-out throughput, publish → visible, backfill, per-route costs, worker memory | \`docs/bench/feed-bench.json\` + \`.svg\` |
| \`npm run bench:media\` | pictures: upload → ready, worker throughput and memory, timelines with pictures | \`docs/bench/media-bench.json\` + \`.svg\` |
| \`npm run bench:regions\` | load per RegionServer with salted keys vs unsalted ones, on a 3-RegionServer stack it starts itself | \`docs/bench/regions-bench.json\` + \`.svg\` |
| \`npm run bench:live\` | the live channel: publish → the last of 1,000 sockets, a reconnect storm with nothing lost or doubled, a private message → the other side's socket, connect times, the local stack's memory with the sockets open | \`docs/bench/live-bench.json\` |
| \`npm run bench:search\` | post search: index bytes per post, query p50 / p99 at 10,000 and 1,000,000 posts, publish → searchable; the hot job over a day | \`docs/bench/search-bench.json\` |
| \`npm run bench:hbase\` | the raw HBase floor: row get, multi-get, batch put | \`docs/bench/hbase-floor.json\` |
| \`npm run bench:cold\` | per function: zip and bundle size, cold \`require\` CPU and wall time, first invocation | \`docs/bench/cold-start.json\` + [\`cold-start.md\`](bench/cold-start.md) |

All need the stack running (\`npm run stack:start\`) but \`bench:regions\`, which brings its own.
Run them on a quiet machine: they load every core.`;

const FEED_TEXT = `## Feed (\`npm run bench\`)

\`test/bench/feed.bench.ts\` seeds a follow graph (2,000 users, a pool of 100,000 follower-only
users, about a million posts in the seed's layout for the backfill comparison) and measures:

- **home timeline p99 / floor p99**, the floor being the raw inbox get then 3 parallel
  multi-gets (target ≤ 1.5×), and the **sequential round trips** per page (≤ 2);
- **"anything newer?"**, the new-posts check, against a timeline page (≤ 0.5×, 1 round trip);
- **1,000 concurrent likes on one post** → \`likeCount\` exactly 1,000, and again (idempotent);
- **fan-out inbox cells/s / raw batch-put cells/s**, 1,000 cells per put, at 10,000 and 100,000
  followers (≥ 70 %); the first post after the follower list changed (packs rebuilt) beside it;
- **fan-out of an author held in groups**: the same ratio, 12 posts a case, for the
  10,000-follower author in 100 and 1,000 ordinary groups of followers, then in 10 and 100
  followers' 特别关注 (members put through the use cases), and the time from the publish to the
  last 特别关注 notice written. Groups add no inbox writes: the first message of every post reads
  the author's holders index beside its other first reads (one get, held or not; its row has a
  cell per group holding the author), so ordinary groups should leave the ratio where it is. Each
  fan keeping the author in 特别关注 costs that first message a read of the fan's book and the
  notice's writes (about 7 requests), in notify messages of 100 fans that run beside the inbox
  writes (timed here in the same in-process drain): the requests per post in these rows grow with
  the fans, and share the gateway with the inbox puts;
- **publish → visible in the last of 100,000 followers**, 4 worker invocations at once (p50 ≤ 3 s);
- **follow backfill rows examined**: a full scan in the seed's layout / ours, from the region
  servers' read counters (≥ 100×);
- **fan-out worker memory**: retained heap at 100k / 1k followers (1.00 ± 10 %), peak RSS / its
  512 MB (≤ 50 %);
- **per route**: each route class through the use case its handler calls, on the real adapters,
  100 calls each, charged with its HBase requests and sequential round trips (the
  \`Server-Timing\` definition); reads carry a target of 2 round trips (3 for a reader of
  celebrities), writes are information. The floor is the same run's raw row get.

Every route's declared HBase round trips and requests per page — the private conversations'
list, page and badge among them — are in the route-cost table, \`shared/schema/route-costs.ts\`
(at most 2 round trips a page), held by \`test/unit/route-costs.test.ts\` and measured through
the API by \`test/e2e/route-costs.test.ts\`.`;

const MEDIA_TEXT = `## Pictures (\`npm run bench:media\`)

\`test/bench/media.bench.ts\` works in throwaway namespaces and a throwaway media queue, and
removes the objects it made:

- **upload → ready** of a 12-megapixel phone photo (3.8 MB JPEG with EXIF): the upload start, an
  HTTP PUT to the presigned URL on the object store, the completion, the real worker fed from the
  media queue, a read that says \`ready\`. Floor, on the same file: raw PUT + GET + the image
  processor + PUT of the three variants;
- **images per second** of one worker, beside the processor's own pace;
- **worker peak RSS** for the 40-megapixel limit in a child process with the function's
  environment, against \`processMedia\`'s \`memorySize\`;
- **timeline p99 / floor** on two identical graphs, one with nine pictures in every post, one
  with none (target ≤ 1.5×, 2 round trips).`;

const REGIONS_TEXT = `## Regions (\`npm run bench:regions\`)

\`test/bench/regions.bench.ts\` starts a stack with three RegionServers in its own state
directory and ports (REST 28080, ZooKeeper 22818; an already answering gateway there is reused),
creates tables pre-split into 4 regions per RegionServer for three layouts holding the same data
— ours (salted), and the seed's uid keys split over the uid space at creation or at the
quantiles of the uids that exist — and counts the requests each RegionServer serves in three
phases: fan-out writes, home-timeline reads, and readers registered after the split. Target:
max / mean ≤ 1.25 for ours. Split at the data's quantiles the seed's layout is as even for the
users that exist, but every user registered afterwards sorts after the last split key (phase c);
the salt needs neither knowledge of the ids nor a re-split. It spreads *users*: one author's
posts stay one contiguous range, by design.`;

const LIVE_TEXT = `## Live channel (\`npm run bench:live\`)

\`test/bench/live.bench.ts\` starts the servers \`npm start\` runs (serverless-offline: the HTTP
API, the WebSocket API and the fan-out worker, fed by the local SQS poller with 4 invocations at
once) on a throwaway namespace and queues, with the fan-out worker's deployed timeout, 30 s
(\`--worker-timeout 3\` gives it \`npm start\`'s, which leaves 2 s of HBase work per invocation).
It registers 1,000 readers following one author (through the use cases; \`--sockets N\` to
choose, \`--smoke\` for 50) and opens a socket for each, 16 connects at once. Each sends
\`resume\` and applies pushed events as the protocol says (the next position directly, a gap by
resuming). It measures:

- **connect** p50 / p99: the upgrade (\`$connect\`) and the first \`resume\`'s answer;
- **publish → the event at the last socket**: the author publishes over HTTP, one post at a
  time; p50 / p99 over the posts, and the spread over the sockets for each post. Every socket
  must apply every post exactly once;
- **a reconnect storm**: every socket drops (the bench waits for the 1,000 \`$disconnect\`s), the
  author publishes posts, every socket reconnects at the same instant and resumes from its last
  position; each must end with exactly the missed posts, at the next positions (lost, doubled,
  extra are counted), and the time until the last has them;
- **a private message → the other side's socket**: 50 pairs of people, each side with a socket
  of its own, exchange 4 messages each (the sides in turn, all pairs at once, after one untimed
  warm-up message) through \`POST /users/{h}/conversations/{peer}/messages\`; from the send's
  start to the \`conversation\` event for that message on the other person's socket, p50 / p99
  over every message; each must arrive exactly once (lost and doubled are counted);
- **memory**: RSS of serverless-offline's process group (the Lambda emulation's worker threads
  live in it) and of the HBase JVMs, before the sockets, with them open, at the storm's peak.

No floor: the figures are the local emulation's, on a machine the bench shares with its servers
and its 1,000 clients. The run's JSON also holds, phase by phase, each function's invocations and
durations as serverless-offline logged them, and any that ran out of time.`;

const SEARCH_TEXT = `## Post search (\`npm run bench:search\`)

\`test/bench/search.bench.ts\` writes synthetic Weibo-like posts (Zipf-drawn Chinese words with
some English ones, 20–40 characters) and their search entries with raw batched puts in the real
layouts, in a throwaway namespace, and measures through the real use case (\`searchPosts\`):

- **index size per post**: the entries' bytes as HBase stores each KeyValue uncompressed (row,
  family, qualifier, value and the KeyValue's 20 bytes of lengths, timestamp and type), counted as
  they are written; beside it the search table's store files on disk after a flush, divided by
  the posts: smaller, as the family's FAST_DIFF block encoding stores a key's shared prefix once
  (block indexes and bloom filters included, several files not yet compacted);
- **a first page of 20** for a rare word, a common word and two words, p50 / p99, at 10,000 posts
  and again once the same corpus has grown to 1,000,000 (\`--posts N\` to choose): a page reads a
  bounded number of index rows whatever the corpus, so the ratio should stay near 1, and the
  sequential round trips a page made are the same at both sizes;
- **publish → searchable**: \`publishPost\`, then search for a word only that post holds until it
  is on the page. The entries are written before the post row, so the first search finds it: the
  figure is the publish plus one search;
- **the hot job** (\`rankHot\`, as the 5-minute schedule runs it) over a day of activity: engagements
  filed over the last 24 hours on the corpus's newest posts, most of them on a few, then the job
  (read the window, rank, drop deleted posts, write the ranking) timed over a few runs.`;

const FLOOR_TEXT = `## The raw HBase floor (\`npm run bench:hbase\`)

The HBase REST gateway's own cost on this stack, with nothing of the product in between.`;

const COLD_TEXT = `## Cold starts (\`npm run bench:cold\`)

\`test/bench/cold-start.bench.ts\` packages two versions of the code (this checkout, "after", and
a reference, "before") and measures per function: zip and bundle size, the \`require\` of the
extracted handler in a fresh \`node\` (wall and CPU time; CPU is the steadier figure on a busy
machine), and its first invocation with a minimal event; medians of 5 processes. Every function
is in [\`bench/cold-start.md\`](bench/cold-start.md).`;

const num = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function formatValue(value: number, unit: string): string {
  if (unit === '%') return `${num(value * 100, 1)} %`;
  if (unit === '×') return `${num(value, 2)}×`;
  if (unit === 'ms') return `${num(value)} ms`;
  return num(value, Number.isInteger(value) ? 0 : 2);
}

function formatTarget(t: Target): string {
  if (t.kind === 'info') return 'info';
  const v = formatValue(t.target, t.unit);
  if (t.kind === 'max') return `≤ ${v}`;
  if (t.kind === 'min') return `≥ ${v}`;
  if (t.kind === 'band') return `1.00 ± ${num(t.target * 100)} %`;
  return v;
}

function targetsTable(targets: Target[]): string {
  const rows = targets.map((t) => {
    const verdict = t.kind === 'info' ? '' : t.pass ? 'pass' : '**miss**';
    const measured = t.formula ? `${formatValue(t.value, t.unit)} (${t.formula})` : formatValue(t.value, t.unit);
    return `| ${t.label.trim()} | ${measured} | ${formatTarget(t)} | ${verdict} |`;
  });
  return ['| figure | measured | target | |', '|---|---|---|---|', ...rows].join('\n');
}

/** A run on HBase's facts: profile, machine, runtime, HBase, wall time. */
const onHBase = (d: { profile: string; cores: number; node: string; hbaseVersion: string; wallSeconds: number }) => [
  `profile ${d.profile}`,
  `${d.cores} cores`,
  `Node ${d.node}`,
  `HBase ${d.hbaseVersion}`,
  `${num(d.wallSeconds)} s`,
];

function runLine(at: string, parts: (string | undefined)[]): string {
  return `Latest run: ${at.slice(0, 10)}; ${parts.filter(Boolean).join(', ')}.`;
}

const read = (dir: string, name: string): unknown => {
  const path = join(dir, name);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
};

function feed(d: FeedResult): string {
  const targets = d.targets.filter((t) => !t.id.startsWith('route_'));
  const routes = d.routes;
  const routeRows = routes.routes.map(
    (r) =>
      `| ${r.route} | ${num(r.latency.medianMs, 1)} / ${num(r.latency.p99Ms, 1)} | ${num(r.p50Ratio, 2)}× | ${num(r.p99Ratio, 2)}× | ${num(r.requests.mean, 1)} (${r.requests.max}) | ${r.sequentialRoundTrips.max} |`,
  );
  return [
    runLine(d.at, [...onHBase(d)]),
    '![feed benchmark chart](bench/feed-bench.svg)',
    targetsTable(targets),
    `Per route (floor: ${routes.floor.shape}, ${num(routes.floor.medianMs, 2)} / ${num(routes.floor.p99Ms, 2)} ms p50 / p99):`,
    [
      '| route | p50 / p99 ms | p50 / floor | p99 / floor | requests (max) | round trips (max) |',
      '|---|---|---|---|---|---|',
      ...routeRows,
    ].join('\n'),
  ].join('\n\n');
}

function media(d: MediaResult): string {
  return [
    runLine(d.at, [`profile ${d.profile}`, `${d.cores} cores`, `Node ${d.node}`, `${num(d.wallSeconds)} s`]),
    '![pictures benchmark chart](bench/media-bench.svg)',
    targetsTable(d.targets),
  ].join('\n\n');
}

function regions(d: RegionsResult): string {
  const layouts = d.layouts;
  const phases: [string, string][] = [
    ['fanout', '(a) fan-out writes'],
    ['reads', '(b) home-timeline reads'],
    ['newcomers', '(c) readers registered after the split'],
  ];
  const cell = (p: RegionsPhase) => {
    const counts = Object.values(p.load.perNode);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    const spread = mean > 0 ? Math.max(...counts) / mean : 0;
    return `${counts.map((c) => num(c)).join(' / ')} — ${num(spread, 2)}×`;
  };
  const rows = phases
    .filter(([id]) => d.phases[id])
    .map(([id, label]) => {
      const phase = d.phases[id]!;
      return `| ${label} | ${layouts.map((l) => (phase[l.id] ? cell(phase[l.id]!) : '–')).join(' | ')} |`;
    });
  const targets = d.targets.map(
    (t) => `| ${t.label} | ${num(t.value, 2)} | ≤ ${num(t.target, 2)} | ${t.pass ? 'pass' : '**miss**'} |`,
  );
  return [
    runLine(d.at, [
      `profile ${d.profile}`,
      `${d.regionServers.length} RegionServers`,
      `${d.settings.regions} regions per table`,
      `${num(d.settings.readers)} readers`,
      `${d.machine.cores} cores`,
    ]),
    '![regions chart](bench/regions-bench.svg)',
    ['| figure | measured | target | |', '|---|---|---|---|', ...targets].join('\n'),
    'Requests per RegionServer, then max / mean:',
    [
      `| phase | ${layouts.map((l) => l.label).join(' | ')} |`,
      `|---|${layouts.map(() => '---|').join('')}`,
      ...rows,
    ].join('\n'),
  ].join('\n\n');
}

function live(d: LiveResult): string {
  const st = d.storm;
  const mb = (v: number | null) => (v === null ? '–' : `${num(v)} MB`);
  const mem = (m: MemoryFigures | undefined) =>
    m
      ? `${num(m.offlineMB)} MB (${m.offlineThreads} threads) | ${mb(m.hbaseMasterMB)} | ${mb(m.hbaseRestMB)}`
      : '– | – | –';
  const memoryRows: [string, string][] = [
    ['before any socket', 'before'],
    [`${num(d.settings.sockets)} sockets open`, 'open'],
    ['peak while connecting', 'connectPeak'],
    ['peak in the reconnect storm', 'stormPeak'],
    ['after every socket closed', 'closed'],
  ];
  const ms = (v: number | null) => (v === null ? '–' : num(v));
  const each = d.delivery.posts
    .map((p) =>
      p.lastMs === null
        ? `reached ${num(p.reached)} sockets`
        : `${ms(p.firstMs)} / ${ms(p.p50Ms)} / ${ms(p.p99Ms)} / ${ms(p.lastMs)}`,
    )
    .join('; ');
  const dl = d.delivery;
  return [
    runLine(d.at, [
      `profile ${d.profile}`,
      `${num(d.settings.sockets)} sockets`,
      `fan-out worker timeout ${d.settings.workerTimeoutSeconds} s, ${d.settings.workerConcurrency} invocations at once`,
      `${d.cores} cores`,
      `Node ${d.node}`,
      `${num(d.wallSeconds)} s`,
      d.ok ? undefined : '**a post or a private message did not reach every socket, or was lost or doubled**',
    ]),
    [
      '| figure | measured |',
      '|---|---|',
      `| connect (upgrade + first resume answer), ${d.settings.connectConcurrency} at once, p50 / p99 | ${num(d.connect.total.medianMs)} / ${num(d.connect.total.p99Ms)} ms |`,
      `| publish → event at the last of ${num(d.settings.sockets)} sockets, p50 / p99 over the ${dl.postsReachingEverySocket} of ${dl.posts.length} posts that reached all | ${ms(dl.lastSocketP50Ms)} / ${ms(dl.lastSocketP99Ms)} ms |`,
      `| each post: first / p50 / p99 / last socket | ${each} ms |`,
      `| sockets that applied every post exactly once | ${num(d.delivery.socketsWithEveryPost)} of ${num(d.settings.sockets)} (${d.delivery.doubled} doubled) |`,
      `| reconnect storm (${d.settings.stormJitterMs ? `within ${num(d.settings.stormJitterMs)} ms` : 'all at once'}, ${d.settings.missedPosts} missed posts): until the last socket had them | ${num(st.settleMs / 1000, 2)} s |`,
      `| reconnect + resume in the storm, p50 / p99 | ${st.reconnect ? `${num(st.reconnect.medianMs)} / ${num(st.reconnect.p99Ms)} ms` : '–'} |`,
      `| storm: lost / doubled / extra / failed sockets | ${st.lost} / ${st.doubled} / ${st.extra} / ${st.failureCount} |`,
      ...(d.messages ? messageRows(d.messages) : []),
    ].join('\n'),
    [
      '| resident memory | serverless-offline | HBase master + RegionServer | HBase REST |',
      '|---|---|---|---|',
      ...memoryRows.map(([label, key]) => `| ${label} | ${mem(d.memory[key])} |`),
    ].join('\n'),
  ].join('\n\n');
}

function messageRows(m: NonNullable<LiveResult['messages']>): string[] {
  const ms = (v: number | null) => (v === null ? '–' : num(v));
  return [
    `| private message → the conversation event on the other side's socket (${num(m.pairs)} pairs × ${m.perPair} messages), p50 / p99 over the ${num(m.delivered)} delivered | ${ms(m.deliveryP50Ms)} / ${ms(m.deliveryP99Ms)} ms |`,
    `| messages: lost / doubled / failed sends | ${m.lost} / ${m.doubled} / ${m.failedSends} |`,
  ];
}

function search(d: SearchResult): string {
  const ix = d.index;
  const lat = (l: Latency) => `${num(l.medianMs, 1)} / ${num(l.p99Ms, 1)}`;
  const disk =
    ix.storeFileBytesPerPost === undefined
      ? `– (${ix.storeFileUnavailable ?? 'not measured'})`
      : `${num(ix.storeFileBytesPerPost)} B`;
  const { small, big } = d.population;
  return [
    runLine(d.at, [...onHBase(d), `${num(big.posts)} posts written in ${num(big.seconds)} s`]),
    [
      `| index, ${num(ix.posts)} posts | per post |`,
      '|---|---|',
      `| entries | ${num(ix.entriesPerPost, 1)} |`,
      `| KeyValues, uncompressed | ${num(ix.keyValueBytesPerPost)} B |`,
      `| of which row + family + qualifier + value | ${num(ix.cellBytesPerPost)} B |`,
      `| store files on disk after a flush | ${disk} |`,
    ].join('\n'),
    [
      `| first page of 20 | posts holding it | p50 / p99 ms at ${num(small.posts)} | p50 / p99 ms at ${num(big.posts)} | p50 ratio | p99 ratio | round trips |`,
      '|---|---|---|---|---|---|---|',
      ...d.queries.map(
        (q) =>
          `| ${q.label} (${q.query}) | ${num(q.small.holding)} / ${num(q.big.holding)} | ${lat(q.small.latency)} | ${lat(q.big.latency)} | ${num(q.p50Ratio, 2)}× | ${num(q.p99Ratio, 2)}× | ${q.small.roundTrips} / ${q.big.roundTrips} |`,
      ),
    ].join('\n'),
    [
      `| publish → searchable (${d.lag.n} posts) | p50 / p99 ms |`,
      '|---|---|',
      `| publish → on the search page | ${lat(d.lag.searchable)} |`,
      `| the publish alone | ${lat(d.lag.publish)} |`,
    ].join('\n'),
    ...(d.hot
      ? [
          [
            `| the hot job over a day: ${num(d.hot.engagements)} engagements by ${num(d.hot.people)} people on ${num(d.hot.posts)} posts | |`,
            '|---|---|',
            `| engagement entries read (person × post × hour) | ${num(d.hot.written)} |`,
            `| posts ranked | ${num(d.hot.ranked)} |`,
            `| one run, p50 / max ms | ${num(d.hot.job.medianMs)} / ${num(d.hot.job.p99Ms)} |`,
          ].join('\n'),
        ]
      : []),
  ].join('\n\n');
}

function floor(d: FloorResult): string {
  const lat = (l: Latency) => `${num(l.medianMs, 2)} | ${num(l.p99Ms, 2)}`;
  return [
    runLine(d.at, [`${d.reps} repetitions`, `Node ${d.node}`, `HBase ${d.hbaseVersion}`]),
    [
      '| operation | median ms | p99 ms |',
      '|---|---|---|',
      `| row get (1 round trip) | ${lat(d.rowGet)} |`,
      `| multi-get of 20 rows | ${lat(d.multiGet20)} |`,
    ].join('\n'),
    [
      '| batch put, cells per request | cells/s |',
      '|---|---|',
      ...d.batchPut.map((b) => `| ${num(b.batchSize)} | ${num(b.cellsPerSec)} |`),
    ].join('\n'),
  ].join('\n\n');
}

function cold(d: ColdResult): string {
  const s = d.summary;
  const kb = (bytes: number) => `${num(bytes / 1_048_576, 1)} MB`;
  const each = (bytes: number) => `${num(bytes / s.functions / 1_048_576, 2)} MB each`;
  return [
    runLine(d.measuredAt, [
      `${d.machine.cpus} cores`,
      `Node ${d.machine.node}`,
      `${d.runsPerFunction} processes per function`,
    ]),
    [
      `| all ${s.functions} functions | before | after |`,
      '|---|---|---|',
      `| bundles | ${kb(s.totalBundleBytes.before)} (${each(s.totalBundleBytes.before)}) | ${kb(s.totalBundleBytes.after)} (${each(s.totalBundleBytes.after)}) |`,
      `| zips | ${kb(s.totalZipBytes.before)} (${each(s.totalZipBytes.before)}) | ${kb(s.totalZipBytes.after)} (${each(s.totalZipBytes.after)}) |`,
      `| require, median CPU time | ${s.medianRequireCpuMs.before} ms | ${s.medianRequireCpuMs.after} ms |`,
      `| require, median wall time | ${s.medianRequireMs.before} ms | ${s.medianRequireMs.after} ms |`,
      `| first invocation, median | ${s.medianFirstInvokeMs.before} ms | ${s.medianFirstInvokeMs.after} ms |`,
    ].join('\n'),
  ].join('\n\n');
}

/** A result file, its fixed text, and how its figures render (the file is trusted to have its bench's shape). */
type Section = [file: string, text: string, render: (d: unknown) => string];
const section = <T>(file: string, text: string, render: (d: T) => string): Section => [
  file,
  text,
  (d) => render(d as T),
];

const SECTIONS: Section[] = [
  section('feed-bench.json', FEED_TEXT, feed),
  section('media-bench.json', MEDIA_TEXT, media),
  section('regions-bench.json', REGIONS_TEXT, regions),
  section('live-bench.json', LIVE_TEXT, live),
  section('search-bench.json', SEARCH_TEXT, search),
  section('hbase-floor.json', FLOOR_TEXT, floor),
  section('cold-start.json', COLD_TEXT, cold),
];

/** The whole page for the result files in `dir` (docs/bench); a bench with no result says so. */
export function renderBenchmarks(dir: string): string {
  const parts = SECTIONS.map(([file, text, render]) => {
    const data = read(dir, file);
    return `${text}

${data ? render(data) : `No result in \`docs/bench/${file}\` yet: run its command.`}`;
  });
  return `${[HEADER, ...parts].join('\n\n')}\n`;
}

/** Rewrites docs/benchmarks.md from docs/bench. */
export function writeBenchmarksPage(): void {
  writeFileSync(BENCHMARKS_PAGE, renderBenchmarks(BENCH_DIR));
}

/**
 * For a bench that just wrote its result into `outDir`: rewrites docs/benchmarks.md when that
 * is docs/bench (a full run), and leaves it alone for a smoke run or another directory.
 */
export function refreshBenchmarksPage(outDir: string): boolean {
  if (resolve(outDir) !== resolve(BENCH_DIR)) return false;
  writeBenchmarksPage();
  return true;
}
