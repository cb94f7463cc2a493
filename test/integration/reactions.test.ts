import { beforeEach, describe, expect, inject, it } from 'vitest';
import { HBasePostCountStore } from '../../shared/adapters/hbase/hbase-post-count-store.js';
import { RateLimitedError } from '../../shared/domain/errors.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { listPrefix } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { addComment, deleteComment, listComments } from '../../shared/use-cases/comments.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { repairPostCountsJob } from '../../shared/use-cases/jobs/repair-post-counts.js';
import { likePost, listLikers, unlikePost } from '../../shared/use-cases/likes.js';
import { deletePost, getPost, listUserPosts } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { chainBody, repost } from '../../shared/use-cases/reposts.js';
import {
  describeCalls,
  drainQueue,
  feedWorld,
  requestRecorder,
  roundTrips,
  userFactory,
} from '../support/feed-harness.js';
import { runToCompletion } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';
import { withoutFaces } from '../support/faces.js';

const ns = `it_react_${Date.now().toString(36)}`;
const { requests, onRequest } = requestRecorder();
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000, onRequest });
const { stores, gate, queued, deps } = feedWorld(hbase, ns);

useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
});

const users = userFactory(stores.users);
const drain = () => drainQueue(deps, queued);

async function measured<T>(
  op: () => Promise<T>,
): Promise<{ result: T; requests: number; depth: number; tables: string[]; calls: string }> {
  const from = requests.length;
  const result = await op();
  const calls = requests.slice(from);
  return {
    result,
    requests: calls.length,
    depth: roundTrips(calls),
    tables: calls.map((c) => decodeURIComponent(c.path.split('/')[1]!).split(':')[1]!),
    calls: describeCalls(calls),
  };
}

const post = async (author: string, body = `by ${author}`) => (await publishPost(deps, author, { body })).post.id;

describe('the client’s stateless scan (text row keys, both directions, one request)', () => {
  it('stays inside the prefix, honours the start row and runs in reverse', async () => {
    const table = qualifiedTableName(ns, 'comments');
    for (const k of ['ab/1', 'ab/2', 'ab/3', 'abc/1', 'aa/9', 'multiget/x'])
      await hbase.put(table, [{ key: k, cells: [{ column: 'm:v', value: k }] }]);
    const keys = (rows: { key: Uint8Array }[]) => rows.map((r) => Buffer.from(r.key).toString());
    const forward = await measured(() => hbase.scanText(table, { prefix: 'ab/', limit: 10, columns: ['m:v'] }));
    expect(forward.requests).toBe(1);
    expect(keys(forward.result)).toEqual(['ab/1', 'ab/2', 'ab/3']);
    expect(keys(await hbase.scanText(table, { prefix: 'ab/', startRow: 'ab/1 ', limit: 1 }))).toEqual(['ab/2']);
    expect(keys(await hbase.scanText(table, { prefix: 'ab/', startRow: 'ab/~', reversed: true, limit: 2 }))).toEqual([
      'ab/3',
      'ab/2',
    ]);
    expect(keys(await hbase.scanText(table, { prefix: 'ab/', startRow: 'ab/2', reversed: true, limit: 5 }))).toEqual([
      'ab/2',
      'ab/1',
    ]);
    // A prefix spelling a sub-resource is still a prefix (its first character is escaped).
    expect(keys(await hbase.scanText(table, { prefix: 'multiget/', limit: 5 }))).toEqual(['multiget/x']);
  });
});

