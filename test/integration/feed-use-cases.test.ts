// test/integration/feed-use-cases.test.ts — every feed operation on the real HBase adapters,
// with the HBase requests each one makes counted (the REST client counts every HTTP request).
// The queue here records messages and the test delivers them to the worker logic; the real
// SQS path is covered end to end in test/e2e/feed.test.ts.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { requestRecorder, tableOf } from '../support/feed-harness.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { keyFromPostId } from '../../shared/schema/row-keys.js';
import { inboxQualifier, segmentOf, userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { deletePost, getPost, listUserPosts } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, listRelations, unfollow } from '../../shared/use-cases/relations.js';
import { CachingFaces } from '../../shared/adapters/memory/caching-faces.js';
import { dropNamespace } from '../support/namespace.js';

/** The whole inbox row as one window. */
const ALL = { limit: 100_000 };

const ns = `it_feed_${Date.now().toString(36)}`;
const { onRequest, counted } = requestRecorder();
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000, onRequest });
const queued: FanoutMessage[] = [];
/** Takes the first fan-out message out of the queue (a publish queues its delayed notify first). */
function takeFanout(): FanoutMessage {
  const i = queued.findIndex((m) => m.type === 'fanout');
  if (i < 0) throw new Error('no fan-out message queued');
  return queued.splice(i, 1)[0]!;
}
const stores = hbaseFeedStores(hbase, ns);
const users = stores.users;
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  limits: {
    fanoutChunkSize: 3,
    fanoutChunksPerMessage: 2,
    backfillLimit: 200,
    inboxCap: 800,
    maxFollowing: 5000,
    celebrityFollowers: 10_000,
    inactiveAfterMs: 30 * 86_400_000,
    settleSeconds: 1,
    writesPerMinute: { comment: 1000, like: 1000, repost: 1000 },
  },
};

async function drain(): Promise<number> {
  let n = 0;
  while (queued.length) {
    await handleFanoutMessage(deps, queued.shift()!);
    n++;
  }
  return n;
}

const register = (handle: string) =>
  users.create({ handle, displayName: handle, passwordHash: 'scrypt$x', createdAt: Date.now() });

beforeAll(async () => {
  await applySchema(hbase, ns);
  for (const h of ['amy', 'bob', 'cat', 'big', 'small', ...Array.from({ length: 8 }, (_, i) => `fan${i}`)])
    await register(h);
}, 120_000);

afterAll(async () => {
  await dropNamespace(hbase, ns);
  await hbase.close();
});

