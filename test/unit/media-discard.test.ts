// test/unit/media-discard.test.ts — removing pictures nothing refers to (use-cases/media/discard.ts,
// jobs/media-cleanup.ts) on fakes of their ports: the worker's verdict for every case, the order
// objects → record, the races of a discard with a claim forced step by step, and the cleanup job.
import { describe, expect, it } from 'vitest';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { discardMedia } from '../../shared/use-cases/media/discard.js';
import { processMedia } from '../../shared/use-cases/media/process-media.js';
import { completeUpload, readMedia, startUpload } from '../../shared/use-cases/media/uploads.js';
import { mediaCleanupJob } from '../../shared/use-cases/jobs/media-cleanup.js';
import { runToCompletion } from '../support/job-driver.js';
import { fakeFeed } from '../support/fakes/feed.js';
import { fakeMedia } from '../support/fakes/media.js';
import { UNCLAIMED_FOR_MS } from '../../shared/domain/limits.js';

const T = 1_700_000_000_000;
const DAY = UNCLAIMED_FOR_MS;

/** A feed whose posts carry pictures, the media worker on the same posts, and `n` ready pictures of amy's made at T. */
async function world(n: number) {
  const deps = fakeFeed('amy', 'bob');
  const m = fakeMedia(deps.posts, deps.users);
  deps.pictures = { media: m.media, variantUrl: (id, name) => m.objects.variantUrl(id, name), queue: m.queue };
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await readyPicture(m, T + i * 60_000));
  m.queue.sent.length = 0;
  return { deps, m, ids };
}

async function readyPicture(m: ReturnType<typeof fakeMedia>, at = T): Promise<string> {
  const id = await uploadedPicture(m, at);
  await completeUpload(m.api, 'amy', id);
  await processMedia(m.worker, id);
  return id;
}

/** Declared at `at` and uploaded, never completed (the record stays uploading, the original stays). */
async function uploadedPicture(m: ReturnType<typeof fakeMedia>, at = T): Promise<string> {
  const { media } = await startUpload(m.api, 'amy', { contentType: 'image/jpeg', size: 100, purpose: 'post' }, at);
  m.objects.uploads.set(media.id, new Uint8Array(100));
  return media.id;
}

/** Every object of the picture that is still stored. */
const objectsOf = (m: ReturnType<typeof fakeMedia>, id: string) => [
  ...(m.objects.uploads.has(id) ? ['upload'] : []),
  ...[...m.objects.variants.keys()].filter((k) => k.startsWith(`${id}/`)),
];

describe('discarding a deleted post’s pictures', () => {
  it('the delete that wins queues one discard per picture; the worker removes every object, then the record; a second delivery is a no-op', async () => {
    const { deps, m, ids } = await world(2);
    const { post } = await publishPost(deps, 'amy', { body: 'two', media: ids.map((id) => ({ id })) }, T + DAY);
    expect(objectsOf(m, ids[0]!)).toHaveLength(3);
    await deletePost(deps, 'amy', post.id, T + DAY + 1);
    await expect(deletePost(deps, 'amy', post.id, T + DAY + 2)).rejects.toMatchObject({ code: 'post_not_found' });
    expect(m.queue.sent).toEqual(ids.map((mediaId) => ({ v: 1, type: 'discard', mediaId })));

    let objectsAtRemove = -1;
    m.media.beforeRemove = (id) => {
      objectsAtRemove = objectsOf(m, id).length;
    };
    for (const id of ids)
      expect(await discardMedia(m.worker, id, T + DAY + 3)).toEqual({ outcome: 'discarded', reason: 'post-deleted' });
    expect(objectsAtRemove).toBe(0); // objects first, the record last
    for (const id of ids) {
      expect(objectsOf(m, id)).toEqual([]);
      expect(await m.media.get(id)).toBeNull();
      expect(await discardMedia(m.worker, id, T + DAY + 4)).toEqual({ outcome: 'skipped', state: 'absent' });
    }
  });

  it('a post without pictures, or where pictures are not configured, queues no discard', async () => {
    const { deps, m } = await world(0);
    const { post } = await publishPost(deps, 'amy', { body: 'text only' }, T);
    await deletePost(deps, 'amy', post.id, T + 1);
    const bare = fakeFeed('amy');
    const other = await publishPost(bare, 'amy', { body: 'no pictures here' }, T);
    await deletePost(bare, 'amy', other.post.id, T + 1);
    expect(m.queue.sent).toEqual([]);
  });
});

