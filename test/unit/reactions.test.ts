// test/unit/reactions.test.ts — the rules of comments, reposts and likes, on in-memory fakes of
// the ports (test/unit/feed-fakes.ts). The same operations run on the real stack in
// test/integration/reactions.test.ts and test/e2e/reactions.test.ts.
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../shared/domain/errors.js';
import { addComment, deleteComment, listComments } from '../../shared/use-cases/comments.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { likePost, listLikers, unlikePost } from '../../shared/use-cases/likes.js';
import { deletePost, getPost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { chainBody, repost } from '../../shared/use-cases/reposts.js';
import { fakeFeed } from './feed-fakes.js';

const T = 1_795_000_000_000;

describe('likes', () => {
  it('are idempotent both ways and counted once; the reader sees their own state, others do not', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await likePost(deps, 'bob', post.id, T + 1);
    await likePost(deps, 'bob', post.id, T + 2);
    expect(await getPost(deps, post.id, 'bob')).toMatchObject({ counts: { likes: 1 }, viewer: { liked: true, reposted: false } });
    expect((await getPost(deps, post.id, 'ann')).viewer.liked).toBe(false);
    expect((await getPost(deps, post.id)).viewer.liked).toBe(false);
    expect((await listLikers(deps, post.id, 10)).items).toEqual([{ handle: 'bob', since: T + 1, face: { handle: 'bob', displayName: 'bob', avatar: null } }]);
    await unlikePost(deps, 'bob', post.id, T + 3);
    await unlikePost(deps, 'bob', post.id, T + 4);
    expect(await getPost(deps, post.id, 'bob')).toMatchObject({ counts: { likes: 0 }, viewer: { liked: false } });
  });

  it('past the per-minute limit: 429 with the seconds to the next window; likes and unlikes count together', async () => {
    const deps = fakeFeed('ann', 'bob'); // testLimits: 5 likes a minute
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const minute = Math.floor(T / 60_000) * 60_000;
    for (let i = 0; i < 5; i++) await (i % 2 ? unlikePost : likePost)(deps, 'bob', post.id, minute + 10_000);
    const refused = await likePost(deps, 'bob', post.id, minute + 10_000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(50);
    await likePost(deps, 'bob', post.id, minute + 60_000);
  });
});

describe('comments', () => {
  it('reply-to a comment on the same post only; delete by the comment’s or the post’s author; counts follow', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const { post: other } = await publishPost(deps, 'ann', { body: 'q' }, T + 1);
    const c1 = await addComment(deps, 'bob', post.id, { body: 'hi' }, T + 2);
    const c2 = await addComment(deps, 'cat', post.id, { body: 'yo', replyTo: c1.id }, T + 3);
    expect(c2.replyTo).toEqual({ id: c1.id, author: 'bob' });
    await expect(addComment(deps, 'cat', other.id, { body: 'x', replyTo: c1.id }, T + 4)).rejects.toMatchObject({ code: 'comment_not_found' });
    expect((await listComments(deps, post.id, 'oldest', 10)).items.map((c) => c.body)).toEqual(['hi', 'yo']);
    await expect(deleteComment(deps, 'cat', post.id, c1.id)).rejects.toMatchObject({ code: 'forbidden' });
    await deleteComment(deps, 'ann', post.id, c1.id);
    await deleteComment(deps, 'cat', post.id, c2.id);
    await expect(deleteComment(deps, 'cat', post.id, c2.id)).rejects.toMatchObject({ code: 'comment_not_found' });
    expect((await getPost(deps, post.id)).counts.comments).toBe(0);
  });

  it('a deleted post: its comments are 404 at once, and the worker purges them', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await addComment(deps, 'bob', post.id, { body: 'hi' }, T + 1);
    await deletePost(deps, 'ann', post.id, T + 2);
    await expect(listComments(deps, post.id, 'newest', 10)).rejects.toMatchObject({ code: 'post_not_found' });
    const purge = deps.queue.sent.find((m) => m.type === 'purge-comments')!;
    await handleFanoutMessage(deps, purge);
    expect(deps.comments.rows.size).toBe(0);
  });
});

describe('reposts', () => {
  it('point at the root original, keep the chain as text, and are idempotent without a comment', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, 'ann', { body: 'root' }, T);
    const bob = await repost(deps, 'bob', post.id, { comment: 'nice' }, T + 1);
    const cat = await repost(deps, 'cat', bob.post.id, {}, T + 2);
    expect(cat.post).toMatchObject({ repostOf: post.id, body: ' //@bob: nice'.trimStart(), original: { state: 'live', post: { id: post.id } } });
    await likePost(deps, 'bob', cat.post.id, T + 2);
    const again = await repost(deps, 'cat', post.id, {}, T + 3);
    expect(again).toMatchObject({ replayed: true, post: { id: cat.post.id, counts: { likes: 1 } } }); // as it is now
    expect((await getPost(deps, post.id, 'cat'))).toMatchObject({ counts: { reposts: 2 }, viewer: { reposted: true } });
    await deletePost(deps, 'ann', post.id, T + 4);
    expect((await getPost(deps, cat.post.id)).original).toEqual({ state: 'deleted', id: post.id });
  });

  it('the chain is cut at the post limit, never the reposter’s own words', () => {
    const long = chainBody('mine', { author: 'bob', body: '字'.repeat(600) });
    expect([...long]).toHaveLength(500);
    expect(long.startsWith('mine //@bob: ')).toBe(true);
    expect(long.endsWith('…')).toBe(true);
    expect(chainBody('mine', { author: 'bob', body: '' })).toBe('mine');
  });

  it('the timeline: a plain repost is left out when its original shows in the window another way; else the newest shows once', async () => {
    const deps = fakeFeed('me', 'ann', 'bob', 'cat');
    const { post } = await publishPost(deps, 'ann', { body: 'root' }, T);
    await repost(deps, 'bob', post.id, {}, T + 1);
    await repost(deps, 'cat', post.id, {}, T + 2);
    for (const id of [post.id, ...deps.queue.sent.filter((m) => m.type === 'fanout').map((m) => (m as { postId: string }).postId)]) {
      const p = (await deps.posts.get(id))!;
      await deps.inbox.add(['me'], p);
    }
    const page = await homeTimeline(deps, 'me', 10, undefined, T + 3);
    // The original is in the window: both plain reposts (newer, above it) are left out.
    expect(page.items.map((p) => `${p.author}:${p.repostOf ? 'repost' : 'post'}`)).toEqual(['ann:post']);
    // Without the original in the window, the newest plain repost shows it, once.
    await deps.inbox.remove(['me'], post.id);
    const again = await homeTimeline(deps, 'me', 10, undefined, T + 4);
    expect(again.items.map((p) => `${p.author}:${p.repostOf ? 'repost' : 'post'}`)).toEqual(['cat:repost']);
  });
});
