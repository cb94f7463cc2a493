// test/bench/regions.bench.ts — `npm run bench:regions` (`-- --smoke` for a short run): does the
// salted row key spread load over several RegionServers? On a local cluster with several
// RegionServers, beside the main stack in its own state dir and ports (docs/benchmarks.md,
// "Regions"): the bench starts it through infra/local/stack.sh (HBASE_REGIONSERVERS=3,
// .local-rs, REST 28080, ZooKeeper 22818) and stops it at the end, also when the run fails or is
// interrupted; a gateway already answering there, or named by HBASE_REST_URL, is used as it is
// and left running. In one run:
//
//  1. tables created pre-split (shared/schema/tables.ts splitPoints; infra/local/PreSplit.java —
//     the REST gateway cannot pre-split): our inbox + content, and the seed's (seed 000:
//     inbox row = uid with cf:<author uid> versions, content row = uid_timestamp) twice, split the
//     two ways an operator would without a salt (./regions/seed-splits.ts);
//  2. fan-out writes: every post of the run written to every reader's inbox in batch puts of
//     FANOUT_CHUNK_SIZE rows — ours through the product's inbox store (HBaseInboxStore.add, the
//     call the fan-out worker makes per chunk), the seed's as its publishContent writes them;
//  3. home-timeline reads: every reader's inbox row read once, in random order — ours through
//     HBaseInboxStore.read (one get of the row), the seed's as its getAttendsContent reads it
//     (get of the uid row, 5 versions);
//  4. readers who register after the split (uids after the last one, as a sequential id grows):
//     each one's first inbox row, the run's posts backfilled — ours through
//     HBaseInboxStore.addManyToReaders, the seed's as one row of versions per reader;
//  per phase and layout: the requests each RegionServer served (region read + write counters of
//  the layout's tables, /status/cluster deltas), max / mean over the RegionServers.
// Target (issue 13): max / mean ≤ 1.25 for ours; the seed's figures beside it.
// Output: progress on stderr, a table on stdout, docs/bench/regions-bench.json + .svg
// (smoke: bench-results/regions-bench-smoke.*). The namespace is dropped at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StackSession, clusterVersion } from '../../infra/local/stack-control.js';
import { localPreSplitter, localStackHBase } from '../../infra/schema/local-pre-split.js';
import { HBaseInboxStore } from '../../shared/adapters/hbase/hbase-inbox-store.js';
import { feedLimits, loadConfig } from '../../shared/config/config.js';
import { postIdFromKey } from '../../shared/schema/row-keys.js';
import { HBaseRestClient, type RowInput } from '../../shared/hbase/index.js';
import { postKey } from '../../shared/schema/row-keys.js';
import { TABLES, qualifiedTableName, splitPoints } from '../../shared/schema/tables.js';
import { inPool } from './feed/bulk.js';
import { Progress } from './feed/progress.js';
import { prng, randomBytes, randomInt } from './feed/random.js';
import { regionsChartSvg, type ChartPanel } from './regions/chart.js';
import { liveNodes, nodeLoad, settledNodeSnapshot, type NodeLoad } from './regions/node-requests.js';
import { decimalStringSplit, quantileSplit } from './regions/seed-splits.js';
import { printTable } from './stats.js';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';
import { envInt } from '../support/env-int.js';