describe('the worker’s verdict, decided again when the message runs', () => {
  it('a discard delivered while its post is live (late, out of order, or mistaken) changes nothing', async () => {
    const { deps, m, ids } = await world(1);
    const { post } = await publishPost(deps, 'amy', { body: 'live', media: [{ id: ids[0]! }] }, T);
    expect(await discardMedia(m.worker, ids[0]!, T + 30 * DAY)).toEqual({ outcome: 'kept', reason: 'in-live-post' });
    expect(objectsOf(m, ids[0]!)).toHaveLength(3);
    expect((await m.media.get(ids[0]!))?.attachedTo).toBe(post.id);
  });

  it('claimed for a post that never appeared: kept while the claim is younger than 24 h, discarded after', async () => {
    const { deps, m, ids } = await world(1);
    deps.step = async (point) => {
      if (point === 'publish.pictures-attached') throw new Error('the function stopped here');
    };
    await expect(
      publishPost(deps, 'amy', { body: 'never written', media: [{ id: ids[0]! }] }, T + DAY),
    ).rejects.toThrow('stopped here');
    expect(await discardMedia(m.worker, ids[0]!, T + 2 * DAY - 1)).toEqual({ outcome: 'kept', reason: 'claim-young' });
    expect(objectsOf(m, ids[0]!)).toHaveLength(3);
    // The claim's age counts, not the picture's (made at T, claimed at T + DAY).
    expect(await discardMedia(m.worker, ids[0]!, T + 2 * DAY)).toEqual({
      outcome: 'discarded',
      reason: 'post-never-written',
    });
    expect(await m.media.get(ids[0]!)).toBeNull();
  });

  it('never claimed: kept for 24 h whatever its state, then discarded (the original too); a failed one at once', async () => {
    const { m, ids } = await world(1);
    const pending = await uploadedPicture(m, T);
    for (const id of [ids[0]!, pending])
      expect(await discardMedia(m.worker, id, T + DAY - 1)).toEqual({ outcome: 'kept', reason: 'young' });
    expect(await discardMedia(m.worker, ids[0]!, T + DAY)).toEqual({ outcome: 'discarded', reason: 'never-attached' });
    expect(await discardMedia(m.worker, pending, T + DAY)).toEqual({ outcome: 'discarded', reason: 'never-attached' });
    expect([...objectsOf(m, ids[0]!), ...objectsOf(m, pending)]).toEqual([]);

    const refused = await uploadedPicture(m, T + DAY);
    await completeUpload(m.api, 'amy', refused);
    m.images.result = { refused: 'svg_refused' };
    await processMedia(m.worker, refused);
    expect(await discardMedia(m.worker, refused, T + DAY + 1)).toEqual({ outcome: 'discarded', reason: 'failed' });
    expect(await m.media.get(refused)).toBeNull();
  });

  it('an avatar’s claim (@handle): the current avatar is kept however old; a claim that is not, once a day old (a change stopped half-way)', async () => {
    const { deps, m, ids } = await world(2);
    const [current, left] = [ids[0]!, ids[1]!];
    for (const id of ids) expect(await m.media.attach(id, '@amy', T)).toBe(true);
    expect(await deps.users.replaceAvatar('amy', null, current)).toBe(true);
    expect(await discardMedia(m.worker, current, T + 365 * DAY)).toEqual({ outcome: 'kept', reason: 'avatar' });
    expect(objectsOf(m, current)).toHaveLength(3);
    // Not amy's avatar: a change may be between its claim and its swap while the claim is young.
    expect(await discardMedia(m.worker, left, T + DAY - 1)).toEqual({ outcome: 'kept', reason: 'claim-young' });
    expect(await discardMedia(m.worker, left, T + DAY)).toEqual({ outcome: 'discarded', reason: 'avatar-replaced' });
    expect(objectsOf(m, left)).toEqual([]);
  });

  it('a worker that dies between the objects and the record leaves it marked, read as gone; the redelivery finishes it (forced)', async () => {
    const { deps, m, ids } = await world(2);
    m.media.beforeRemove = () => {
      throw new Error('the worker stopped here');
    };
    await expect(discardMedia(m.worker, ids[0]!, T + DAY)).rejects.toThrow('stopped here');
    expect(objectsOf(m, ids[0]!)).toEqual([]);
    expect((await m.media.get(ids[0]!))?.discarding).toBe(true); // a record is left, never an object alone
    await expect(readMedia(m.api, 'amy', ids[0]!)).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(publishPost(deps, 'amy', { body: 'x', media: [{ id: ids[0]! }] }, T + DAY)).rejects.toMatchObject({
      code: 'media_not_found',
    });
    expect(await processMedia(m.worker, ids[0]!)).toEqual({ outcome: 'skipped', state: 'ready' });
    m.media.beforeRemove = undefined;
    expect(await discardMedia(m.worker, ids[0]!, T + DAY + 1)).toEqual({
      outcome: 'discarded',
      reason: 'being-discarded',
    });
    expect(await m.media.get(ids[0]!)).toBeNull();
  });
});