describe('likes', () => {
  it('racing likes by one user (the author too) count once; racing unlikes uncount once; state and list follow', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await Promise.all(Array.from({ length: 8 }, () => likePost(deps, ann, id)));
    await Promise.all(Array.from({ length: 8 }, () => likePost(deps, bob, id)));
    expect((await getPost(deps, id, bob)).counts.likes).toBe(2);
    expect((await getPost(deps, id, bob)).viewer).toEqual({ liked: true, reposted: false });
    expect((await listLikers(deps, id, 10)).items.map((l) => l.handle).sort()).toEqual([ann, bob].sort());
    await Promise.all(Array.from({ length: 8 }, () => unlikePost(deps, bob, id)));
    expect((await getPost(deps, id, bob)).counts.likes).toBe(1);
    expect((await getPost(deps, id, bob)).viewer.liked).toBe(false);
    expect((await listLikers(deps, id, 10)).items.map((l) => l.handle)).toEqual([ann]);
    // like → unlike → like back to back: the family keeps the later write (NEW_VERSION_BEHAVIOR).
    for (let i = 0; i < 5; i++) {
      await likePost(deps, bob, id);
      await unlikePost(deps, bob, id);
    }
    await likePost(deps, bob, id);
    expect((await getPost(deps, id, bob)).viewer.liked).toBe(true);
    expect((await getPost(deps, id)).counts.likes).toBe(2);
  });

  it('150 users liking one post at once: the count is exact, and the who-liked list pages through all of them', async () => {
    const [author] = await users('hot');
    const id = await post(author);
    const fans = Array.from({ length: 150 }, (_, i) => `fan${i}_${author}`.slice(0, 30));
    // Registered: only a user who has not left (has a face) is listed (docs/consistency.md Q).
    await Promise.all(
      fans.map((handle) => stores.users.create({ handle, displayName: handle, passwordHash: 'x', createdAt: 0 })),
    );
    for (let i = 0; i < fans.length; i += 30)
      await Promise.all(fans.slice(i, i + 30).map((f) => likePost(deps, f, id)));
    expect((await getPost(deps, id)).counts.likes).toBe(150);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listLikers(deps, id, 40, cursor);
      seen.push(...page.items.map((l) => l.handle));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...fans].sort());
  });

  it('who liked is newest first; like → unlike → like moves the liker to the front, shown once', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    const id = await post(ann);
    await likePost(deps, bob, id, 1_000);
    await likePost(deps, cat, id, 3_000);
    await likePost(deps, dan, id, 2_000);
    expect(withoutFaces((await listLikers(deps, id, 10)).items)).toEqual([
      { handle: cat, since: 3_000 },
      { handle: dan, since: 2_000 },
      { handle: bob, since: 1_000 },
    ]);
    await unlikePost(deps, bob, id);
    await likePost(deps, bob, id, 4_000);
    expect((await listLikers(deps, id, 10)).items.map((l) => l.handle)).toEqual([bob, cat, dan]);
    expect((await stores.reactions.likers(id, 10)).items).toHaveLength(3);
  });

  it('forced: a like stopped between its post-side entry and its truth is neither listed nor counted; finished, it is both', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const held = gate.holdAt('like.listed', (d) => d.actor === bob);
    const liking = likePost(deps, bob, id);
    await held.reached;
    // The entry is there (the raw list shows it), the truth is not: nothing shows it.
    expect((await stores.reactions.likers(id, 10)).items.map((l) => l.handle)).toEqual([bob]);
    expect(withoutFaces((await listLikers(deps, id, 10)).items)).toEqual([]);
    expect(await getPost(deps, id, bob)).toMatchObject({ counts: { likes: 0 }, viewer: { liked: false } });
    held.release();
    await liking;
    expect((await listLikers(deps, id, 10)).items.map((l) => l.handle)).toEqual([bob]);
    expect(await getPost(deps, id, bob)).toMatchObject({ counts: { likes: 1 }, viewer: { liked: true } });
  });

  it('forced: a like that lands inside an unlike (after its truth delete, before its entry removal) keeps its entry', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await likePost(deps, bob, id, 1_000);
    const held = gate.holdAt('unlike.won', (d) => d.actor === bob);
    const unliking = unlikePost(deps, bob, id);
    await held.reached;
    await likePost(deps, bob, id, 2_000); // a new entry and truth, since 2000
    held.release();
    await unliking; // removes the entry only while it holds 1000: it holds 2000 and stays
    expect(withoutFaces((await listLikers(deps, id, 10)).items)).toEqual([{ handle: bob, since: 2_000 }]);
    expect(await getPost(deps, id, bob)).toMatchObject({ counts: { likes: 1 }, viewer: { liked: true } });
  });

  it('forced: an unlike between a repeated like’s two writes — the repeat then likes again; entry, truth and count agree', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await likePost(deps, bob, id, 1_000);
    const held = gate.holdAt('like.listed', (d) => d.actor === bob);
    const repeat = likePost(deps, bob, id, 2_000); // rewrites the entry with 2000, then waits
    await held.reached;
    await unlikePost(deps, bob, id); // removes the truth (1000); the entry holds 2000 and stays
    held.release();
    await repeat; // the truth is free: it writes 2000 and counts
    expect(withoutFaces((await listLikers(deps, id, 10)).items)).toEqual([{ handle: bob, since: 2_000 }]);
    expect(await getPost(deps, id, bob)).toMatchObject({ counts: { likes: 1 }, viewer: { liked: true } });
    // A repeat that loses puts the entry back to the truth's since.
    await likePost(deps, bob, id, 3_000);
    expect(withoutFaces((await listLikers(deps, id, 10)).items)).toEqual([{ handle: bob, since: 2_000 }]);
  });

  it('a deleted post cannot be liked (404); unliking it still tidies your state; an unknown id is 404', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await likePost(deps, bob, id);
    await deletePost(deps, ann, id);
    await expect(likePost(deps, bob, id)).rejects.toMatchObject({ code: 'post_not_found' });
    await unlikePost(deps, bob, id);
    expect((await stores.reactions.viewerState(bob, [id])).get(id)?.liked ?? false).toBe(false);
    await expect(unlikePost(deps, bob, `${bob}.1795000000000.a1b2c3d4e5f6`)).rejects.toMatchObject({
      code: 'post_not_found',
    });
  });

  it('the write quota: past the per-minute limit, 429 with the seconds left in the window', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const d = { ...deps, limits: { ...deps.limits, writesPerMinute: { ...deps.limits.writesPerMinute, like: 3 } } };
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 45_000; // 15 s left in this window
    for (let i = 0; i < 3; i++) await likePost(d, bob, id, now);
    const refused = await likePost(d, bob, id, now).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(15);
    await likePost(d, bob, id, now + 60_000); // the next window
  });
});

