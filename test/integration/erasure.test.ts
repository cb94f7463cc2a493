// test/integration/erasure.test.ts — the erasure after leaving (注销) on the real HBase adapters:
// 30 days after a leave the erase-accounts job removes everything the account wrote or did and
// corrects every other user's rows, leaving only the handle's reservation; 30 days later the
// release frees the handle. The done-when check scans EVERY table's rows for any key naming the
// account (its user key, its handle as a key segment, or one of its post ids) — a whole-table
// scan, acceptable in a test only. The races (a restore against the job, a follow in flight
// across the erasure) are forced step by step (docs/consistency.md Q and R).
import { addToGroup, createGroup } from '../../shared/use-cases/groups.js';
import { describe, expect, inject, it } from 'vitest';
import { HBaseAccountRemains } from '../../shared/adapters/hbase/hbase-account-remains.js';
import { RESTORE_WINDOW_MS } from '../../shared/domain/leaving.js';
import { bytesToString, HBaseRestClient } from '../../shared/hbase/index.js';
import { qualifiedTableName, TABLES, type TableName } from '../../shared/schema/tables.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { mute, block } from '../../shared/use-cases/blocks.js';
import { bookmarkPost } from '../../shared/use-cases/bookmarks.js';
import { addComment } from '../../shared/use-cases/comments.js';
import type { ErasureDeps } from '../../shared/use-cases/erase-account.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { editPost, postHistory } from '../../shared/use-cases/edit-post.js';
import { eraseAccountsJob } from '../../shared/use-cases/jobs/erase-accounts.js';
import { leave } from '../../shared/use-cases/leave.js';
import { likePost } from '../../shared/use-cases/likes.js';
import { logIn, type LoginDeps } from '../../shared/use-cases/log-in.js';
import { listNotifications } from '../../shared/use-cases/notifications.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { accountFactory, accountWorld, drainQueue } from '../support/feed-harness.js';
import { allRows } from '../support/hbase-rows.js';
import { runToCompletion, silentLog } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';
import { RESERVATION_MS } from '../../shared/domain/limits.js';

