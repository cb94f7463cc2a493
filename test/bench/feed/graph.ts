// test/bench/feed/graph.ts — the synthetic power-law social graph and its bulk loading in the
// REAL layouts (row keys from shared/schema/row-keys.ts, families from shared/schema/tables.ts):
// users with exact counters, relations in both directions, posts, each author's outbox, and
// every reader's inbox in its steady state (the newest INBOX_CAP entries, as fan-out + trim
// leave it). Plus a pool of follower-only users for the big authors of the fan-out, lag and
// memory measurements.
import {
  concatBytes,
  encodeLong,
  type CellInput,
  type HBaseRestClient,
  type RowInput,
} from '../../../shared/hbase/index.js';
import { postKey, relationKey, reversedTimestamp, userKey } from '../../../shared/schema/row-keys.js';
import { TABLES, qualifiedTableName, type TableName } from '../../../shared/schema/tables.js';
import { bulkPut } from './bulk.js';
import { normal, prng, randomBytes, randomInt, zipfSampler } from './random.js';
import type { BenchSettings } from './settings.js';

export interface PostModel {
  author: number;
  millis: number;
  key: Uint8Array;
  /** The inbox / outbox qualifier: revTs8 + post key (row-keys.ts inboxQualifier). */
  qualifier: Uint8Array;
  body: string;
}

export interface GraphModel {
  handles: string[];
  /** following[u] = indices u follows (index = popularity rank: 0 is the most followed). */
  following: number[][];
  followers: number[];
  /** posts[u], newest first. */
  posts: PostModel[][];
  edges: number;
  postCount: number;
}

export interface PoolModel {
  /** Follower-only users; the first k follow an author with k followers. */
  handles: string[];
  authors: { handle: string; followers: number }[];
}

const EMPTY = new Uint8Array(0);
const OUTBOX_CAP = 200;
const LOREM =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation';

const keyCache = new Map<string, Uint8Array>();
/** userKey is an MD5 per call; the loader asks for the same users many times. */
export function cachedUserKey(handle: string): Uint8Array {
  let k = keyCache.get(handle);
  if (!k) {
    k = userKey(handle);
    keyCache.set(handle, k);
  }
  return k;
}

export function handleWidth(users: number): number {
  return Math.max(4, String(users - 1).length);
}

export function bodyText(rand: () => number, label: string): string {
  const len = randomInt(rand, 40, 120);
  const start = randomInt(rand, 0, LOREM.length - 40);
  return `${label}: ${LOREM.slice(start, start + len)}`.slice(0, 140);
}

export function makePost(author: number, handle: string, millis: number, rand: () => number, body: string): PostModel {
  const key = postKey(handle, millis, randomBytes(rand, 6));
  return { author, millis, key, qualifier: concatBytes(reversedTimestamp(millis), key), body };
}

/** Handles are zero-padded numbers like the seeds' uids ("0001"), which are valid handles here. */
export function buildGraph(s: BenchSettings, maxFollowing: number, now: number): GraphModel {
  const rand = prng(s.seed);
  const width = handleWidth(s.users);
  const handles = Array.from({ length: s.users }, (_, i) => String(i).padStart(width, '0'));
  const draw = zipfSampler(s.users, s.zipf, rand);
  const cap = Math.max(3, Math.min(maxFollowing, Math.floor(s.users / 4), 1000));
  const following: number[][] = [];
  const followers = new Array<number>(s.users).fill(0);
  let edges = 0;
  for (let u = 0; u < s.users; u++) {
    const k = Math.max(3, Math.min(cap, Math.round(Math.exp(Math.log(s.medianFollowing) + 0.8 * normal(rand)))));
    const set = new Set<number>();
    while (set.size < k) {
      const v = draw();
      if (v !== u) set.add(v);
    }
    following.push([...set]);
    for (const v of set) followers[v]!++;
    edges += k;
  }
  const posts: PostModel[][] = [];
  let postCount = 0;
  const month = 30 * 24 * 3600_000;
  for (let u = 0; u < s.users; u++) {
    const n = randomInt(rand, Math.ceil(s.postsPerUser / 2), Math.floor((s.postsPerUser * 3) / 2));
    const mine: PostModel[] = [];
    for (let i = 0; i < n; i++) {
      const millis = now - 60_000 - Math.floor(rand() * month);
      mine.push(makePost(u, handles[u]!, millis, rand, bodyText(rand, `post ${i} by ${handles[u]}`)));
    }
    mine.sort((a, b) => b.millis - a.millis);
    posts.push(mine);
    postCount += n;
  }
  return { handles, following, followers, posts, edges, postCount };
}

/** A reader's inbox in its steady state: own posts + followees' posts, newest first, capped. */
export function inboxOf(g: GraphModel, reader: number, cap: number): PostModel[] {
  const all = [...g.posts[reader]!];
  for (const v of g.following[reader]!) all.push(...g.posts[v]!);
  all.sort((a, b) => b.millis - a.millis);
  return all.slice(0, cap);
}

export function buildPool(s: BenchSettings): PoolModel {
  const size = Math.max(s.lagFollowers, s.memSmall, s.memLarge);
  const width = String(size).length;
  return {
    handles: Array.from({ length: size }, (_, i) => `p${String(i).padStart(width, '0')}`),
    authors: [
      { handle: 'lagstar', followers: s.lagFollowers },
      { handle: 'memsmall', followers: s.memSmall },
      { handle: 'memlarge', followers: s.memLarge },
    ],
  };
}