describe('comments', () => {
  it('create, reply-to, list both orders with cursors (2 round trips a page), delete by either author, exact count', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const id = await post(ann);
    const t = Date.now();
    const made: Awaited<ReturnType<typeof addComment>>[] = [];
    for (let i = 0; i < 5; i++) made.push(await addComment(deps, [bob, cat][i % 2]!, id, { body: `c${i}` }, t + i));
    const reply = await addComment(deps, ann, id, { body: 'thanks', replyTo: made[0]!.id }, t + 10);
    expect(reply.replyTo).toEqual({ id: made[0]!.id, author: bob });
    await expect(addComment(deps, ann, id, { body: 'x', replyTo: '1795000000000-00000000' })).rejects.toMatchObject({
      code: 'comment_not_found',
    });
    expect((await getPost(deps, id)).counts.comments).toBe(6);

    const pageThrough = async (order: 'newest' | 'oldest') => {
      const bodies: string[] = [];
      let cursor: string | undefined;
      do {
        const { result, depth, calls } = await measured(() => listComments(deps, id, order, 2, cursor));
        expect(depth, calls).toBe(2); // the post's get ∥ the comments' scan; then the authors' faces
        expect(result.items.every((c) => c.deleted || c.face?.handle === c.author)).toBe(true);
        // A reply is in its root's thread, not in the post's list: the root shows it as its preview.
        bodies.push(
          ...result.items.map((c) =>
            [c.deleted ? '(deleted)' : c.body, ...c.replies.preview.map((r) => `> ${r.body}`)].join(' '),
          ),
        );
        cursor = result.nextCursor;
      } while (cursor);
      return bodies;
    };
    expect(await pageThrough('oldest')).toEqual(['c0 > thanks', 'c1', 'c2', 'c3', 'c4']);
    expect(await pageThrough('newest')).toEqual(['c4', 'c3', 'c2', 'c1', 'c0 > thanks']);

    await expect(deleteComment(deps, cat, id, made[0]!.id)).rejects.toMatchObject({ code: 'forbidden' }); // bob's, on ann's post
    await deleteComment(deps, bob, id, made[0]!.id); // its author
    await deleteComment(deps, ann, id, made[1]!.id); // the post's author
    const racing = await Promise.allSettled(Array.from({ length: 5 }, () => deleteComment(deps, bob, id, made[2]!.id)));
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await getPost(deps, id)).counts.comments).toBe(3);
    // c0 is gone but its reply stays: a placeholder (该评论已删除) with its thread.
    expect(await pageThrough('oldest')).toEqual(['(deleted) > thanks', 'c3', 'c4']);
  });

  it('20 comments at once: the count is exact', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await Promise.all(Array.from({ length: 20 }, (_, i) => addComment(deps, bob, id, { body: `q${i}` })));
    expect((await getPost(deps, id)).counts.comments).toBe(20);
    expect((await listComments(deps, id, 'newest', 50)).items).toHaveLength(20);
  });

  it('a deleted post’s comments are gone from every read at once; the worker then removes the rows', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const other = await post(ann);
    await addComment(deps, bob, id, { body: 'gone soon' });
    await addComment(deps, bob, other, { body: 'stays' });
    await deletePost(deps, ann, id);
    await expect(listComments(deps, id, 'newest', 10)).rejects.toMatchObject({ code: 'post_not_found' });
    await expect(addComment(deps, bob, id, { body: 'late' })).rejects.toMatchObject({ code: 'post_not_found' });
    expect(queued.map((m) => m.type)).toContain('purge-comments');
    await drain();
    expect((await stores.comments.list(id, 'oldest', 10)).items).toEqual([]);
    expect(
      (
        await hbase.scanText(qualifiedTableName(ns, 'comments'), {
          prefix: (await import('../../shared/schema/row-keys.js')).commentPrefix(id),
          limit: 10,
        })
      ).length,
    ).toBe(0);
    expect((await listComments(deps, other, 'newest', 10)).items.map((c) => c.body)).toEqual(['stays']);
  });
});