describe('feed operations on HBase', () => {
  it("an author's posts: two round trips from the outbox while it holds every post; past a trimmed outbox's tail, the content table — each live post once", async () => {
    const author = 'small';
    const t0 = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.unshift((await publishPost(deps, author, { body: `own ${i}` }, t0 + i * 1000)).post.id);
    await drain();
    await deletePost(deps, author, ids[2]!);
    await drain();
    const live = ids.filter((id) => id !== ids[2]);
    const walk = async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      const depths: number[] = [];
      for (let pages = 0; pages < 15; pages++) {
        const { result, depth } = await counted(() => listUserPosts(deps, author, 4, cursor, 'amy'));
        depths.push(depth);
        seen.push(...result.items.map((p) => p.id));
        cursor = result.nextCursor;
        if (!cursor) return { seen, depths };
      }
      throw new Error(`still paging after 15 pages (${seen.length} posts seen)`);
    };
    const whole = await walk();
    expect(whole.seen).toEqual(live);
    expect(Math.max(...whole.depths), 'every page: the outbox, then one stage').toBe(2);
    // What the trim job does to a long outbox: its oldest cells go, the posts stay. A page whose
    // window (4 + 10 spare entries) lies within the 24 left is read from the outbox.
    for (const id of live.slice(-5)) await stores.outbox.remove(author, id);
    const trimmed = await walk();
    expect(trimmed.seen).toEqual(live);
    expect(trimmed.depths.slice(0, 3), 'pages within the outbox').toEqual([2, 2, 2]);
    expect(Math.max(...trimmed.depths), 'the tail: a scanner (create, page) and its stage').toBeGreaterThan(2);
  });

  it("publish: 6 HBase requests in 3 round trips (the search entries, beside the queued notify, then create, ∥ the author's face; then count, own inbox, outbox in parallel), visible in the own timeline at once", async () => {
    const { result, calls, depth } = await counted(() => publishPost(deps, 'amy', { body: 'first!' }));
    expect(calls).toHaveLength(6);
    // Deployed, the entries' put runs beside the SQS send of the notify and adds no wait of its own.
    expect(depth).toBe(3);
    expect(result.face).toEqual({ handle: 'amy', displayName: 'amy', avatar: null });
    // Its fan-out, and its delayed notify (queued first: it settles the posts count of a publish cut after its row).
    expect(queued.map((m) => m.type)).toEqual(['notify', 'fanout']);
    expect(queued[1]).toEqual({ v: 1, type: 'fanout', postId: result.post.id });
    expect((await homeTimeline(deps, 'amy', 20)).items.map((p) => p.body)).toEqual(['first!']);
    expect(await getPost(deps, result.post.id)).toMatchObject({
      ...result.post,
      counts: { likes: 0, comments: 0, reposts: 0 },
    });
    queued.length = 0;
  });

  it("home timeline page: 2 sequential HBase round trips, measured (inbox get, then posts ∥ the reader's reactions ∥ blocks ∥ the authors' faces)", async () => {
    await follow(deps, 'bob', 'amy');
    for (let i = 0; i < 25; i++) await publishPost(deps, 'amy', { body: `post ${i}` });
    await drain();
    // bob's first read also records activity (one PUT beside the multi-gets, at most hourly), and
    // reads amy's face (a function's first page: the feeds' face cache is empty).
    const d: FeedDeps = { ...deps, feedFaces: new CachingFaces(users, 60_000) };
    const first = await counted(() => homeTimeline(d, 'bob', 20));
    expect(first.calls.map((c) => c.method).sort()).toEqual(['GET', 'GET', 'GET', 'GET', 'GET', 'PUT']);
    expect(first.calls.filter((c) => tableOf(c) === 'users')).toHaveLength(1);
    expect(first.depth).toBe(2);
    let cursor: string | undefined;
    const seen: string[] = [];
    do {
      const { result, calls, depth } = await counted(() => homeTimeline(d, 'bob', 20, cursor));
      const spans = calls.map(
        (c) =>
          `${c.method} ${tableOf(c)} ${(c.end - c.durationMs).toFixed(1)}–${c.end.toFixed(1)}${c.background ? ' (background)' : ''}`,
      );
      expect(depth, spans.join('; ')).toBe(2);
      expect(calls.map((c) => c.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
      expect(calls[0]!.path).toContain(':inbox/');
      // The second stage: posts, the reader's reactions, the block/mute check of the page's
      // authors; their faces come from the feeds' cache (read on the first page, a minute fresh).
      expect(
        calls
          .slice(1)
          .map((c) => `${tableOf(c)} ${c.path.includes('/multiget') ? 'multiget' : ''}`)
          .sort(),
      ).toEqual(['blocks multiget', 'content multiget', 'reactions multiget']);
      expect(result.items.every((p) => p.face.handle === 'amy' && p.face.displayName === 'amy')).toBe(true);
      seen.push(...result.items.map((p) => p.body));
      cursor = result.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...Array.from({ length: 25 }, (_, i) => `post ${24 - i}`), 'first!']);
  });

  it('fan-out reaches every follower in segments and bounded chunks, idempotently', async () => {
    for (let i = 0; i < 8; i++) await follow(deps, `fan${i}`, 'cat');
    queued.length = 0;
    const { post } = await publishPost(deps, 'cat', { body: 'to my fans' });
    const first = takeFanout();
    // 8 followers, 6 per message (2 chunks × 3): two segments, the second sent as its own message.
    const outcome = await handleFanoutMessage(deps, first);
    const inFirst = Array.from({ length: 8 }, (_, i) => `fan${i}`).filter((h) => segmentOf(h, 2) === 0).length;
    expect(outcome).toMatchObject({ readers: Math.min(6, inFirst), inboxCells: Math.min(6, inFirst), segments: 2 });
    expect(queued).toContainEqual({ v: 1, type: 'fanout', postId: post.id, segment: { index: 1, of: 2 } });
    const second = queued.find((m) => m.type === 'fanout' && m.segment?.index === 1)!;
    await drain();
    await handleFanoutMessage(deps, first); // re-deliveries
    await handleFanoutMessage(deps, second);
    await drain();
    for (let i = 0; i < 8; i++) {
      const row = await hbase.getRow(qualifiedTableName(ns, 'inbox'), userKey(`fan${i}`));
      expect(row?.cells, `fan${i}`).toHaveLength(1);
    }
  });

  it('delete retracts from followers; lists, counts and user posts stay exact', async () => {
    const { post } = await publishPost(deps, 'cat', { body: 'regret' });
    await drain();
    expect((await homeTimeline(deps, 'fan3', 1)).items[0]!.body).toBe('regret');
    await deletePost(deps, 'cat', post.id);
    expect((await homeTimeline(deps, 'fan3', 1)).items[0]!.body).toBe('to my fans');
    await drain();
    expect((await deps.inbox.stats('fan3')).size).toBe(1);
    expect(await deps.counters.get('cat', 'posts')).toBe(1);
    expect(await deps.counters.get('cat', 'followers')).toBe(8);
    const followers = await listRelations(deps, 'cat', 'followers', 5);
    const rest = await listRelations(deps, 'cat', 'followers', 5, followers.nextCursor);
    // Order is the salted row-key order (stable, not alphabetical); no duplicates, no gaps.
    const listed = [...followers.items, ...rest.items].map((e) => e.handle);
    expect(listed).toHaveLength(8);
    expect([...listed].sort()).toEqual(Array.from({ length: 8 }, (_, i) => `fan${i}`));
    expect((await listUserPosts(deps, 'cat', 10)).items.map((p) => p.body)).toEqual(['to my fans']);
  });

  it('follow backfill costs the same HBase work whether the author has 250 posts or 600', async () => {
    for (let i = 0; i < 600; i++) await publishPost(deps, 'big', { body: `big ${i}` }, 1_700_000_000_000 + i);
    for (let i = 0; i < 250; i++) await publishPost(deps, 'small', { body: `small ${i}` }, 1_700_000_000_000 + i);
    queued.length = 0;
    const cost = async (author: string) => {
      await follow(deps, 'amy', author);
      const msg = queued.find((m) => m.type === 'backfill')!;
      queued.length = 0;
      const { calls } = await counted(() => handleFanoutMessage(deps, msg));
      return calls.length;
    };
    const small = await cost('small');
    const big = await cost('big');
    expect(big).toBe(small);
    expect(big).toBeLessThanOrEqual(8);
    const inbox = await deps.inbox.stats('amy');
    expect(inbox.size).toBe(26 + 200 + 200); // amy's own posts + the newest 200 (the bound) of each
  }, 120_000);

  it('unfollow purges the author from the reader’s inbox; a refollow backfills again at once', async () => {
    await unfollow(deps, 'amy', 'big');
    expect((await deps.inbox.stats('amy')).size).toBe(226);
    await follow(deps, 'amy', 'big');
    await drain();
    expect((await deps.inbox.stats('amy')).size).toBe(426);
    expect(await deps.counters.get('amy', 'following')).toBe(2);
    expect(await deps.counters.get('big', 'followers')).toBe(1);
  });
});