describe('a discard racing a claim (forced): whichever writes first wins, and no post ever shows a removed picture', () => {
  /** Holds the next mark until released; resolves `reached` once a discard waits there. */
  function holdMark(m: ReturnType<typeof fakeMedia>) {
    let reached!: () => void;
    let release!: () => void;
    const at = new Promise<void>((r) => (reached = r));
    const gate = new Promise<void>((r) => (release = r));
    m.media.beforeMark = async () => {
      m.media.beforeMark = undefined;
      reached();
      await gate;
    };
    return { reached: at, release };
  }

  it('a publish that claims an old unclaimed picture between the discard’s read and its mark keeps it', async () => {
    const { deps, m, ids } = await world(1);
    const held = holdMark(m);
    const discard = discardMedia(m.worker, ids[0]!, T + DAY); // read it as never claimed, a day old
    await held.reached;
    const { post } = await publishPost(deps, 'amy', { body: 'just in time', media: [{ id: ids[0]! }] }, T + DAY);
    held.release();
    expect(await discard).toEqual({ outcome: 'kept', reason: 'in-live-post' });
    expect(objectsOf(m, ids[0]!)).toHaveLength(3);
    expect((await deps.posts.get(post.id))?.media?.map((p) => p.id)).toEqual(ids);
  });

  it('a publish that read the picture as free before the discard marked it loses its claim: 409, no post', async () => {
    const { deps, m, ids } = await world(1);
    let reached!: () => void;
    let release!: () => void;
    const atClaim = new Promise<void>((r) => (reached = r));
    const gate = new Promise<void>((r) => (release = r));
    m.media.beforeAttach = async () => {
      reached();
      await gate;
    };
    const publish = publishPost(deps, 'amy', { body: 'too late', media: [{ id: ids[0]! }] }, T + DAY); // checked: ready and free
    await atClaim;
    expect(await discardMedia(m.worker, ids[0]!, T + DAY)).toEqual({ outcome: 'discarded', reason: 'never-attached' });
    release();
    await expect(publish).rejects.toMatchObject({ code: 'media_in_use' });
    expect(deps.posts.rows.size).toBe(0);
  });

  it('a retry of a publish whose post never appeared claims again while the discard holds the old claim: the post is written and keeps it', async () => {
    const { deps, m, ids } = await world(1);
    deps.step = async (point) => {
      if (point === 'publish.pictures-attached') throw new Error('the function stopped here');
    };
    const request = { body: 'retried a day later', idempotencyKey: 'k1', media: [{ id: ids[0]! }] };
    await expect(publishPost(deps, 'amy', request, T)).rejects.toThrow('stopped here');
    deps.step = undefined;
    const held = holdMark(m);
    const discard = discardMedia(m.worker, ids[0]!, T + DAY); // read the claim of T: a day old, no post
    await held.reached;
    const { post } = await publishPost(deps, 'amy', request, T + DAY); // claims again at T + DAY, writes the post
    held.release();
    expect(await discard).toEqual({ outcome: 'kept', reason: 'in-live-post' });
    expect(objectsOf(m, ids[0]!)).toHaveLength(3);
    expect((await deps.posts.get(post.id))?.media?.map((p) => p.id)).toEqual(ids);
  });
});

describe('the media-cleanup job', () => {
  it('queues a discard for the abandoned only — never claimed for 24 h, a claim whose post never appeared for 24 h, a deleted post’s, a half-done discard — across steps', async () => {
    const { deps, m, ids } = await world(8);
    const [old, fresh, live, deleted, orphanOld, orphanYoung, half, avatar] = ids as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const now = T + 3 * DAY;
    await publishPost(deps, 'amy', { body: 'live', media: [{ id: live }] }, T);
    const gone = await publishPost(deps, 'amy', { body: 'deleted', media: [{ id: deleted }] }, T);
    deps.pictures = undefined; // its delete's discard is lost
    await deletePost(deps, 'amy', gone.post.id, T + 1);
    await m.media.attach(orphanOld, 'amy.1700000000000.a1b2c3d4e5f6', now - DAY);
    await m.media.attach(orphanYoung, 'amy.1700000000001.a1b2c3d4e5f6', now - DAY + 1);
    await m.media.markDiscarding(half, null, T);
    await m.media.attach(avatar, '@amy', T);
    await deps.users.replaceAvatar('amy', null, avatar); // amy's avatar: kept however old
    // `fresh`: never claimed, and younger than a day at `now`.
    m.media.rows.set(fresh, { ...m.media.rows.get(fresh)!, createdAt: now - 1000 });
    const failedYoung = await uploadedPicture(m, now - 2000);
    await completeUpload(m.api, 'amy', failedYoung);
    m.images.result = { refused: 'corrupt_image' };
    await processMedia(m.worker, failedYoung);
    m.queue.sent.length = 0;

    const { outcomes } = await runToCompletion(
      mediaCleanupJob({ media: m.media, posts: deps.posts, users: deps.users, queue: m.queue, now: () => now }),
      { rowsPerStep: 2 },
    );
    expect(outcomes.length).toBeGreaterThan(3); // bounded pages, resumed through continuations
    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { seen: 9, fixed: 4 } });
    expect(m.queue.sent.map((s) => s.mediaId).sort()).toEqual([old, deleted, orphanOld, half].sort());
    expect(m.queue.sent.every((s) => s.type === 'discard')).toBe(true);
    // The worker agrees with every one of them.
    for (const s of m.queue.sent) expect((await discardMedia(m.worker, s.mediaId, now)).outcome).toBe('discarded');
    expect([...m.media.rows.keys()].sort()).toEqual([fresh, live, orphanYoung, avatar, failedYoung].sort());
  });
});
