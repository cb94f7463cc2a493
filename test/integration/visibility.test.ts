// test/integration/visibility.test.ts — who sees what once blocks and mutes exist, on the real
// HBase adapters, read through the use cases a reader's pages call: the home timeline, one's own
// profile, the bookmarks list and a post's comments. What a reader wrote stays theirs to see;
// what a block keeps from them is kept on every page, not only on the post's own.
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { block, mute } from '../../shared/use-cases/blocks.js';
import { bookmarkPost, listBookmarks } from '../../shared/use-cases/bookmarks.js';
import { addComment, listComments } from '../../shared/use-cases/comments.js';
import { getProfile } from '../../shared/use-cases/get-profile.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { getPost, listUserPosts } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { drainQueue, requestRecorder, userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_visibility_${Date.now().toString(36)}`;
const recorder = requestRecorder();
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: recorder.onRequest,
});
const { stores, queued, deps } = feedWorld(hbase, ns);

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

describe('bookmarks', () => {
  it('a bookmarked post is hidden once a block stands between the reader and its author, as on its own page', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    const byBob = await post(bob, 'bob’s post');
    const alsoByBob = await post(bob, 'bob’s other post');
    const byCat = await post(cat, 'cat’s post');
    const catReposts = (await repost(deps, cat, byBob, { comment: 'cat on bob' })).post.id;
    const danReposts = (await repost(deps, dan, alsoByBob, {})).post.id; // its original is not bookmarked
    await bookmarkPost(deps, ann, byBob, 1_000);
    await bookmarkPost(deps, ann, byCat, 2_000);
    await bookmarkPost(deps, ann, catReposts, 3_000);
    await bookmarkPost(deps, ann, danReposts, 4_000);
    // The blocks are read beside the posts, and an original's author's beside the originals: 3
    // round trips with a repost whose original is not on the page, as without the check.
    const { result, depth } = await recorder.counted(() => listBookmarks(deps, ann, 10));
    expect(result.items.map((p) => p.id)).toEqual([danReposts, catReposts, byCat, byBob]);
    expect(depth).toBe(3);
    await block(deps, bob, ann);
    expect((await listBookmarks(deps, ann, 10)).items.map((p) => p.id)).toEqual([byCat]);
    // The other way round too: ann blocks cat.
    await block(deps, ann, cat);
    expect((await listBookmarks(deps, ann, 10)).items).toEqual([]);
  });
});

describe('comments', () => {
  it('a post’s author does not see the comments of someone they block', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const p = await post(ann, 'ann asks');
    await addComment(deps, bob, p, { body: 'bob answers' });
    await addComment(deps, cat, p, { body: 'cat answers' });
    await block(deps, ann, bob);
    const shown = async (reader?: string) =>
      (await listComments(deps, p, 'oldest', 20, undefined, reader)).items.map((c) => c.body);
    expect(await shown(ann)).toEqual(['cat answers']);
    expect(await shown(cat)).toEqual(['bob answers', 'cat answers']);
  });
});

describe('one’s own profile', () => {
  it('lists every post its count counts, reposts of a blocker’s posts included, with nothing of the blocker’s', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const first = await post(ann, 'ann one');
    const second = await post(ann, 'ann two');
    const withWords = (await repost(deps, bob, first, { comment: 'bob on ann' })).post.id;
    const plain = (await repost(deps, bob, second, {})).post.id;
    await drain();
    await block(deps, ann, bob);
    const [profile, page] = await Promise.all([getProfile(deps, bob), listUserPosts(deps, bob, 20, undefined, bob)]);
    expect(page.items).toHaveLength(profile.posts);
    const withheld = [
      { id: plain, original: { state: 'withheld', id: second } },
      { id: withWords, original: { state: 'withheld', id: first } },
    ];
    expect(page.items.map((p) => ({ id: p.id, original: p.original }))).toEqual(withheld);
    // The same in bob's home. Others reading bob's profile see the originals: ann blocks only bob.
    expect((await homeTimeline(deps, bob, 20)).items.map((p) => ({ id: p.id, original: p.original }))).toEqual(
      withheld,
    );
    const [cat] = await users('cat');
    expect((await listUserPosts(deps, bob, 20, undefined, cat)).items.map((p) => p.original?.state)).toEqual([
      'live',
      'live',
    ]);
    // Each repost's own page: bob sees his repost with the original withheld, as on his profile;
    // ann, who blocks bob, is refused it; cat sees it whole.
    const own = await getPost(deps, withWords, bob);
    expect({ id: own.id, body: own.body, original: own.original }).toEqual({
      id: withWords,
      body: 'bob on ann',
      original: { state: 'withheld', id: first },
    });
    await expect(getPost(deps, withWords, ann)).rejects.toMatchObject({ code: 'blocked' });
    expect((await getPost(deps, withWords, cat)).original?.state).toBe('live');
  });
});
