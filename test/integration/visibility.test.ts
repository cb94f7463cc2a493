// test/integration/visibility.test.ts — who sees what once blocks and mutes exist, on the real
// HBase adapters, read through the use cases a reader's pages call. What a reader wrote stays
// theirs to see, a plain repost as much as one with words.
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { mute } from '../../shared/use-cases/blocks.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { drainQueue, integrationLimits, userFactory } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_visibility_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const stores = hbaseFeedStores(hbase, ns);
const queued: FanoutMessage[] = [];
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  limits: { ...integrationLimits },
};

useNamespace(hbase, ns);

const users = userFactory(stores.users);
const drain = () => drainQueue(deps, queued);
const post = async (author: string, body = `by ${author}`) => (await publishPost(deps, author, { body })).post.id;
const home = async (reader: string) => (await homeTimeline(deps, reader, 20)).items.map((p) => p.id);

describe('the home timeline', () => {
  it('a mute hides the muted author’s posts, never the reader’s own reposts of them', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(deps, ann, bob);
    await drain();
    const first = await post(bob, 'bob one');
    const second = await post(bob, 'bob two');
    await drain();
    const withWords = (await repost(deps, ann, first, { comment: 'ann says look' })).post.id;
    const plain = (await repost(deps, ann, second, {})).post.id;
    await drain();
    await mute(deps, ann, bob);
    const page = await homeTimeline(deps, ann, 20);
    expect(page.items.map((p) => p.id)).toEqual([plain, withWords]);
    // What ann reposted is hers: it shows with its original, as it did before the mute.
    expect(page.items.map((p) => p.original?.state)).toEqual(['live', 'live']);
  });
});

describe('a plain repost (no words)', () => {
  it('shows in its reposter’s home beside its original, as a repost with words does', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    await follow(deps, ann, bob);
    await drain();
    const followed = await post(bob, 'bob’s post');
    const unfollowed = await post(cat, 'cat’s post');
    await drain();
    const plainOfFollowed = (await repost(deps, ann, followed, {})).post.id;
    const plainOfOther = (await repost(deps, ann, unfollowed, {})).post.id;
    await drain();
    expect(await home(ann)).toEqual([plainOfOther, plainOfFollowed, followed]);
  });
});