const ns = `it_erasure_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, queued, deps: world } = accountWorld(hbase, ns);
const deps: FeedDeps & ErasureDeps & LoginDeps = { ...world, remains: new HBaseAccountRemains(hbase, ns) };
useNamespace(hbase, ns);

const PASSWORD = 'a long password';
const IP = '192.0.2.91';
const users = accountFactory(deps, PASSWORD);
const post = async (author: string, body = `by ${author}`) => (await publishPost(deps, author, { body })).post.id;
/** The job as deployed, its clock at `now`, run to the end (a few rows a step, so phases cross steps). */
const runJob = (now: number) =>
  runToCompletion(eraseAccountsJob({ ...deps, now: () => now }), {
    rowsPerStep: 3,
    log: process.env.ERASURE_LOG ? { info() {}, warn: console.warn, error: console.error } : silentLog,
  });

/**
 * Every row of every table whose key names `handle`: its user key anywhere in a binary key, or
 * — in a text key — the handle, or a post id of it, as one segment between '/', '~' or the hex salt.
 */
async function rowsNaming(handle: string): Promise<string[]> {
  const bin = Buffer.from(userKey(handle));
  const postId = new RegExp(`^${handle}\\.\\d+\\.[0-9a-f]+$`);
  const names = (key: Buffer) => {
    if (key.includes(bin)) return true;
    const segments = key.toString('latin1').split(/[/~\0]/);
    return segments.some((s) => s === handle || s.slice(4) === handle || postId.test(s) || postId.test(s.slice(4)));
  };
  const found: string[] = [];
  for (const table of Object.keys(TABLES) as TableName[]) {
    for (const row of await allRows(hbase, ns, table)) {
      const key = Buffer.from(row.key);
      if (names(key))
        found.push(
          `${table}: ${bytesToString(row.key).replace(/[^\x20-\x7e]/g, '.')} [${row.cells.map((c) => bytesToString(c.column)).join(',')}]`,
        );
    }
  }
  return found.sort();
}

describe('erasure (注销, 30 days after leaving)', () => {
  it('erases everything the account wrote or did, corrects the others, keeps only the reservation, then frees the handle', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    await Promise.all([follow(deps, bob, ann), follow(deps, cat, ann), follow(deps, ann, bob)]);
    const own = await post(ann, `hello @${bob} #topic_${ann}#`);
    await post(ann, 'a second one');
    const theirs = await post(bob, 'by bob');
    // Others on ann's post: a like, a bookmark, a comment that mentions cat, a repost.
    await likePost(deps, bob, own);
    await bookmarkPost(deps, bob, own);
    await addComment(deps, bob, own, { body: `look @${cat}` });
    await repost(deps, cat, own, { comment: 'seen' });
    // Ann on bob's post: a like, a bookmark, a comment, a repost; blocks and mutes both ways.
    await likePost(deps, ann, theirs);
    await bookmarkPost(deps, ann, theirs);
    await addComment(deps, ann, theirs, { body: `hi @${cat}` });
    await repost(deps, ann, theirs, { comment: 'from ann' });
    await mute(deps, ann, dan);
    await block(deps, dan, ann);
    // Groups: ann's own of bob, and cat keeps ann in 特别关注 and a group of cat's.
    await addToGroup(deps, ann, (await createGroup(deps, ann, 'mine')).id, bob);
    const catsGroup = (await createGroup(deps, cat, 'cats')).id;
    await addToGroup(deps, cat, catsGroup, ann);
    await addToGroup(deps, cat, 'special', ann);
    // Bob names ann with a link: a post (then edited to name cat too, so its history names ann)
    // and a comment.
    const naming = await post(bob, `ask @${ann}`);
    await editPost(deps, bob, naming, { body: `ask @${ann} or @${cat}`, ifMatch: 0 });
    const namingComment = (await addComment(deps, bob, naming, { body: `@${ann} and @${cat} see this` })).id;
    expect((await deps.remains.mentionsOf(ann, 10)).map((m) => m.place)).toEqual(
      expect.arrayContaining([{ postId: naming }, { postId: naming, commentId: namingComment }]),
    );
    await drainQueue(deps, queued);
    expect((await listNotifications(deps, bob, 30)).items.length).toBeGreaterThan(0);
    expect(await rowsNaming(ann)).not.toEqual([]);

    const left = Date.now();
    await leave(deps, ann, { handle: ann, password: PASSWORD, sourceIp: IP }, left);
    // Not due yet: nothing is erased a moment before the window ends.
    await runJob(left + RESTORE_WINDOW_MS - 1000);
    expect((await deps.remains.standing(ann))?.state).toBe('deactivated');

    const erasedAt = left + RESTORE_WINDOW_MS + 1;
    await runJob(erasedAt);
    await drainQueue(deps, queued);
    // Only the reservation is left: the users row with the handle and the erased standing, and
    // the entry that releases it.
    const reservation = await rowsNaming(ann);
    expect(reservation, reservation.join('\n')).toHaveLength(2);
    expect(reservation[0]).toMatch(new RegExp(`^lists: ~departures/release/\\d{13}/${ann} \\[e:t\\]$`));
    expect(reservation[1]).toBe(`users: ${bytesToString(userKey(ann)).replace(/[^\x20-\x7e]/g, '.')} [p:h,p:x]`);
    // The others are put right: counts, edges, notifications.
    const theirPost = await stores.posts.get(theirs);
    expect(theirPost?.counts).toEqual({ likes: 0, comments: 0, reposts: 0 });
    expect(await stores.counters.get(bob, 'followers')).toBe(0);
    expect(await stores.counters.get(bob, 'following')).toBe(0);
    expect(await stores.counters.get(cat, 'following')).toBe(0);
    // ann left every group, and no cell of cat's book names ann (nor bob's index ann's group).
    expect(await stores.groups.members(cat, 'special')).toEqual([]);
    expect(await stores.groups.members(cat, catsGroup)).toEqual([]);
    const catsBook = await hbase.getRow(qualifiedTableName(ns, 'groups'), userKey(cat));
    expect((catsBook?.cells ?? []).map((c) => bytesToString(c.qualifier)).filter((q) => q.includes(ann))).toEqual([]);
    expect(await stores.groups.holders(bob)).toEqual([]);
    const bobHears = (await listNotifications(deps, bob, 30)).items.flatMap((g) => g.actors.map((a) => a.handle));
    expect(bobHears).not.toContain(ann);
    expect(
      (await listNotifications(deps, cat, 30)).items.filter((g) => g.actors.some((a) => a.handle === ann)),
    ).toEqual([]);
    // Texts that named ann keep every word and lose only the link to ann: the post, its earlier
    // version, the comment. Cat's links stay; no entry of cat's names a place that went.
    const spans = (m: { handle: string }[] | undefined) => (m ?? []).map((x) => x.handle);
    const history = await postHistory(deps, naming);
    expect(history.map((v) => [v.body, spans(v.mentions)])).toEqual([
      [`ask @${ann} or @${cat}`, [cat]],
      [`ask @${ann}`, []],
    ]);
    const comment = await deps.comments.lookup(naming, namingComment);
    expect(comment.state === 'live' && [comment.comment.body, spans(comment.comment.mentions)]).toEqual([
      `@${ann} and @${cat} see this`,
      [cat],
    ]);
    const catNamed = (await deps.remains.mentionsOf(cat, 10)).map((m) => m.place);
    expect(catNamed).toEqual(
      expect.arrayContaining([{ postId: naming }, { postId: naming, commentId: namingComment }]),
    );
    expect(catNamed).toHaveLength(2);
    // The handle stays taken, and nobody logs in to it.
    await expect(logIn(deps, { handle: ann, password: PASSWORD, sourceIp: IP })).rejects.toMatchObject({
      name: 'AuthenticationError',
    });
    await expect(
      registerUser(deps, { handle: ann, displayName: 'Someone else', password: PASSWORD }),
    ).rejects.toMatchObject({ code: 'handle_taken' });

    // 30 days on, the release: no row names the account, and the handle is free.
    await runJob(erasedAt + RESERVATION_MS + 1);
    expect(await rowsNaming(ann)).toEqual([]);
    // Nor does the search index hold the mention of it in bob's post (its words stay).
    expect((await deps.search.posts(`@${ann}`, 10)).items).toEqual([]);
    expect((await deps.search.posts('ask', 10)).items).toContain(naming);
    await registerUser(deps, { handle: ann, displayName: 'Someone new', password: PASSWORD });
  });

  it('forced: a restore racing the job — the job held after its read loses to the login, and erases nothing', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(deps, bob, ann);
    const own = await post(ann);
    const left = Date.now();
    await leave(deps, ann, { handle: ann, password: PASSWORD, sourceIp: IP }, left);
    const read = gate.holdAt('erase.read', (d) => d.handle === ann);
    const job$ = runJob(left + RESTORE_WINDOW_MS + 1);
    await read.reached;
    const grant = await logIn(deps, { handle: ann, password: PASSWORD, sourceIp: IP }, left + RESTORE_WINDOW_MS);
    expect(grant.restored).toBe(true);
    read.release();
    const { outcomes } = await job$;
    expect(outcomes.some((o) => (o.stats as Record<string, number> | undefined)?.stale === 1)).toBe(true);
    expect((await deps.remains.standing(ann))?.state).toBe('active');
    expect((await stores.posts.get(own))?.id).toBe(own);
    expect(await stores.relations.isFollowing(bob, ann)).toBe(true);
    // Its release entry, written before the lost check, ends nothing when it falls due.
    await runJob(left + RESTORE_WINDOW_MS + RESERVATION_MS + 2);
    expect((await deps.remains.standing(ann))?.state).toBe('active');
    expect(
      await deps.remains.due('release', Number.MAX_SAFE_INTEGER, 100).then((d) => d.filter((x) => x.handle === ann)),
    ).toEqual([]);
  });

  it('forced: a restore racing the job — a login held after its password check loses to the erasure and answers 401', async () => {
    const [ann] = await users('ann');
    const left = Date.now();
    await leave(deps, ann, { handle: ann, password: PASSWORD, sourceIp: IP }, left);
    const verified = gate.holdAt('login.verified', (d) => d.handle === ann);
    const login$ = logIn(deps, { handle: ann, password: PASSWORD, sourceIp: IP }, left + RESTORE_WINDOW_MS);
    await verified.reached;
    await runJob(left + RESTORE_WINDOW_MS + 1);
    verified.release();
    await expect(login$).rejects.toMatchObject({ name: 'AuthenticationError' });
    expect((await deps.remains.standing(ann))?.state).toBe('erased');
  });

  it('forced: a follow of the account in flight across the erasure lands after it, and the release walks it away', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await post(ann);
    const checked = gate.holdAt('follow.checked', (d) => d.followee === ann);
    const following$ = follow(deps, bob, ann);
    await checked.reached;
    const left = Date.now();
    await leave(deps, ann, { handle: ann, password: PASSWORD, sourceIp: IP }, left);
    const erasedAt = left + RESTORE_WINDOW_MS + 1;
    await runJob(erasedAt);
    // During the erasure nobody can start a follow of it: 404, nothing written.
    await expect(follow(deps, bob, ann)).rejects.toMatchObject({ code: 'user_not_found' });
    checked.release();
    await following$;
    await drainQueue(deps, queued);
    expect(await stores.relations.isFollowing(bob, ann)).toBe(true);
    expect((await rowsNaming(ann)).length).toBeGreaterThan(1);
    await runJob(erasedAt + RESERVATION_MS + 1);
    expect(await rowsNaming(ann)).toEqual([]);
    expect(await stores.counters.get(bob, 'following')).toBe(0);
  });

  it('forced: a publish naming the account held after its mentions check across the erasure links it for a while, and the release unlinks it', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const checked = gate.holdAt('publish.pictures-attached', (d) => d.author === bob);
    const publishing$ = publishPost(deps, bob, { body: `late @${ann}` });
    await checked.reached;
    const left = Date.now();
    await leave(deps, ann, { handle: ann, password: PASSWORD, sourceIp: IP }, left);
    const erasedAt = left + RESTORE_WINDOW_MS + 1;
    await runJob(erasedAt);
    // Meanwhile a new text names it without a link: only active users are linked.
    expect((await publishPost(deps, bob, { body: `now @${ann}` })).post.mentions).toBeUndefined();
    checked.release();
    const late = (await publishing$).post;
    // Parsed while ann was active, it lands after the walk: linked, with its entries.
    expect(late.mentions?.map((m) => m.handle)).toEqual([ann]);
    expect((await rowsNaming(ann)).some((r) => r.includes(`${ann}/N/`))).toBe(true);
    await runJob(erasedAt + RESERVATION_MS + 1);
    expect(await rowsNaming(ann)).toEqual([]);
    const unlinked = await stores.posts.get(late.id);
    expect([unlinked?.body, unlinked?.mentions]).toEqual([`late @${ann}`, undefined]);
  });
});
