// test/integration/topic-suggestions.test.ts — the composer's `#` suggestions (GET /topics?q=)
// on the real HBase adapters: names written by publishing, found by their start (CJK and
// full-width, a leading '#'), best first, bounded (one scan of at most TOPIC_NAME_SCAN name rows
// beside the trending read: one round trip), never a topic's post entries; bad input refused at
// the edge (the route's query schema) and by the use case.
import { performance } from 'node:perf_hooks';
import { describe, expect, inject, it } from 'vitest';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import { routes } from '../../shared/http/routes.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { suggestTopics, TOPIC_NAME_SCAN, type TrendingCache } from '../../shared/use-cases/topics.js';
import { integrationLimits, userFactory } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_topicq_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push({ ...e, end: performance.now() }),
});
const stores = hbaseFeedStores(hbase, ns);
const deps: FeedDeps = { ...stores, queue: { send: async () => {} }, limits: { ...integrationLimits } };
useNamespace(hbase, ns);
const users = userFactory(stores.users);
const post = async (author: string, body: string) => (await publishPost(deps, author, { body })).post.id;
/** A ranking cache of each call's own: no other test's trending stands in. */
const suggest = (q: string, limit = 8, cache: TrendingCache = {}) => suggestTopics(deps, q, limit, Date.now(), cache);

describe('topic suggestions (#话题# by their start)', () => {
  it('finds names a post carried by their start, best first: the prefix itself, trending, shorter', async () => {
    const [ann] = await users('ann');
    await post(ann, '#话题一# 和 #话题# 还有 #天气#');
    await post(ann, '#话题一# again, and #Rust#');
    await post(ann, '#话题很长的一个名字#');
    expect(await suggest('话')).toEqual(['话题一', '话题', '话题很长的一个名字']);
    expect(await suggest('#话题')).toEqual(['话题', '话题一', '话题很长的一个名字']);
    expect(await suggest('＃ＲＵ')).toEqual(['rust']); // full-width, any case: the names' own form
    expect(await suggest('话', 1)).toEqual(['话题一']);
    expect(await suggest('雨')).toEqual([]);
  });

  it('is bounded: one scan of at most TOPIC_NAME_SCAN rows beside the trending read, one round trip', async () => {
    const [bob] = await users('bob');
    const stem = `many${Date.now().toString(36)}`;
    const names = Array.from({ length: TOPIC_NAME_SCAN + 10 }, (_, i) => `${stem}${String(i).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 10)
      await post(
        bob,
        names
          .slice(i, i + 10)
          .map((n) => `#${n}#`)
          .join(' '),
      );
    // Topic entries of these posts sit in the same table: only name rows come back.
    const from = requests.length;
    const found = await suggest(stem, 20);
    const calls = requests.slice(from);
    expect(found).toEqual(names.slice(0, 20));
    expect(calls).toHaveLength(2);
    expect(sequentialDepth(calls.map((c) => ({ start: c.end - c.durationMs, end: c.end })))).toBe(1);
    const scan = calls.find((c) => c.path.includes('/%23'));
    expect(scan?.path).toContain(`limit=${TOPIC_NAME_SCAN}`);
  });

  it('refuses what cannot start a topic name: at the edge (422) and in the use case', async () => {
    const query = routes.searchTopics.query;
    for (const q of ['', '#', '   ', 'a/b', 'a?b', '50%', 'x'.repeat(40), 'a\u202eb', 'a\u0000'])
      expect(query.safeParse({ q }).success, JSON.stringify(q)).toBe(false);
    expect(query.safeParse({ q: '话', limit: '21' }).success).toBe(false);
    expect(query.safeParse({ q: '#话', limit: '5' }).success).toBe(true);
    await expect(suggest('#')).rejects.toMatchObject({ code: 'invalid_topic' });
    await expect(suggest('a/b')).rejects.toMatchObject({ code: 'invalid_topic' });
  });
});