const TARGET = 1.25;
const argv = process.argv.slice(2);
const env = process.env;
const smoke = argv.includes('--smoke') || env.BENCH_PROFILE === 'smoke';
const int = (name: string, fallback: number, min = 1) => envInt(name, fallback, min, env);
// The multi-RegionServer stack of docs/local-stack.md, unless told otherwise. Its REST port is fixed
// rather than read from HBASE_REST_PORT, which a shell may hold for the main stack (18080): the
// bench must never start, stop or measure that one.
const REST_PORT = '28080';
const restUrl = (env.HBASE_REST_URL || `http://127.0.0.1:${REST_PORT}`).replace(/\/+$/, '');
const stackEnv: NodeJS.ProcessEnv = {
  ...env,
  WEIBO_LOCAL_DIR: resolve(env.WEIBO_LOCAL_DIR || '.local-rs'),
  HBASE_REST_PORT: REST_PORT,
  HBASE_ZK_PORT: env.HBASE_ZK_PORT || '22818',
  HBASE_REGIONSERVERS: env.HBASE_REGIONSERVERS || '3',
};
const stack = localStackHBase(stackEnv);
const ownStack = new StackSession(stackEnv);
/** Set once the bench namespace exists: what an interrupt must undo before the stack stops. */
let onInterrupt: () => Promise<void> = async () => {};
// Before the start: a Ctrl-C while the stack boots still stops it (stack-control.ts).
ownStack.stopOnSignals(() => onInterrupt());
// And whatever else ends the process (an uncaught error): stop() is synchronous, and a no-op
// once the stack is stopped or when it was not started here.
process.once('exit', () => ownStack.stop());
const headers: Record<string, string> = env.HBASE_AUTHORIZATION ? { Authorization: env.HBASE_AUTHORIZATION } : {};
const settings = {
  profile: smoke ? 'smoke' : 'default',
  seed: int('BENCH_SEED', 20261122, 0),
  readers: int('BENCH_READERS', smoke ? 3_000 : 20_000, 10),
  posts: int('BENCH_POSTS', smoke ? 3 : 10),
  /** Readers registered after the split (phase 4). */
  newReaders: int('BENCH_NEW_READERS', smoke ? 750 : 5_000),
  /** Regions per table; default 4 per RegionServer. */
  regions: 0,
  concurrency: int('BENCH_CONCURRENCY', 4),
  statusWaitMs: int('BENCH_STATUS_WAIT_MS', 4_000, 0),
  outDir: env.BENCH_OUT_DIR || (smoke ? 'bench-results' : 'docs/bench'),
  outName: env.BENCH_OUT_NAME || (smoke ? 'regions-bench-smoke' : 'regions-bench'),
};