export interface LoadStats {
  rows: number;
  cells: number;
  requests: number;
  seconds: number;
}

export function userRow(
  handle: string,
  createdAt: number,
  counts: { followers?: number; following?: number; posts?: number },
): RowInput {
  const cells: CellInput[] = [
    { column: 'p:h', value: handle },
    { column: 'p:n', value: `Bench ${handle}` },
    { column: 'p:t', value: String(createdAt) },
    // Not a valid scrypt record: bench users can never log in.
    { column: 'a:pw', value: 'bench$no-login' },
  ];
  // Counters as the REST increments leave them: 8-byte big-endian longs.
  for (const [name, n] of Object.entries(counts))
    if (n !== undefined) cells.push({ column: `c:${name}`, value: encodeLong(n) });
  return { key: cachedUserKey(handle), cells };
}

/** A follow edge in both directions, as the relation store writes it. */
export function edgeRows(follower: string, followee: string, since: string): RowInput[] {
  const cells = [{ column: 'e:t', value: since }];
  return [
    { key: relationKey(follower, 'F', followee), cells },
    { key: relationKey(followee, 'R', follower), cells },
  ];
}

/**
 * Loads the graph and the pool with raw batched puts. `onProgress(fraction, detail)`.
 * `content: false` leaves the posts' content rows out (the caller writes them itself, e.g.
 * through the real post store with pictures: media.bench.ts).
 */
export async function loadGraph(
  client: HBaseRestClient,
  ns: string,
  s: BenchSettings,
  g: GraphModel,
  pool: PoolModel,
  inboxCap: number,
  now: number,
  onProgress: (fraction: number, detail: string) => void,
  opts: { content?: boolean } = {},
): Promise<LoadStats> {
  const t0 = performance.now();
  const hasOutbox = Object.hasOwn(TABLES, 'outbox');
  const since = String(now - 90 * 24 * 3600_000);
  const created = now - 365 * 24 * 3600_000;
  const poolEdges = pool.authors.reduce((n, a) => n + a.followers, 0);
  const inboxSizes = g.handles.map((_, u) =>
    Math.min(inboxCap, g.posts[u]!.length + g.following[u]!.reduce((m, v) => m + g.posts[v]!.length, 0)),
  );
  // Cells we are about to write, for the progress bar only.
  const expected =
    7 * g.handles.length +
    4 * pool.handles.length +
    2 * g.edges +
    2 * poolEdges +
    g.postCount * ((hasOutbox ? 1 : 0) + (opts.content === false ? 0 : 2)) +
    inboxSizes.reduce((a, b) => a + b, 0);
  const stats: LoadStats = { rows: 0, cells: 0, requests: 0, seconds: 0 };

  const put = async (t: TableName, source: Iterable<RowInput>, detail: string) => {
    stats.requests += await bulkPut(client, qualifiedTableName(ns, t), source, {
      concurrency: s.writeConcurrency,
      maxRows: 1000,
      maxCells: 4000,
      onBatch: (rows, cells) => {
        stats.rows += rows;
        stats.cells += cells;
        onProgress(Math.min(1, stats.cells / expected), detail);
      },
    });
  };

  await put(
    'users',
    (function* () {
      for (let u = 0; u < g.handles.length; u++) {
        yield userRow(g.handles[u]!, created, {
          followers: g.followers[u]!,
          following: g.following[u]!.length,
          posts: g.posts[u]!.length,
        });
      }
      for (let i = 0; i < pool.handles.length; i++) {
        yield userRow(pool.handles[i]!, created, { following: pool.authors.filter((a) => i < a.followers).length });
      }
      for (const a of pool.authors)
        yield userRow(a.handle, created, { followers: a.followers, following: 0, posts: 0 });
    })(),
    'users',
  );

  await put(
    'relations',
    (function* () {
      for (let u = 0; u < g.handles.length; u++)
        for (const v of g.following[u]!) yield* edgeRows(g.handles[u]!, g.handles[v]!, since);
      for (const a of pool.authors)
        for (let i = 0; i < a.followers; i++) yield* edgeRows(pool.handles[i]!, a.handle, since);
    })(),
    'relations (both directions)',
  );

  if (opts.content !== false) {
    await put(
      'content',
      (function* () {
        for (const mine of g.posts)
          for (const p of mine)
            yield {
              key: p.key,
              cells: [
                { column: 'p:b', value: p.body },
                { column: 'p:t', value: String(p.millis) },
              ],
            };
      })(),
      'posts',
    );
  }

  if (hasOutbox) {
    // Each author's newest posts, as publish leaves them (read only for celebrities).
    await put(
      'outbox' as TableName,
      (function* () {
        for (let u = 0; u < g.handles.length; u++) {
          const mine = g.posts[u]!.slice(0, OUTBOX_CAP);
          if (mine.length)
            yield {
              key: cachedUserKey(g.handles[u]!),
              cells: mine.map((p) => ({ column: concatBytes('o:', p.qualifier), value: EMPTY })),
            };
        }
      })(),
      'outboxes',
    );
  }

  await put(
    'inbox',
    (function* () {
      for (let u = 0; u < g.handles.length; u++) {
        const entries = inboxOf(g, u, inboxCap);
        if (entries.length)
          yield {
            key: cachedUserKey(g.handles[u]!),
            cells: entries.map((p) => ({ column: concatBytes('i:', p.qualifier), value: EMPTY })),
          };
      }
    })(),
    'inboxes',
  );
  stats.seconds = (performance.now() - t0) / 1000;
  return stats;
}