describe('comments with an Idempotency-Key', () => {
  /** The raw rows of `author`'s comment index (kind W), stale entries included. */
  const writtenEntries = async (author: string) =>
    (await hbase.scanText(qualifiedTableName(ns, 'lists'), { prefix: listPrefix(author, 'W'), limit: 50 })).length;

  it('forced: a comment retry that runs while the first request is between its claim and its create makes one comment, counted once, indexed once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const held = gate.holdAt('comment.checked', (d) => d.actor === bob);
    const first = addComment(deps, bob, id, { body: 'sent twice', idempotencyKey: 'tap-1' });
    await held.reached; // its key is claimed for its id and the id's entries are written; no row yet
    const retry = await addComment(deps, bob, id, { body: 'sent twice', idempotencyKey: 'tap-1' }); // makes it under the claimed id
    held.release();
    const original = await first; // its create loses: it answers the retry's comment
    expect(original.id).toBe(retry.id);
    expect(original.createdAt).toBe(retry.createdAt);
    expect([original.replayed, retry.replayed]).toEqual([true, undefined]);
    await drain(); // the delayed notifies (both requests queued one) heal nothing twice
    expect((await getPost(deps, id)).counts.comments).toBe(1);
    expect((await listComments(deps, id, 'oldest', 10)).items.map((c) => c.id)).toEqual([retry.id]);
    expect((await stores.comments.writtenBy(bob, 10)).items.map((c) => c.id)).toEqual([retry.id]);
    expect(await writtenEntries(bob)).toBe(1); // the retry's own id left no entry behind
  });

  it('a comment retry after its delete answers comment_deleted and brings nothing back; another body is a mismatch', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const made = await addComment(deps, bob, id, { body: 'regret', idempotencyKey: 'tap-2' });
    expect(await addComment(deps, bob, id, { body: 'regret', idempotencyKey: 'tap-2' })).toEqual({
      ...made,
      replayed: true,
    });
    await deleteComment(deps, bob, id, made.id);
    await expect(addComment(deps, bob, id, { body: 'regret', idempotencyKey: 'tap-2' })).rejects.toMatchObject({
      code: 'comment_deleted',
    });
    await expect(addComment(deps, bob, id, { body: 'something else', idempotencyKey: 'tap-2' })).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
    await drain();
    expect((await getPost(deps, id)).counts.comments).toBe(0);
    expect((await listComments(deps, id, 'oldest', 10)).items).toEqual([]);
    expect(await writtenEntries(bob)).toBe(0); // the deleted comment's entry went with it; no retry left one
  });
});

