// test/support/contracts/reaction-store.contract.ts — what ReactionStore, CommentStore and
// WriteQuota promise (shared/ports/reaction-store.ts), through their interfaces only: likes and
// bookmarks as put-if-absent truths removed on their since, the newest-first lists beside them
// (whose stale entries the callers filter), the plain-repost claim, comments put-if-absent and
// listed both ways, an author's comments by their index, and quotas that count every write. Run
// on the fakes and on HBase (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../shared/domain/comment.js';
import type { ListPosition } from '../../../shared/ports/feed-store.js';
import type {
  BookmarkPosition,
  CommentStore,
  ReactionStore,
  WriteQuota,
  WrittenPosition,
} from '../../../shared/ports/reaction-store.js';
import { keyFromPostId } from '../../../shared/schema/row-keys.js';
import { commentId, cursorPages, fresh, type Make, pages, post, sorted, T0 } from './fixtures.js';

/** Post ids in post-key order (the order `likedBy` promises). */
const byPostKey = (ids: string[]) =>
  ids.toSorted((a, b) => Buffer.compare(Buffer.from(keyFromPostId(a)!), Buffer.from(keyFromPostId(b)!)));

export function reactionStoreContract(make: Make<ReactionStore>): void {
  describe('ReactionStore contract', () => {
    it('like: put-if-absent; unlike only on the since it holds; a like again is a new one', async () => {
      const reactions = await make();
      const ann = fresh('ann');
      const p = post(fresh('bob'), T0).id;
      expect(await reactions.likeSince(ann, p)).toBeNull();
      expect(await reactions.like(ann, p, T0 + 1)).toBe(true);
      expect(await reactions.like(ann, p, T0 + 2)).toBe(false);
      expect(await reactions.likeSince(ann, p)).toBe(T0 + 1);
      expect(await reactions.unlike(ann, p, T0 + 2)).toBe(false);
      expect(await reactions.unlike(ann, p, T0 + 1)).toBe(true);
      expect(await reactions.unlike(ann, p, T0 + 1)).toBe(false);
      expect(await reactions.likeSince(ann, p)).toBeNull();
      expect(await reactions.like(ann, p, T0 + 3)).toBe(true);
      expect(await reactions.likeSince(ann, p)).toBe(T0 + 3);
    });

    it('of racing likes exactly one wins; of racing unlikes exactly one', async () => {
      const reactions = await make();
      const ann = fresh('ann');
      const p = post(fresh('bob'), T0).id;
      const liked = await Promise.all([1, 2, 3].map((i) => reactions.like(ann, p, T0 + i)));
      expect(liked.filter(Boolean)).toHaveLength(1);
      const since = (await reactions.likeSince(ann, p))!;
      const unliked = await Promise.all([1, 2, 3].map(() => reactions.unlike(ann, p, since)));
      expect(unliked.filter(Boolean)).toHaveLength(1);
    });

    it("viewerState: the user's like, live repost and bookmark per post; posts never touched absent", async () => {
      const reactions = await make();
      const ann = fresh('ann');
      const [p1, p2, p3, p4] = [0, 1, 2, 3].map((i) => post(fresh('bob'), T0 + i).id) as [
        string,
        string,
        string,
        string,
      ];
      await reactions.like(ann, p1, T0);
      await reactions.addRepost(ann, p2, post(ann, T0 + 10).id, T0 + 10);
      await reactions.bookmark(ann, p3, T0 + 20);
      await reactions.like(fresh('cy'), p4, T0); // someone else's
      expect(await reactions.viewerState(ann, [p1, p2, p3, p4, 'not-a-post-id'])).toEqual(
        new Map([
          [p1, { liked: true, reposted: false }],
          [p2, { liked: false, reposted: true }],
          [p3, { liked: false, reposted: false, bookmarkedAt: T0 + 20 }],
        ]),
      );
      await reactions.unlike(ann, p1, T0);
      expect(await reactions.viewerState(ann, [p1])).toEqual(new Map());
      expect(await reactions.viewerState(ann, [])).toEqual(new Map());
    });

    it('likedBy: the posts a user likes, in post-key order, paged strictly after a post', async () => {
      const reactions = await make();
      const ann = fresh('ann');
      const liked = [0, 1, 2, 3, 4].map((i) => post(fresh(`a${i}`), T0 + i * 1000).id);
      for (const [i, p] of liked.entries()) await reactions.like(ann, p, T0 + 100 + i);
      await reactions.bookmark(ann, post(fresh('bm'), T0).id, T0); // a bookmark alone is no like
      await reactions.like(fresh('cy'), liked[0]!, T0); // someone else's like
      const order = byPostKey(liked);
      const all = await reactions.likedBy(ann, 10);
      expect(all).toEqual({ items: order.map((postId) => ({ postId, since: T0 + 100 + liked.indexOf(postId) })) });
      const paged = await pages((after?: string) => reactions.likedBy(ann, 2, after));
      expect(paged.flat()).toEqual(all.items);
      for (const page of paged) expect(page.length).toBeLessThanOrEqual(2);
      await reactions.unlike(ann, order[0]!, T0 + 100 + liked.indexOf(order[0]!));
      expect((await reactions.likedBy(ann, 10)).items.map((l) => l.postId)).toEqual(order.slice(1));
    });

    it('likers: newest first by since, then by handle; paged strictly after the position', async () => {
      const reactions = await make();
      const p = post(fresh('bob'), T0).id;
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => fresh(n)) as [string, string, string, string];
      await reactions.addLiker(p, a, T0 + 1);
      await reactions.addLiker(p, b, T0 + 3);
      await reactions.addLiker(p, c, T0 + 2);
      await reactions.addLiker(p, d, T0 + 2);
      const [first, second] = c < d ? [c, d] : [d, c];
      const expected = [
        { handle: b, since: T0 + 3 },
        { handle: first, since: T0 + 2 },
        { handle: second, since: T0 + 2 },
        { handle: a, since: T0 + 1 },
      ];
      expect(await reactions.likers(p, 10)).toEqual({ items: expected });
      expect(await pages((after?: ListPosition) => reactions.likers(p, 3, after))).toEqual([
        expected.slice(0, 3),
        expected.slice(3),
      ]);
      expect(await reactions.likers(post(fresh('cy'), T0).id, 10)).toEqual({ items: [] });
    });

    it('likers: an entry moves only with `replacing`, goes only on its own since; likeSinces reads the truth', async () => {
      const reactions = await make();
      const p = post(fresh('bob'), T0).id;
      const [ann, cy] = [fresh('ann'), fresh('cy')];
      await reactions.addLiker(p, ann, T0 + 1);
      await reactions.addLiker(p, ann, T0 + 2, T0 + 1); // this request's earlier entry goes
      expect((await reactions.likers(p, 10)).items).toEqual([{ handle: ann, since: T0 + 2 }]);
      await reactions.addLiker(p, ann, T0 + 3); // no `replacing`: the earlier entry stays, stale
      expect((await reactions.likers(p, 10)).items).toEqual([
        { handle: ann, since: T0 + 3 },
        { handle: ann, since: T0 + 2 },
      ]);
      await reactions.removeLiker(p, ann, T0 + 2);
      expect((await reactions.likers(p, 10)).items).toEqual([{ handle: ann, since: T0 + 3 }]);
      await reactions.like(ann, p, T0 + 3);
      expect(await reactions.likeSinces(p, [ann, cy])).toEqual(new Map([[ann, T0 + 3]]));
      expect(await reactions.likeSinces(p, [])).toEqual(new Map());
      await reactions.removeLiker(p, ann, T0 + 3);
      expect(await reactions.likers(p, 10)).toEqual({ items: [] });
      expect(await reactions.likeSince(ann, p)).toBe(T0 + 3); // the list is not the truth
    });

    it('bookmark: put-if-absent; unbookmark on its since; the list newest first, stale entries as written', async () => {
      const reactions = await make();
      const ann = fresh('ann');
      const [p1, p2, p3] = [0, 1, 2].map((i) => post(fresh('bob'), T0 + i).id) as [string, string, string];
      expect(await reactions.bookmark(ann, p1, T0 + 1)).toBe(true);
      expect(await reactions.bookmark(ann, p1, T0 + 9)).toBe(false);
      expect(await reactions.bookmarkSince(ann, p1)).toBe(T0 + 1);
      expect(await reactions.unbookmark(ann, p1, T0 + 9)).toBe(false);
      await reactions.listBookmark(ann, p1, T0 + 1);
      await reactions.listBookmark(ann, p2, T0 + 3);
      await reactions.listBookmark(ann, p3, T0 + 2);
      await reactions.listBookmark(ann, p3, T0 + 4, T0 + 2); // moved: its earlier place goes
      await reactions.listBookmark(fresh('cy'), p1, T0 + 5); // someone else's list
      const expected = [
        { postId: p3, since: T0 + 4 },
        { postId: p2, since: T0 + 3 },
        { postId: p1, since: T0 + 1 },
      ];
      expect(await reactions.bookmarks(ann, 10)).toEqual({ items: expected });
      expect(await pages((after?: BookmarkPosition) => reactions.bookmarks(ann, 2, after))).toEqual([
        expected.slice(0, 2),
        expected.slice(2),
      ]);
      expect(await reactions.unbookmark(ann, p1, T0 + 1)).toBe(true);
      expect(await reactions.bookmarkSince(ann, p1)).toBeNull();
      expect((await reactions.bookmarks(ann, 10)).items).toHaveLength(3); // the list is not the truth
      await reactions.unlistBookmark(ann, p1, T0 + 1);
      expect((await reactions.bookmarks(ann, 10)).items).toEqual(expected.slice(0, 2));
    });

    it('the plain-repost claim: null when claimed now, else the id held; taken over only from the id named', async () => {
      const reactions = await make();
      const ann = fresh('ann');
      const original = post(fresh('bob'), T0).id;
      const [r1, r2, r3] = [1, 2, 3].map((i) => post(ann, T0 + i).id) as [string, string, string];
      expect(await reactions.claimPlainRepost(ann, original, r1)).toBeNull();
      expect(await reactions.claimPlainRepost(ann, original, r2)).toBe(r1);
      expect(await reactions.claimPlainRepost(ann, original, r2, r3)).toBe(false); // r3 does not hold it
      expect(await reactions.claimPlainRepost(ann, original, r2, r1)).toBeNull();
      expect(await reactions.claimPlainRepost(ann, original, r3)).toBe(r2);
      expect(await reactions.claimPlainRepost(fresh('cy'), original, r3)).toBeNull(); // per user
    });

    it('reposts: each reposter once, from live reposts only; reposted while one is live', async () => {
      const reactions = await make();
      const original = post(fresh('bob'), T0).id;
      const [ann, cy] = [fresh('ann'), fresh('cy')];
      const [a1, a2, c1] = [post(ann, T0 + 1).id, post(ann, T0 + 2).id, post(cy, T0 + 3).id];
      expect(await reactions.reposters(original, 10)).toEqual([]);
      await reactions.addRepost(ann, original, a1, T0 + 1);
      await reactions.addRepost(ann, original, a2, T0 + 2);
      await reactions.addRepost(cy, original, c1, T0 + 3);
      expect(sorted(await reactions.reposters(original, 10))).toEqual(sorted([ann, cy]));
      await reactions.removeRepost(ann, original, a1);
      expect((await reactions.viewerState(ann, [original])).get(original)?.reposted).toBe(true);
      await reactions.removeRepost(ann, original, a2);
      expect(await reactions.reposters(original, 10)).toEqual([cy]);
      expect(await reactions.viewerState(ann, [original])).toEqual(new Map());
    });
  });
}