describe('scale behaviour on HBase', () => {
  it('celebrity: promotion marks followers, posts merge from the outbox (3 round trips for such readers), demotion restores fan-out', async () => {
    const limits = { ...deps.limits, celebrityFollowers: 3 };
    const d: FeedDeps = { ...deps, limits };
    for (const h of ['star', 's1', 's2', 's3']) await register(h);
    await follow(d, 's1', 'star');
    await follow(d, 's2', 'star');
    await publishPost(d, 'star', { body: 'one' });
    await drain();
    await follow(d, 's3', 'star');
    expect(queued.map((m) => m.type)).toContain('promote');
    await drain();
    expect(await d.celebrities.isCelebrity('star')).toBe(true);
    await publishPost(d, 'star', { body: 'two' });
    const fanout = takeFanout();
    expect(await handleFanoutMessage(d, fanout)).toMatchObject({ skipped: 'celebrity' });
    for (const f of ['s1', 's2', 's3']) {
      const { result, calls, depth } = await counted(() => homeTimeline(d, f, 20));
      expect(
        result.items.map((p) => p.body),
        f,
      ).toEqual(['two', 'one']);
      // Reads in order: inbox row, the followed celebrities' outboxes, the posts ∥ the reader's
      // reactions ∥ blocks (∥ the authors' faces, unless the feeds' cache has them).
      const reads = calls.filter((c) => c.method === 'GET').map(tableOf);
      expect(reads.slice(0, 2), f).toEqual(['inbox', 'outbox']);
      expect(
        reads
          .slice(2)
          .filter((t) => t !== 'users')
          .sort(),
        f,
      ).toEqual(['blocks', 'content', 'reactions']);
      expect(depth, f).toBe(3);
    }
    await unfollow(d, 's3', 'star');
    await unfollow(d, 's2', 'star');
    expect(queued.map((m) => m.type)).toContain('demote');
    await drain();
    expect(await d.celebrities.isCelebrity('star')).toBe(false);
    await publishPost(d, 'star', { body: 'three' });
    await drain();
    expect((await homeTimeline(d, 's1', 20)).items.map((p) => p.body)).toEqual(['three', 'two', 'one']);
    expect((await deps.inbox.stats('s1')).size).toBe(3);
  });

  it("a merged timeline (inbox + two celebrities' outboxes) pages with cursors on the real adapters: no duplicates, no gaps, 3 round trips a page", async () => {
    const limits = { ...deps.limits, celebrityFollowers: 2 };
    const d: FeedDeps = { ...deps, limits };
    const [c1, c2, plain, reader, other] = ['mc_c1', 'mc_c2', 'mc_plain', 'mc_reader', 'mc_other'];
    for (const h of [c1, c2, plain, reader, other]) await register(h);
    for (const c of [c1, c2]) {
      await follow(d, reader, c);
      await follow(d, other, c); // the second follower: promoted
    }
    await follow(d, reader, plain);
    await drain();
    expect((await deps.inbox.read(reader, ALL)).celebrities.sort()).toEqual([c1, c2].sort());
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await publishPost(d, [c1, c2, plain, reader][i % 4]!, { body: `m${i}` })).post.id);
    await drain();
    // The same post in an inbox and an outbox (fanned out just before a promotion) shows once.
    await deps.inbox.add([reader], { id: ids[0]! });

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { result, calls, depth } = await counted(() => homeTimeline(d, reader, 5, cursor));
      expect(
        calls
          .filter((c) => c.method === 'GET')
          .map(tableOf)
          .slice(0, 2),
      ).toEqual(['inbox', 'outbox']);
      expect(depth).toBe(3);
      seen.push(...result.items.map((p) => p.id));
      cursor = result.nextCursor;
      if (pages++ === 0) await publishPost(d, c1, { body: 'newer, lands before the cursor' });
    } while (cursor);
    expect(pages).toBe(3);
    // Feed order: the order HBase keeps inbox and outbox cells in (same-millisecond posts included).
    const q = (id: string) => Buffer.from(inboxQualifier(keyFromPostId(id)!));
    expect(seen).toEqual([...ids].sort((a, b) => Buffer.compare(q(a), q(b))));
  });

  it('inactive reader: skipped by fan-out, regenerated on return, 206 until done', async () => {
    for (const h of ['away', 'here', 'writer']) await register(h);
    await follow(deps, 'away', 'writer');
    await follow(deps, 'here', 'writer');
    await drain();
    const t0 = Date.now();
    await homeTimeline(deps, 'away', 20, undefined, t0 - 40 * 86_400_000); // last seen 40 days ago
    // What the away sweep queues for her (shared/use-cases/jobs/away-sweep.ts): her follows get the mark.
    await handleFanoutMessage(deps, { v: 1, type: 'away', reader: 'away', seenAt: t0 - 40 * 86_400_000 });
    expect((await deps.relations.audience('writer', 10)).items.filter((m) => m.away).map((m) => m.handle)).toEqual([
      'away',
    ]);
    const ids = [
      (await publishPost(deps, 'writer', { body: 'w1' })).post.id,
      (await publishPost(deps, 'writer', { body: 'w2' })).post.id,
    ];
    await drain();
    expect((await deps.inbox.stats('away')).size).toBe(0);
    expect((await deps.inbox.stats('here')).size).toBe(2);
    const back = await homeTimeline(deps, 'away', 20);
    expect(back.regenerating).toBe(true);
    expect(queued).toEqual([{ v: 1, type: 'regenerate', reader: 'away' }]);
    expect((await homeTimeline(deps, 'away', 20)).regenerating).toBe(true);
    await drain();
    const after = await homeTimeline(deps, 'away', 20);
    expect(after.regenerating).toBe(false);
    expect(after.items.map((p) => p.id)).toEqual([...ids].reverse());
    expect((await deps.relations.audience('writer', 10)).items.filter((m) => m.away)).toEqual([]); // marks cleared
  });
});