describe('reposts', () => {
  it('plain reposts are idempotent per (user, original); with a comment each is new; counts and state exact', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann, 'original');
    const racing = await Promise.all(Array.from({ length: 5 }, () => repost(deps, bob, id, {})));
    expect(new Set(racing.map((r) => r.post.id)).size).toBe(1);
    expect(racing.filter((r) => !r.replayed)).toHaveLength(1);
    const plain = racing[0]!.post;
    expect(plain).toMatchObject({
      author: bob,
      body: '',
      repostOf: id,
      original: { state: 'live', post: { id, body: 'original' } },
    });
    const commented = await repost(deps, bob, id, { comment: '说得好' });
    expect(commented.replayed).toBe(false);
    expect((await getPost(deps, id, bob)).counts.reposts).toBe(2);
    expect((await getPost(deps, id, bob)).viewer.reposted).toBe(true);
    expect((await getPost(deps, id, ann)).viewer.reposted).toBe(false);
    // Deleting the plain repost uncounts it; the next plain repost is a new one.
    await deletePost(deps, bob, plain.id);
    expect((await getPost(deps, id)).counts.reposts).toBe(1);
    const again = await repost(deps, bob, id, {});
    expect(again.replayed).toBe(false);
    expect(again.post.id).not.toBe(plain.id);
    expect((await getPost(deps, id)).counts.reposts).toBe(2);
  });

  it('reposting a repost reposts the original and keeps the chain as text', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const id = await post(ann, 'root');
    const viaBob = (await repost(deps, bob, id, { comment: 'bob says' })).post;
    const viaCat = (await repost(deps, cat, viaBob.id, { comment: 'cat says' })).post;
    expect(viaCat.repostOf).toBe(id);
    expect(viaCat.body).toBe(`cat says //@${bob}: bob says`);
    expect((await getPost(deps, id)).counts.reposts).toBe(2);
    expect((await getPost(deps, viaBob.id)).counts.reposts).toBe(0);
    expect(chainBody('', { author: 'x', body: 'y'.repeat(500) })).toHaveLength(500);
  });

  it('forced: a retry that runs while the first plain repost is between its claim and its create makes the same single repost', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const held = gate.holdAt('repost.claimed', (d) => d.actor === bob);
    const first = repost(deps, bob, id, {});
    await held.reached;
    const retry = await repost(deps, bob, id, {}); // finds the claim, no post yet: creates it under the claimed id
    held.release();
    const done = await first; // its create loses: it answers the same post
    expect(done.post.id).toBe(retry.post.id);
    expect((await getPost(deps, id)).counts.reposts).toBe(1);
    expect((await listUserPosts(deps, bob, 10)).items).toHaveLength(1);
  });

  it('a deleted original shows as deleted in every repost, never a 500; reposting it is 404', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann, 'soon gone');
    const r = (await repost(deps, bob, id, { comment: 'look' })).post;
    await deletePost(deps, ann, id);
    expect((await getPost(deps, r.id, bob)).original).toEqual({ state: 'deleted', id });
    expect((await listUserPosts(deps, bob, 10, undefined, bob)).items[0]!.original).toEqual({ state: 'deleted', id });
    await expect(repost(deps, bob, r.id, {})).rejects.toMatchObject({ code: 'post_not_found' });
  });
});

describe('the timeline with reactions', () => {
  it('counts, the reader’s state and embedded originals in 2 measured round trips; each original shows once per window', async () => {
    const [reader, ann, bob, cat] = await users('reader', 'ann', 'bob', 'cat');
    for (const f of [ann, bob, cat]) await follow(deps, reader, f);
    await drain();
    const original = await post(ann, 'the original');
    await drain();
    await likePost(deps, reader, original);
    await repost(deps, bob, original, {}); // plain: the original shows in the window anyway — left out
    await repost(deps, cat, original, { comment: 'cat’s words' }); // with a comment: its own item
    const elsewhere = await post(cat, 'cat’s own post');
    await repost(deps, bob, elsewhere, {});
    await drain();
    const { result, depth, tables, calls } = await measured(() => homeTimeline(deps, reader, 20));
    expect(depth, calls).toBe(2);
    expect(tables.filter((t) => t === 'content')).toHaveLength(1); // originals in the same multi-get as the page
    const items = result.items.map((p) => ({
      by: p.author,
      body: p.body,
      of: p.original?.state === 'live' ? p.original.post.body : null,
    }));
    // bob's plain reposts are left out: both originals show in the window (cat's post itself; ann's
    // post itself and inside cat's repost with words).
    expect(items).toEqual([
      { by: cat, body: 'cat’s own post', of: null },
      { by: cat, body: 'cat’s words', of: 'the original' },
      { by: ann, body: 'the original', of: null },
    ]);
    const shown = result.items.find((p) => p.id === original)!;
    expect(shown.counts).toEqual({ likes: 1, comments: 0, reposts: 2 });
    expect(shown.viewer).toEqual({ liked: true, reposted: false });
    expect(result.items[1]!.original).toMatchObject({
      state: 'live',
      post: { viewer: { liked: true, reposted: false } },
    });
    // The embedded original of a repost whose original is not followed: bob's plain repost of an
    // unfollowed author's post shows it (nothing else in the window does).
    const [dan] = await users('dan');
    const far = await post(dan, 'from someone reader does not follow');
    await repost(deps, bob, far, {});
    await drain();
    const top = (await homeTimeline(deps, reader, 1)).items[0]!;
    expect(top).toMatchObject({ author: bob, body: '', original: { state: 'live', post: { id: far, author: dan } } });
  });
});