/** The RegionServers the gateway lists, once there are `expected` of them (bounded wait). */
async function regionServers(expected: number, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const live = await liveNodes(restUrl, headers);
    if (live.length >= expected || Date.now() > deadline) return live;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

let nodes: string[];
try {
  if (await clusterVersion(restUrl, headers)) {
    process.stderr.write(`regions bench: using the gateway already answering at ${restUrl} (left running)\n`);
    nodes = await liveNodes(restUrl, headers);
  } else {
    if (env.HBASE_REST_URL)
      throw new Error(
        `HBASE_REST_URL=${restUrl} does not answer /version/cluster; not starting a local stack in its place`,
      );
    const expected = Number(stackEnv.HBASE_REGIONSERVERS);
    process.stderr.write(
      `regions bench: starting its own stack — ${expected} RegionServers, REST ${restUrl}, ZooKeeper ${stack.zookeeper}, state ${stackEnv.WEIBO_LOCAL_DIR} (stopped again at the end)\n`,
    );
    const t0 = performance.now();
    try {
      ownStack.start('hbase'); // bounded by STACK_START_TIMEOUT (default 240 s)
    } catch {
      throw new Error("the stack did not come up (stack.sh printed its logs' tail above)");
    }
    // The gateway takes writes once one RegionServer has meta; the others may still be reporting in.
    nodes = await regionServers(expected, 60_000);
    process.stderr.write(
      `regions bench: stack up in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${nodes.length} RegionServers\n`,
    );
  }
} catch (err) {
  process.stderr.write(`regions bench: no HBase cluster at ${restUrl}: ${(err as Error).message}\n`);
  ownStack.stop();
  process.exit(1);
}
if (nodes.length < 2) {
  process.stderr.write(
    `regions bench: needs a cluster with several RegionServers; ${restUrl} has ${nodes.length}` +
      (ownStack.startedHere.length
        ? ` (HBASE_REGIONSERVERS=${stackEnv.HBASE_REGIONSERVERS}).\n`
        : ' (it was already running: stop it, and npm run bench:regions starts its own).\n'),
  );
  ownStack.stop();
  process.exit(2);
}
settings.regions = int('BENCH_REGIONS', 4 * nodes.length, 2);

const started = performance.now();
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const ns = `regions_${runId}`;
const hb = new HBaseRestClient({ baseUrl: restUrl, timeoutMs: 120_000, headers });
const limits = feedLimits(loadConfig({ ...env, HBASE_REST_URL: restUrl, HBASE_NAMESPACE: ns }));
const chunkSize = limits.fanoutChunkSize;
const progress = new Progress([
  { id: 'setup', label: 'tables created pre-split (3 layouts)', weight: 15 },
  { id: 'fanout', label: 'fan-out writes', weight: 45 },
  { id: 'reads', label: 'home-timeline reads', weight: 35 },
  { id: 'newcomers', label: 'readers registered after the split', weight: 10 },
  { id: 'report', label: 'report', weight: 5 },
]);

type LayoutId = 'ours' | 'seed-space' | 'seed-data';
interface Layout {
  id: LayoutId;
  label: string;
  split: string;
  inbox: string;
  content: string;
  inboxPoints: Uint8Array[];
  contentPoints: Uint8Array[];
}

const width = Math.max(4, String(settings.readers - 1).length);
const uids = Array.from({ length: settings.readers }, (_, i) => String(i).padStart(width, '0'));
const layouts: Layout[] = [
  {
    id: 'ours',
    label: 'ours: salted userKey',
    split: `shared/schema/tables.ts splitPoints: ${settings.regions} equal ranges of the 2-byte MD5 salt`,
    inbox: qualifiedTableName(ns, 'inbox'),
    content: qualifiedTableName(ns, 'content'),
    inboxPoints: splitPoints('inbox', settings.regions),
    contentPoints: splitPoints('content', settings.regions),
  },
  {
    id: 'seed-space',
    label: 'seed 000: uid, split over uid space',
    split: `RegionSplitter DecimalStringSplit -c ${settings.regions} ("00000000"–"99999999" in equal ranges), the split available at creation; uids are ${width}-digit, ${settings.readers} of them`,
    inbox: `${ns}:seed_inbox_space`,
    content: `${ns}:seed_content_space`,
    inboxPoints: decimalStringSplit(settings.regions),
    contentPoints: decimalStringSplit(settings.regions),
  },
  {
    id: 'seed-data',
    label: 'seed 000: uid, split at data quantiles',
    split: `the ${settings.regions}-quantiles of the uids that exist (best case, after the fact; later uids all land in the last region)`,
    inbox: `${ns}:seed_inbox_data`,
    content: `${ns}:seed_content_data`,
    inboxPoints: quantileSplit(uids, settings.regions),
    contentPoints: quantileSplit(uids, settings.regions),
  },
];

let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const l of layouts) for (const t of [l.inbox, l.content]) await hb.deleteTable(t).catch(() => {});
  for (let i = 0; i < 10; i++) {
    try {
      await hb.deleteNamespace(ns);
      if (!(await hb.namespaceExists(ns))) return;
    } catch {
      /* retried */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  process.stderr.write(`regions bench: could not drop namespace ${ns}; drop it by hand\n`);
}
onInterrupt = async () => {
  process.stderr.write('\nregions bench: interrupted, dropping the bench namespace…\n');
  await cleanup();
};

const PHASES = ['fanout', 'reads', 'newcomers'] as const;
/** The list started at its k-th element (mod length). */
const rotate = <T>(list: readonly T[], k: number): T[] => list.map((_, i) => list[(i + k) % list.length]!);
type PhaseId = (typeof PHASES)[number];

interface PhaseResult {
  wallMs: number;
  /** Cells written (fan-out) or rows read (reads). */
  units: number;
  perSec: number;
  load: NodeLoad;
}

try {
  const hbaseVersion = await hb.clusterVersion();
  // 1. Tables, pre-split.
  progress.phase('setup', `${settings.regions} regions per table on ${nodes.length} RegionServers`);
  await hb.createNamespace(ns);
  await hb.createTable(layouts[0]!.inbox, { columnFamilies: TABLES.inbox.families });
  await hb.createTable(layouts[0]!.content, { columnFamilies: TABLES.content.families });
  for (const l of layouts.slice(1)) {
    // As seed 000 creates them: content cf; the receive-content-email inbox cf with VERSIONS 1000.
    await hb.createTable(l.content, { columnFamilies: [{ name: 'cf' }] });
    await hb.createTable(l.inbox, { columnFamilies: [{ name: 'cf', VERSIONS: 1000 }] });
  }
  progress.update(0.3, 'PreSplit.java (Admin API over ZooKeeper)');
  const preSplit = await localPreSplitter(stack)(
    layouts.flatMap((l) => [
      { table: l.inbox, points: l.inboxPoints },
      { table: l.content, points: l.contentPoints },
    ]),
  );
  for (const line of preSplit) progress.note(`  pre-split: ${line}`);

  // The same data for every layout.
  const rand = prng(settings.seed);
  const now = Date.now();
  const posts = Array.from({ length: settings.posts }, (_, k) => {
    const author = uids[randomInt(rand, 0, uids.length - 1)]!;
    const millis = now - (settings.posts - k) * 1000;
    const key = postKey(author, millis, randomBytes(rand, 6));
    return { author, millis, key, id: postIdFromKey(key), body: `regions bench post ${k} by ${author}` };
  });
  const chunks: string[][] = [];
  for (let i = 0; i < uids.length; i += chunkSize) chunks.push(uids.slice(i, i + chunkSize));
  const inboxes = new HBaseInboxStore(hb, ns);

  // 2. Fan-out writes.
  const before = await settledNodeSnapshot(restUrl, settings.statusWaitMs, headers);
  progress.phase(
    'fanout',
    `${settings.posts} posts × ${settings.readers.toLocaleString('en-US')} readers, chunks of ${chunkSize}`,
  );
  const writeMs: Record<LayoutId, number> = { ours: 0, 'seed-space': 0, 'seed-data': 0 };
  const totalWrites = layouts.length * posts.length * chunks.length;
  let writesDone = 0;
  // Layouts take turns post by post (the order rotating), so none gets a colder or warmer cluster.
  for (const [k, p] of posts.entries()) {
    for (const l of rotate(layouts, k)) {
      const t0 = performance.now();
      // The post itself, then its inbox cells, chunk by chunk (several workers at once).
      if (l.id === 'ours') {
        await hb.put(l.content, [
          {
            key: p.key,
            cells: [
              { column: 'p:b', value: p.body },
              { column: 'p:t', value: String(p.millis) },
            ],
          },
        ]);
      } else {
        await hb.put(l.content, [
          { key: `${p.author}_${p.millis}`, cells: [{ column: 'cf:content', value: p.body, timestamp: p.millis }] },
        ]);
      }
      await inPool(chunks, settings.concurrency, async (readers) => {
        if (l.id === 'ours') {
          await inboxes.add(readers, { id: p.id });
        } else {
          // seed 000 publishContent: row = fan uid, column cf:<author uid>, version = post time, value = content row key.
          const rows: RowInput[] = readers.map((uid) => ({
            key: uid,
            cells: [{ column: `cf:${p.author}`, value: `${p.author}_${p.millis}`, timestamp: p.millis }],
          }));
          await hb.put(l.inbox, rows);
        }
        writesDone++;
        progress.update(
          writesDone / totalWrites,
          `post ${k + 1}/${posts.length}, ${l.id}: ${Math.round((100 * writesDone) / totalWrites)} % of the batch puts`,
        );
      });
      writeMs[l.id] += performance.now() - t0;
    }
  }
  const afterWrites = await settledNodeSnapshot(restUrl, settings.statusWaitMs, headers);

  // 3. Home-timeline reads, every reader once, in a random order (the same order for every layout).
  progress.phase('reads', `${settings.readers.toLocaleString('en-US')} inbox rows per layout`);
  const order = [...uids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomInt(rand, 0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const readMs: Record<LayoutId, number> = { ours: 0, 'seed-space': 0, 'seed-data': 0 };
  const readCells: Record<LayoutId, number> = { ours: 0, 'seed-space': 0, 'seed-data': 0 };
  let readsDone = 0;
  const totalReads = layouts.length * order.length;
  const blocks: string[][] = [];
  for (let i = 0; i < order.length; i += 1000) blocks.push(order.slice(i, i + 1000));
  for (const [k, block] of blocks.entries()) {
    for (const l of rotate(layouts, k)) {
      const t0 = performance.now();
      await inPool(block, 4 * settings.concurrency, async (uid) => {
        if (l.id === 'ours') {
          const view = await inboxes.read(uid, { limit: 20 });
          readCells[l.id] += view.entries.length;
        } else {
          const row = await hb.getRow(l.inbox, uid, { versions: 5 });
          readCells[l.id] += row?.cells.length ?? 0;
        }
        if (++readsDone % 500 === 0)
          progress.update(
            readsDone / totalReads,
            `${readsDone.toLocaleString('en-US')} / ${totalReads.toLocaleString('en-US')} reads`,
          );
      });
      readMs[l.id] += performance.now() - t0;
    }
  }
  const afterReads = await settledNodeSnapshot(restUrl, settings.statusWaitMs, headers);

  // 4. Readers who register after the split: the next uids, each one's first inbox row.
  progress.phase(
    'newcomers',
    `${settings.newReaders.toLocaleString('en-US')} new readers, ${posts.length} posts backfilled each`,
  );
  const newUids = Array.from({ length: settings.newReaders }, (_, i) =>
    String(settings.readers + i).padStart(width, '0'),
  );
  const newChunks: string[][] = [];
  const perChunk = Math.max(1, Math.floor(chunkSize / posts.length));
  for (let i = 0; i < newUids.length; i += perChunk) newChunks.push(newUids.slice(i, i + perChunk));
  const newMs: Record<LayoutId, number> = { ours: 0, 'seed-space': 0, 'seed-data': 0 };
  let newDone = 0;
  for (const l of layouts) {
    const t0 = performance.now();
    await inPool(newChunks, settings.concurrency, async (readers) => {
      if (l.id === 'ours') {
        await inboxes.addManyToReaders(
          readers,
          posts.map((p) => ({ id: p.id })),
        );
      } else {
        await hb.put(
          l.inbox,
          readers.map((uid) => ({
            key: uid,
            cells: posts.map((p) => ({
              column: `cf:${p.author}`,
              value: `${p.author}_${p.millis}`,
              timestamp: p.millis,
            })),
          })),
        );
      }
      progress.update(++newDone / (layouts.length * newChunks.length), l.id);
    });
    newMs[l.id] = performance.now() - t0;
  }
  const afterNew = await settledNodeSnapshot(restUrl, settings.statusWaitMs, headers);

  // 4. Report.
  progress.phase('report');
  const cellsPerLayout = posts.length * uids.length;
  const spans = {
    fanout: { wall: writeMs, units: cellsPerLayout, from: before, to: afterWrites },
    reads: { wall: readMs, units: order.length, from: afterWrites, to: afterReads },
    newcomers: { wall: newMs, units: newUids.length * posts.length, from: afterReads, to: afterNew },
  };
  const result = (l: Layout, phase: PhaseId): PhaseResult => {
    const sp = spans[phase];
    return {
      wallMs: Math.round(sp.wall[l.id]),
      units: sp.units,
      perSec: Math.round((sp.units * 1000) / sp.wall[l.id]),
      load: nodeLoad(sp.from, sp.to, [l.inbox, l.content], nodes),
    };
  };
  const phases = Object.fromEntries(
    PHASES.map((ph) => [
      ph,
      Object.fromEntries(layouts.map((l) => [l.id, result(l, ph)])) as Record<LayoutId, PhaseResult>,
    ]),
  ) as Record<PhaseId, Record<LayoutId, PhaseResult>>;
  for (const l of layouts) {
    if (readCells[l.id] === 0) throw new Error(`${l.id}: the reads found no inbox cells — the fan-out wrote nothing?`);
  }
  const targets = (['fanout', 'reads'] as const).map((ph) => {
    const v = phases[ph].ours.load.maxOverMean;
    return {
      id: `${ph}_max_over_mean`,
      label: `${ph === 'fanout' ? 'fan-out writes' : 'home-timeline reads'}: requests per RegionServer, max / mean (ours)`,
      value: v,
      target: TARGET,
      pass: Number.isFinite(v) && v <= TARGET,
    };
  });
  const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
  const machine = {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGB: Math.round(totalmem() / 2 ** 30),
  };
  const regionsPerNode = (t: string) => {
    const counts: Record<string, number> = Object.fromEntries(nodes.map((n) => [n, 0]));
    for (const r of afterReads.values()) if (r.table === t) counts[r.node] = (counts[r.node] ?? 0) + 1;
    return counts;
  };
  const text = new TextDecoder();
  const json = {
    at: new Date().toISOString(),
    profile: settings.profile,
    machine,
    hbaseVersion,
    restUrl,
    regionServers: nodes,
    node: process.version,
    wallSeconds,
    settings: { ...settings, fanoutChunkSize: chunkSize, uidWidth: width },
    targets,
    layouts: layouts.map((l) => ({
      id: l.id,
      label: l.label,
      split: l.split,
      tables: [l.inbox, l.content],
      splitPoints: l.inboxPoints.map((p) => (l.id === 'ours' ? Buffer.from(p).toString('hex') : text.decode(p))),
      inboxRegionsPerNode: regionsPerNode(l.inbox),
    })),
    phases,
    preSplit,
  };
  mkdirSync(settings.outDir, { recursive: true });
  const jsonPath = join(settings.outDir, `${settings.outName}.json`);
  const svgPath = join(settings.outDir, `${settings.outName}.svg`);
  writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
  const titles: Record<PhaseId, string> = {
    fanout: `(a) fan-out writes: ${settings.posts} posts × ${settings.readers.toLocaleString('en-US')} inboxes, batch puts of ${chunkSize} rows`,
    reads: `(b) home-timeline reads: ${settings.readers.toLocaleString('en-US')} inbox row gets`,
    newcomers: `(c) ${settings.newReaders.toLocaleString('en-US')} readers registered after the split: first inbox row each (no target)`,
  };
  const panels: ChartPanel[] = PHASES.map((ph) => ({
    title: titles[ph],
    rows: layouts.map((l) => ({
      label: l.label,
      perNode: phases[ph][l.id].load.perNode,
      maxOverMean: phases[ph][l.id].load.maxOverMean,
      target: l.id === 'ours' && ph !== 'newcomers',
      pass: targets.find((t) => t.id === `${ph}_max_over_mean`)?.pass,
    })),
  }));
  const subtitle = `${settings.profile} profile · ${machine.cores} cores · HBase ${hbaseVersion} via REST · ${nodes.length} RegionServers · ${settings.regions} regions per table · ${new Date().toISOString().slice(0, 16)}Z · wall ${wallSeconds} s`;
  writeFileSync(
    svgPath,
    regionsChartSvg('Load per RegionServer: salted keys vs the seed’s uid keys', subtitle, TARGET, panels),
  );
  if (refreshBenchmarksPage(settings.outDir)) console.log('rewrote docs/benchmarks.md');
  progress.done();

  printTable(
    `Regions benchmark (${settings.profile}, ${machine.cores} cores): ${nodes.length} RegionServers, ${settings.regions} regions per table, ${settings.readers} readers, ${settings.posts} posts`,
    ['phase · layout', ...nodes.map((n) => n.replace(/^localhost:/, 'RS :')), 'max/mean', 'target', 'rate'],
    PHASES.flatMap((ph) =>
      layouts.map((l) => {
        const r = phases[ph][l.id];
        const t = targets.find((x) => x.id === `${ph}_max_over_mean`);
        return [
          `${{ fanout: 'fan-out writes', reads: 'timeline reads', newcomers: 'new readers' }[ph]} · ${l.label}`,
          ...nodes.map((n) => r.load.perNode[n] ?? 0),
          `${r.load.maxOverMean.toFixed(2)}×`,
          l.id === 'ours' && t ? `≤ ${TARGET} ${t.pass ? 'pass' : 'MISS'}` : 'info',
          `${r.perSec.toLocaleString('en-US')} ${ph === 'reads' ? 'reads/s' : 'cells/s'}`,
        ];
      }),
    ),
  );
  console.log(`\nwall time ${wallSeconds} s · JSON ${jsonPath} · chart ${svgPath}`);
} catch (err) {
  process.stderr.write(`\nregions bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
} finally {
  try {
    await cleanup();
    await hb.close();
  } finally {
    ownStack.stop();
  }
}
