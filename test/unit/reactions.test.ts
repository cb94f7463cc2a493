// test/unit/reactions.test.ts — the rules of comments, reposts and likes, on in-memory fakes of
// the ports (test/support/fakes/feed.ts). The same operations run on the real stack in
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
import { interleaver } from '../support/interleave.js';
import { fakeFeed } from '../support/fakes/feed.js';

const T = 1_795_000_000_000;

describe('likes', () => {
  it('are idempotent both ways and counted once; the reader sees their own state, others do not', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await likePost(deps, 'bob', post.id, T + 1);
    await likePost(deps, 'bob', post.id, T + 2);
    expect(await getPost(deps, post.id, 'bob')).toMatchObject({
      counts: { likes: 1 },
      viewer: { liked: true, reposted: false },
    });
    expect((await getPost(deps, post.id, 'ann')).viewer.liked).toBe(false);
    expect((await getPost(deps, post.id)).viewer.liked).toBe(false);
    expect((await listLikers(deps, post.id, 10)).items).toEqual([
      { handle: 'bob', since: T + 1, face: { handle: 'bob', displayName: 'bob', avatar: null } },
    ]);
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
    await expect(addComment(deps, 'cat', other.id, { body: 'x', replyTo: c1.id }, T + 4)).rejects.toMatchObject({
      code: 'comment_not_found',
    });
    // The reply is in hi's thread, not in the post's list.
    const listed = (await listComments(deps, post.id, 'oldest', 10)).items;
    expect(listed.map((c) => [c.body, c.replies.count, c.replies.preview.map((r) => r.body)])).toEqual([
      ['hi', 1, ['yo']],
    ]);
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

describe('comments with an Idempotency-Key', () => {
  it('a retry with the same key and body answers the first comment (replayed), counted and notified once; another body is 422', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const first = await addComment(deps, 'bob', post.id, { body: 'once', idempotencyKey: 'c-1' }, T + 1);
    expect(first.replayed).toBeUndefined();
    const again = await addComment(deps, 'bob', post.id, { body: 'once', idempotencyKey: 'c-1' }, T + 5_000);
    expect(again).toEqual({ ...first, replayed: true });
    expect((await listComments(deps, post.id, 'oldest', 10)).items.map((c) => c.id)).toEqual([first.id]);
    expect((await getPost(deps, post.id)).counts.comments).toBe(1);
    // The immediate notify is the creator's alone: a replay sends nothing.
    const immediate = deps.queue.sent.filter(
      (m, i) =>
        m.type === 'notify' && m.fact.kind === 'comment' && m.fact.commentId === first.id && deps.queue.delays[i] === 0,
    );
    expect(immediate).toHaveLength(1);
    await expect(
      addComment(deps, 'bob', post.id, { body: 'twice?', idempotencyKey: 'c-1' }, T + 6_000),
    ).rejects.toMatchObject({ code: 'idempotency_key_mismatch' });
    // The same body on another post is another request.
    const { post: other } = await publishPost(deps, 'ann', { body: 'q' }, T + 2);
    await expect(
      addComment(deps, 'bob', other.id, { body: 'once', idempotencyKey: 'c-1' }, T + 7_000),
    ).rejects.toMatchObject({ code: 'idempotency_key_mismatch' });
    expect(deps.comments.rows.size).toBe(1);
  });

  it('a retry after the comment was deleted answers 410 comment_deleted and makes nothing', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const first = await addComment(deps, 'bob', post.id, { body: 'regret', idempotencyKey: 'c-2' }, T + 1);
    await deleteComment(deps, 'bob', post.id, first.id, T + 2);
    const retry = addComment(deps, 'bob', post.id, { body: 'regret', idempotencyKey: 'c-2' }, T + 3);
    await expect(retry).rejects.toMatchObject({ code: 'comment_deleted' });
    expect((await listComments(deps, post.id, 'oldest', 10)).items).toEqual([]);
    expect((await getPost(deps, post.id)).counts.comments).toBe(0);
  });

  it('a key a publish claimed is a mismatch for a comment, and a comment’s for a publish', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'bob', { body: 'same words', idempotencyKey: 'shared' }, T);
    await expect(
      addComment(deps, 'bob', post.id, { body: 'same words', idempotencyKey: 'shared' }, T + 1),
    ).rejects.toMatchObject({ code: 'idempotency_key_mismatch' });
    await addComment(deps, 'bob', post.id, { body: 'hello', idempotencyKey: 'other' }, T + 2);
    await expect(publishPost(deps, 'bob', { body: 'hello', idempotencyKey: 'other' }, T + 3)).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
  });

  it('a first request refused by the write limit keeps its claim: the retry in the next minute makes exactly that comment, under its id and time', async () => {
    const deps = fakeFeed('ann', 'bob'); // testLimits: 3 comments a minute
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const minute = Math.ceil(T / 60_000) * 60_000;
    for (let i = 0; i < 3; i++) await addComment(deps, 'bob', post.id, { body: `c${i}` }, minute + i);
    await expect(
      addComment(deps, 'bob', post.id, { body: 'late', idempotencyKey: 'c-3' }, minute + 10),
    ).rejects.toBeInstanceOf(RateLimitedError);
    const claimed = deps.idempotency.claims.get('bob/c-3')!.id;
    const made = await addComment(deps, 'bob', post.id, { body: 'late', idempotencyKey: 'c-3' }, minute + 60_000);
    expect(made).toMatchObject({ id: claimed, createdAt: minute + 10, body: 'late' });
    expect(made.replayed).toBeUndefined();
    expect((await getPost(deps, post.id)).counts.comments).toBe(4);
  });

  it('a retry that finds the first request between its claim and its create makes the comment; the first then answers it (forced)', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const gate = interleaver();
    deps.step = gate.hook;
    const held = gate.holdAt('comment.checked');
    const first = addComment(deps, 'bob', post.id, { body: 'racing', idempotencyKey: 'c-4' }, T + 1);
    await held.reached;
    const retry = await addComment(deps, 'bob', post.id, { body: 'racing', idempotencyKey: 'c-4' }, T + 2);
    held.release();
    const original = await first;
    expect(original.id).toBe(retry.id);
    expect(retry.createdAt).toBe(T + 1);
    expect([original.replayed, retry.replayed]).toEqual([true, undefined]);
    expect(deps.comments.rows.size).toBe(1);
    expect((await getPost(deps, post.id)).counts.comments).toBe(1);
  });
});

describe('reposts', () => {
  it('point at the root original, keep the chain as text, and are idempotent without a comment', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, 'ann', { body: 'root' }, T);
    const bob = await repost(deps, 'bob', post.id, { comment: 'nice' }, T + 1);
    const cat = await repost(deps, 'cat', bob.post.id, {}, T + 2);
    expect(cat.post).toMatchObject({
      repostOf: post.id,
      body: ' //@bob: nice'.trimStart(),
      original: { state: 'live', post: { id: post.id } },
    });
    await likePost(deps, 'bob', cat.post.id, T + 2);
    const again = await repost(deps, 'cat', post.id, {}, T + 3);
    expect(again).toMatchObject({ replayed: true, post: { id: cat.post.id, counts: { likes: 1 } } }); // as it is now
    expect(await getPost(deps, post.id, 'cat')).toMatchObject({ counts: { reposts: 2 }, viewer: { reposted: true } });
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
    for (const id of [
      post.id,
      ...deps.queue.sent.filter((m) => m.type === 'fanout').map((m) => (m as { postId: string }).postId),
    ]) {
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