const comment = (postId: string, author: string, millis: number, more: Partial<Comment> = {}): Comment => ({
  id: commentId(millis),
  postId,
  author,
  body: `${author} at ${millis}`,
  createdAt: millis,
  ...more,
});

export function commentStoreContract(make: Make<CommentStore>): void {
  describe('CommentStore contract', () => {
    it('create is put-if-absent; lookup live, deleted once its content is dropped, absent never created', async () => {
      const comments = await make();
      const p = post(fresh('bob'), T0).id;
      const ann = fresh('ann');
      const first = comment(p, ann, T0 + 1);
      const reply = comment(p, fresh('cy'), T0 + 2, {
        replyTo: { id: first.id, author: ann },
        mentions: [{ handle: ann, start: 0, end: ann.length + 1 }],
      });
      expect(await comments.create(first)).toBe(true);
      expect(await comments.create({ ...first, body: 'again' })).toBe(false);
      expect(await comments.create(reply)).toBe(true);
      expect(await comments.lookup(p, first.id)).toEqual({ state: 'live', comment: first });
      expect(await comments.lookup(p, reply.id)).toEqual({ state: 'live', comment: reply });
      expect(await comments.lookup(p, commentId(T0))).toEqual({ state: 'absent' });
      await comments.dropContent(p, first.id);
      expect(await comments.lookup(p, first.id)).toEqual({ state: 'deleted' });
      expect(await comments.markDeleted(p, first.id, T0 + 5)).toBe(true);
      expect(await comments.markDeleted(p, first.id, T0 + 6)).toBe(false);
      expect(await comments.create(first)).toBe(false); // the id stays taken
      expect(await comments.lookup(p, first.id)).toEqual({ state: 'deleted' });
    });

    it("list: a post's live comments oldest or newest first, paged by the last id", async () => {
      const comments = await make();
      const p = post(fresh('bob'), T0).id;
      const all = [0, 1, 2, 3, 4].map((i) => comment(p, fresh(`c${i}`), T0 + i * 1000));
      for (const c of all) await comments.create(c);
      await comments.create(comment(post(fresh('cy'), T0).id, fresh('dee'), T0 + 1500)); // another post's
      await comments.dropContent(p, all[2]!.id);
      // A list brings each comment's likes and its thread's summary (none here).
      const listed = (cs: typeof all) =>
        cs.map((c) => ({ ...c, likes: { count: 0, liked: false }, thread: { count: 0, preview: [] } }));
      const live = listed([all[0]!, all[1]!, all[3]!, all[4]!]);
      expect((await cursorPages((c) => comments.list(p, 'oldest', 2, c))).flat()).toEqual(live);
      expect((await cursorPages((c) => comments.list(p, 'newest', 3, c))).flat()).toEqual(live.toReversed());
      expect(await comments.list(p, 'newest', 10)).toEqual({ items: live.toReversed() });
      const first = await comments.list(p, 'oldest', 1);
      await comments.dropContent(p, all[0]!.id); // the cursor's comment goes: the next page goes on after it
      expect((await comments.list(p, 'oldest', 2, first.nextCursor)).items).toEqual(listed([all[1]!, all[3]!]));
    });

    it('threads: a reply is not listed; the thread index pages oldest first; the summary swaps only on the value read and outlives its root', async () => {
      const comments = await make();
      const p = post(fresh('bob'), T0).id;
      const root = comment(p, fresh('ann'), T0);
      await comments.create(root);
      const replies = [1, 2, 3].map((i) => comment(p, fresh(`r${i}`), T0 + i, { root: root.id }));
      for (const r of replies) {
        await comments.listThreadEntry(p, root.id, r);
        await comments.create(r);
      }
      expect((await comments.list(p, 'oldest', 10)).items.map((c) => c.id)).toEqual([root.id]);
      const entries = (await cursorPages((c) => comments.threadEntries(p, root.id, 2, c))).flat();
      expect(entries).toEqual(replies.map((r) => ({ id: r.id, author: r.author })));
      expect((await comments.readMany(p, [replies[0]!.id, replies[2]!.id])).map((c) => c.root)).toEqual([
        root.id,
        root.id,
      ]);
      const seen = (await comments.threadState(p, root.id))!;
      expect([seen.count, seen.preview]).toEqual([0, []]);
      const preview = entries.slice(0, 2);
      expect(await comments.swapThread(p, root.id, { count: 3, preview }, seen)).toBe(true);
      expect(await comments.swapThread(p, root.id, { count: 9, preview }, seen)).toBe(false); // stale read
      // The root deleted: a placeholder with its thread while replies remain.
      await comments.dropContent(p, root.id);
      await comments.markDeleted(p, root.id, T0 + 9);
      expect((await comments.list(p, 'newest', 10)).items).toEqual([
        { id: root.id, postId: p, author: '', body: '', createdAt: T0, deleted: true, thread: { count: 3, preview } },
      ]);
      const now = (await comments.threadState(p, root.id))!;
      expect(await comments.swapThread(p, root.id, { count: 0, preview: [] }, now)).toBe(true);
      expect((await comments.list(p, 'newest', 10)).items).toEqual([]);
    });

    it('likeState / swapLike: likers and count move together, only on the state read, never on a deleted comment', async () => {
      const comments = await make();
      const p = post(fresh('bob'), T0).id;
      const c = comment(p, fresh('ann'), T0);
      await comments.create(c);
      const [cy, dee] = [fresh('cy'), fresh('dee')];
      const seen = (await comments.likeState(p, c.id, cy))!;
      expect([seen.count, seen.since]).toEqual([0, null]);
      expect(await comments.swapLike(p, c.id, cy, { since: T0 + 1, count: 1 }, seen)).toBe(true);
      expect(await comments.swapLike(p, c.id, dee, { since: T0 + 2, count: 1 }, seen)).toBe(false); // stale read
      const now = (await comments.likeState(p, c.id, dee))!;
      expect(await comments.swapLike(p, c.id, dee, { since: T0 + 2, count: now.count + 1 }, now)).toBe(true);
      expect((await comments.likeState(p, c.id, cy))!.since).toBe(T0 + 1);
      expect((await comments.list(p, 'newest', 5, undefined, dee)).items[0]!.likes).toEqual({ count: 2, liked: true });
      const before = (await comments.likeState(p, c.id, cy))!;
      await comments.dropContent(p, c.id);
      expect(await comments.likeState(p, c.id, cy)).toBeNull();
      await comments.markDeleted(p, c.id, T0 + 9);
      expect(await comments.swapLike(p, c.id, cy, { since: null, count: 1 }, before)).toBe(false);
    });

    it("purge: at most `limit` of a post's comment rows a call, counted, until none is left", async () => {
      const comments = await make();
      const p = post(fresh('bob'), T0).id;
      const all = [0, 1, 2].map((i) => comment(p, fresh('ann'), T0 + i));
      for (const c of all) await comments.create(c);
      await comments.dropContent(p, all[1]!.id);
      await comments.markDeleted(p, all[1]!.id, T0 + 9);
      expect(await comments.purge(p, 2)).toBe(2);
      expect(await comments.purge(p, 2)).toBe(1);
      expect(await comments.purge(p, 2)).toBe(0);
      for (const c of all) expect(await comments.lookup(p, c.id)).toEqual({ state: 'absent' });
    });

    it("writtenBy: an author's live comments by their index entries, newest first, paged", async () => {
      const comments = await make();
      const ann = fresh('ann');
      const mine = [0, 1, 2, 3].map((i) => comment(post(fresh('bob'), T0).id, ann, T0 + i * 1000));
      for (const c of mine) {
        await comments.listWritten(c);
        await comments.create(c);
      }
      const unlisted = comment(post(fresh('bob'), T0).id, ann, T0 + 5000);
      await comments.create(unlisted); // no entry: not listed
      const never = comment(post(fresh('bob'), T0).id, ann, T0 + 6000);
      await comments.listWritten(never); // an entry whose comment never landed: skipped
      await comments.create(comment(mine[0]!.postId, fresh('cy'), T0 + 500)); // someone else's
      const newestFirst = mine.toReversed();
      const all = await comments.writtenBy(ann, 10);
      expect(all.items).toEqual(newestFirst);
      expect(all.next).toBeUndefined();
      expect((await pages((after?: WrittenPosition) => comments.writtenBy(ann, 2, after))).flat()).toEqual(newestFirst);
      await comments.dropContent(mine[1]!.postId, mine[1]!.id);
      await comments.unlistWritten(mine[3]!);
      expect((await comments.writtenBy(ann, 10)).items).toEqual([mine[2], mine[0]]);
    });
  });
}

export function writeQuotaContract(make: Make<WriteQuota>): void {
  describe('WriteQuota contract', () => {
    it('take counts every write of its user, action and window, this one included; concurrent ones too', async () => {
      const quota = await make();
      const ann = fresh('ann');
      expect(await quota.take(ann, 'like', 100)).toBe(1);
      expect(await quota.take(ann, 'like', 100)).toBe(2);
      expect(await quota.take(ann, 'like', 101)).toBe(1);
      expect(await quota.take(ann, 'comment', 100)).toBe(1);
      expect(await quota.take(fresh('bob'), 'like', 100)).toBe(1);
      const racing = await Promise.all([1, 2, 3, 4].map(() => quota.take(ann, 'repost', 7)));
      expect(Math.max(...racing)).toBe(4);
      expect(await quota.take(ann, 'repost', 7)).toBe(5);
    });
  });
}