describe('the post-count repair job (real HBase)', () => {
  const countsOf = async (id: string) => (await getPost(deps, id)).counts;

  it('finds nothing on counts the operations kept; recounts drifted ones from the truth; leaves a count a live increment moved', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const exact = await post(ann, 'kept exact');
    const drifted = await post(ann, 'drifted');
    const busy = await post(ann, 'busy');
    for (const id of [exact, drifted, busy]) {
      await likePost(deps, bob, id);
      await likePost(deps, cat, id);
      await addComment(deps, bob, id, { body: 'c' });
      await repost(deps, cat, id, { comment: 'r' });
    }
    // A like stopped before its truth (entry only), and a stale entry: neither may be counted.
    await stores.reactions.addLiker(drifted, 'ghost', 1);
    const content = qualifiedTableName(ns, 'content');
    const key = (await import('../../shared/schema/row-keys.js')).keyFromPostId;
    // Drift as a stopped function leaves it: increments that never ran or ran twice.
    await hbase.increment(content, key(drifted)!, 'c:likes', 5);
    await hbase.increment(content, key(drifted)!, 'c:comments', -1);
    await hbase.increment(content, key(busy)!, 'c:reposts', 2);

    // Before any job: the operations kept the counts exact, and the drift is exactly what was
    // injected (checking only after the job would pass even if the operations had miscounted
    // and the job had covered it up).
    expect(await countsOf(exact)).toEqual({ likes: 2, comments: 1, reposts: 1 });
    expect(await countsOf(drifted)).toEqual({ likes: 7, comments: 0, reposts: 1 });
    expect(await countsOf(busy)).toEqual({ likes: 2, comments: 1, reposts: 3 });

    const postCounts = new HBasePostCountStore(hbase, ns);
    // While the confirm step recounts `busy` (its second recount; the walk did the first), a real
    // repost lands: the job must not overwrite its increment.
    let busyRecounts = 0;
    const racing = Object.assign(Object.create(postCounts) as HBasePostCountStore, {
      async recount(id: string, max: number) {
        const out = await postCounts.recount(id, max);
        if (id === busy && ++busyRecounts === 2) await repost(deps, bob, busy, {});
        return out;
      },
    });
    const first = await runToCompletion(repairPostCountsJob(racing, { settleMs: 200 }), { rowsPerStep: 2 });
    expect(first.outcomes.at(-1)?.status).toBe('done');
    // It wrote exactly the two drifted counts: nothing on `exact`, nothing on the moving `busy`.
    expect(first.outcomes.at(-1)?.totals.fixed).toBe(2);
    expect(await countsOf(exact)).toEqual({ likes: 2, comments: 1, reposts: 1 });
    expect(await countsOf(drifted)).toEqual({ likes: 2, comments: 1, reposts: 1 });
    expect((await countsOf(busy)).reposts).toBe(4); // 3 + bob's repost: left for the next run
    const second = await runToCompletion(repairPostCountsJob(postCounts, { settleMs: 200 }), { rowsPerStep: 2 });
    expect(second.outcomes.at(-1)?.status).toBe('done');
    expect(await countsOf(busy)).toEqual({ likes: 2, comments: 1, reposts: 2 });
    // Exact counts everywhere now: a third run writes nothing.
    const third = await runToCompletion(repairPostCountsJob(postCounts, { settleMs: 200 }), { rowsPerStep: 2 });
    expect(third.outcomes.reduce((n, o) => n + (o.totals?.fixed ?? 0), 0)).toBe(0);
  });
});
