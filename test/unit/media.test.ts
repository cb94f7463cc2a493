// test/unit/media.test.ts — the upload flow and the media worker on fakes of their own ports:
// the product rules (types, 20 MB, the write limit, who may see what), the state machine, and
// the interleavings of tables.ts (media) forced step by step.
import { describe, expect, it } from 'vitest';
import { processMedia } from '../../shared/use-cases/media/process-media.js';
import { completeUpload, readMedia, startUpload } from '../../shared/use-cases/media/uploads.js';
import { fakeMedia } from '../support/fakes/media.js';
import { interleaver } from '../support/interleave.js';
import { type FakeIdempotency, fakeFeed } from '../support/fakes/feed.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { publishBody } from '../../shared/validation/feed.schema.js';
import { MAX_UPLOAD_BYTES } from '../../shared/domain/limits.js';

const T = 1_700_000_000_000;
const jpeg = (size: number) => ({ contentType: 'image/jpeg', size, purpose: 'post' as const });

async function uploaded(m: ReturnType<typeof fakeMedia>, size = 1000) {
  const { media } = await startUpload(m.api, 'amy', jpeg(size), T);
  m.objects.uploads.set(media.id, new Uint8Array(size));
  return media.id;
}

describe('starting an upload', () => {
  it('answers an uploading record and a presigned PUT of exactly the declared type and size', async () => {
    const m = fakeMedia();
    const { media, upload } = await startUpload(m.api, 'amy', jpeg(12_345), T);
    expect(media).toMatchObject({
      owner: 'amy',
      state: 'uploading',
      declaredType: 'image/jpeg',
      declaredBytes: 12_345,
      createdAt: T,
      purpose: 'post',
    });
    expect(media.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(m.objects.presigned).toEqual([{ id: media.id, contentType: 'image/jpeg', bytes: 12_345, seconds: 300 }]);
    expect(upload.headers).toEqual({ 'content-type': 'image/jpeg' });
    expect((await m.media.get(media.id))?.state).toBe('uploading');
  });

  it('refuses a type a picture cannot have and more than 20 MB, and writes nothing', async () => {
    const m = fakeMedia();
    await expect(startUpload(m.api, 'amy', { ...jpeg(10), contentType: 'image/svg+xml' }, T)).rejects.toMatchObject({
      code: 'media_type_refused',
    });
    await expect(startUpload(m.api, 'amy', { ...jpeg(10), contentType: 'text/html' }, T)).rejects.toMatchObject({
      code: 'media_type_refused',
    });
    await expect(startUpload(m.api, 'amy', jpeg(MAX_UPLOAD_BYTES + 1), T)).rejects.toMatchObject({
      code: 'media_too_large',
    });
    await startUpload(m.api, 'amy', jpeg(MAX_UPLOAD_BYTES), T); // exactly 20 MB is allowed
    expect(m.media.rows.size).toBe(1);
  });

  it('counts uploads against the per-minute limit (429 with the seconds until the window turns)', async () => {
    const m = fakeMedia(); // 3 a minute
    for (let i = 0; i < 3; i++) await startUpload(m.api, 'amy', jpeg(10), T + i);
    await expect(startUpload(m.api, 'amy', jpeg(10), T + 3)).rejects.toMatchObject({ code: 'rate_limited' });
    await startUpload(m.api, 'bob', jpeg(10), T + 3); // someone else's limit is their own
    expect(m.media.rows.size).toBe(4);
  });
});

describe('starting an upload with an Idempotency-Key', () => {
  const keyed = (size: number, idempotencyKey: string) => ({ ...jpeg(size), idempotencyKey });

  it('a retry with the same declaration answers the first upload as it is now, with a fresh presigned PUT (replayed); another declaration is 422', async () => {
    const m = fakeMedia();
    const first = await startUpload(m.api, 'amy', keyed(1000, 'u-1'), T);
    expect(first.replayed).toBeUndefined();
    m.objects.uploads.set(first.media.id, new Uint8Array(1000));
    await completeUpload(m.api, 'amy', first.media.id);
    const again = await startUpload(m.api, 'amy', keyed(1000, 'u-1'), T + 5_000);
    expect(again).toMatchObject({ replayed: true, media: { id: first.media.id, state: 'processing' } });
    expect(m.objects.presigned.map((p) => p.id)).toEqual([first.media.id, first.media.id]);
    await expect(startUpload(m.api, 'amy', keyed(2000, 'u-1'), T + 6_000)).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
    await expect(
      startUpload(m.api, 'amy', { ...keyed(1000, 'u-1'), purpose: 'avatar' }, T + 6_000),
    ).rejects.toMatchObject({ code: 'idempotency_key_mismatch' });
    expect(m.media.rows.size).toBe(1);
  });

  it('a retry after the upload was removed (or while it is being discarded) answers 410 media_deleted and makes nothing', async () => {
    const m = fakeMedia();
    const { media } = await startUpload(m.api, 'amy', keyed(1000, 'u-2'), T);
    await m.media.markDiscarding(media.id, null, T + 1);
    await expect(startUpload(m.api, 'amy', keyed(1000, 'u-2'), T + 2)).rejects.toMatchObject({ code: 'media_deleted' });
    await m.media.remove(media.id);
    await expect(startUpload(m.api, 'amy', keyed(1000, 'u-2'), T + 3)).rejects.toMatchObject({ code: 'media_deleted' });
    expect(m.media.rows.size).toBe(0);
  });

  it('a first request refused by the write limit keeps its claim: the retry in the next minute makes that very upload', async () => {
    const m = fakeMedia(); // 3 a minute
    const minute = Math.ceil(T / 60_000) * 60_000;
    for (let i = 0; i < 3; i++) await startUpload(m.api, 'amy', jpeg(10), minute + i);
    await expect(startUpload(m.api, 'amy', keyed(10, 'u-3'), minute + 10)).rejects.toMatchObject({
      code: 'rate_limited',
    });
    const claimed = (m.api.idempotency as FakeIdempotency).claims.get('amy/u-3')!.id;
    const made = await startUpload(m.api, 'amy', keyed(10, 'u-3'), minute + 60_000);
    expect(made.media.id).toBe(claimed);
    expect(made.replayed).toBeUndefined();
    // Made now: a removal from here on is told from "never made".
    expect((m.api.idempotency as FakeIdempotency).claims.get('amy/u-3')!.created).toBe(true);
  });

  it('a retry that finds the first request between its claim and its create makes the upload; the first then answers it (forced)', async () => {
    const m = fakeMedia();
    const gate = interleaver();
    m.api.step = gate.hook;
    const held = gate.holdAt('upload.claimed');
    const first = startUpload(m.api, 'amy', keyed(1000, 'u-4'), T);
    await held.reached;
    const retry = await startUpload(m.api, 'amy', keyed(1000, 'u-4'), T + 1);
    held.release();
    const original = await first;
    expect(original.media.id).toBe(retry.media.id);
    expect([original.replayed, retry.replayed]).toEqual([true, undefined]);
    expect(m.media.rows.size).toBe(1);
  });
});

describe('completing an upload', () => {
  it('409 upload_missing while nothing is uploaded (the record stays uploading); then queues the processing and moves to processing', async () => {
    const m = fakeMedia();
    const { media } = await startUpload(m.api, 'amy', jpeg(1000), T);
    await expect(completeUpload(m.api, 'amy', media.id)).rejects.toMatchObject({ code: 'upload_missing' });
    expect((await m.media.get(media.id))?.state).toBe('uploading');
    expect(m.queue.sent).toEqual([]);
    m.objects.uploads.set(media.id, new Uint8Array(1000));
    expect((await completeUpload(m.api, 'amy', media.id)).state).toBe('processing');
    expect(m.queue.sent).toEqual([{ v: 1, type: 'process', mediaId: media.id }]);
  });

  it('is idempotent: a repeat answers the state as it is and queues nothing more', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    expect((await completeUpload(m.api, 'amy', id)).state).toBe('processing');
    expect(m.queue.sent).toHaveLength(1);
  });

  it('an upload of another size than declared ends failed (size_mismatch), nothing queued', async () => {
    const m = fakeMedia();
    const { media } = await startUpload(m.api, 'amy', jpeg(1000), T);
    m.objects.uploads.set(media.id, new Uint8Array(999));
    expect(await completeUpload(m.api, 'amy', media.id)).toMatchObject({ state: 'failed', reason: 'size_mismatch' });
    expect(m.queue.sent).toEqual([]);
  });

  it('someone else’s media, or an id that is no media id, is 404 media_not_found (complete and read)', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await expect(completeUpload(m.api, 'bob', id)).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(readMedia(m.api, 'bob', id)).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(readMedia(m.api, 'amy', 'not-a-media-id')).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(readMedia(m.api, 'amy', 'A'.repeat(22))).rejects.toMatchObject({ code: 'media_not_found' });
    expect((await readMedia(m.api, 'amy', id)).state).toBe('uploading');
    expect(m.queue.sent).toEqual([]);
  });

  it('queues the message before its move: a completion that dies between the two is finished by the worker (forced)', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    const statesAtSend: string[] = [];
    m.queue.onSend = () => statesAtSend.push(m.media.rows.get(id)!.state);
    m.media.beforeMove = () => {
      throw new Error('the function stopped here');
    };
    await expect(completeUpload(m.api, 'amy', id)).rejects.toThrow('stopped here');
    expect(statesAtSend).toEqual(['uploading']); // the message is on its way, the record never moved
    m.media.beforeMove = undefined;
    expect(await processMedia(m.worker, m.queue.sent[0]!.mediaId)).toEqual({ outcome: 'ready', variants: 3 });
    expect((await m.media.get(id))?.state).toBe('ready');
  });
});

describe('the media worker', () => {
  it('writes every variant before the move to ready, records what it found, and removes the original', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    let variantsAtFinish = -1;
    m.media.beforeMove = (_id, to) => {
      if (to === 'ready') variantsAtFinish = m.objects.variants.size;
    };
    expect(await processMedia(m.worker, id)).toEqual({ outcome: 'ready', variants: 3 });
    expect(variantsAtFinish).toBe(3);
    expect([...m.objects.variants.keys()].sort()).toEqual([`${id}/feed`, `${id}/large`, `${id}/thumb`]);
    expect((await m.media.get(id))?.descriptor).toEqual({
      width: 1200,
      height: 800,
      animated: false,
      placeholder: '#336699',
      variants: [
        { name: 'thumb', width: 360, height: 360 },
        { name: 'feed', width: 690, height: 460 },
        { name: 'large', width: 1200, height: 800 },
      ],
    });
    expect(m.objects.uploads.has(id)).toBe(false);
  });

  it('a redelivery after ready or failed does nothing (no second processing, no object written)', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    await processMedia(m.worker, id);
    m.objects.variants.clear();
    expect(await processMedia(m.worker, id)).toEqual({ outcome: 'skipped', state: 'ready' });
    expect(m.images.calls).toBe(1);
    expect(m.objects.variants.size).toBe(0);
  });

  it('a worker that dies between the objects and the move leaves processing; the redelivery finishes it', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    m.media.beforeMove = (_id, to) => {
      if (to === 'ready') throw new Error('the worker stopped here');
    };
    await expect(processMedia(m.worker, id)).rejects.toThrow('stopped here');
    expect((await m.media.get(id))?.state).toBe('processing');
    expect(m.objects.uploads.has(id)).toBe(true); // the original stays until the move
    m.media.beforeMove = undefined;
    expect(await processMedia(m.worker, id)).toEqual({ outcome: 'ready', variants: 3 });
  });

  it('two deliveries of one message at once: one move to ready wins, the other leaves it as it is', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    const outcomes = await Promise.all([processMedia(m.worker, id), processMedia(m.worker, id)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['ready', 'skipped']);
    expect((await m.media.get(id))?.state).toBe('ready');
    expect(m.objects.variants.size).toBe(3); // both wrote the same three objects
  });

  it('a refused picture ends failed with the processor’s reason, and its original is removed', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    m.images.result = { refused: 'svg_refused' };
    expect(await processMedia(m.worker, id)).toEqual({ outcome: 'failed', reason: 'svg_refused' });
    expect(await m.media.get(id)).toMatchObject({ state: 'failed', reason: 'svg_refused' });
    expect(m.objects.uploads.has(id)).toBe(false);
    expect(m.objects.variants.size).toBe(0);
  });

  it('an original that vanished ends failed (upload_missing); an unknown id is skipped', async () => {
    const m = fakeMedia();
    const id = await uploaded(m);
    await completeUpload(m.api, 'amy', id);
    m.objects.uploads.delete(id);
    expect(await processMedia(m.worker, id)).toEqual({ outcome: 'failed', reason: 'upload_missing' });
    expect(await processMedia(m.worker, 'B'.repeat(22))).toEqual({ outcome: 'skipped', state: 'absent' });
  });
});

describe('pictures in posts (use-cases/media/attach.ts, publish-post.ts)', () => {
  /** A feed whose posts may carry pictures, and `n` ready pictures of amy's. */
  async function withPictures(n: number) {
    const m = fakeMedia();
    const deps = fakeFeed('amy', 'bob');
    deps.pictures = { media: m.media, variantUrl: (id, name) => m.objects.variantUrl(id, name), queue: m.queue };
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = await uploaded(m);
      await completeUpload(m.api, 'amy', id);
      await processMedia(m.worker, id);
      ids.push(id);
    }
    return { m, deps, ids };
  }

  it('a post carries its pictures in the author’s order, with alt text, sizes, placeholder and URLs; each is claimed by it', async () => {
    const { m, deps, ids } = await withPictures(2);
    const { post } = await publishPost(
      deps,
      'amy',
      { body: '', media: [{ id: ids[1]!, alt: 'a cat' }, { id: ids[0]! }] },
      T,
    );
    expect(post.media).toEqual([
      {
        id: ids[1],
        alt: 'a cat',
        width: 1200,
        height: 800,
        animated: false,
        placeholder: '#336699',
        variants: expect.objectContaining({
          thumb: { width: 360, height: 360, url: `https://cdn.test/media/${ids[1]}/thumb.webp` },
        }),
      },
      { id: ids[0], width: 1200, height: 800, animated: false, placeholder: '#336699', variants: expect.any(Object) },
    ]);
    expect((await deps.posts.get(post.id))?.media).toEqual(post.media); // stored with the post: a timeline page reads it in its one multi-get
    for (const id of ids) expect((await m.media.get(id))?.attachedTo).toBe(post.id);
  });

  it('refuses someone else’s picture or an unknown id (422 media_not_found), one not ready (409 media_not_ready), and writes nothing', async () => {
    const { m, deps, ids } = await withPictures(1);
    await expect(publishPost(deps, 'bob', { body: 'mine?', media: [{ id: ids[0]! }] }, T)).rejects.toMatchObject({
      code: 'media_not_found',
    });
    await expect(publishPost(deps, 'amy', { body: 'x', media: [{ id: 'C'.repeat(22) }] }, T)).rejects.toMatchObject({
      code: 'media_not_found',
    });
    await expect(publishPost(deps, 'amy', { body: 'x', media: [{ id: 'not an id' }] }, T)).rejects.toMatchObject({
      code: 'media_not_found',
    });
    const pending = await uploaded(m); // uploaded, never completed
    await expect(
      publishPost(deps, 'amy', { body: 'x', media: [{ id: ids[0]! }, { id: pending }] }, T),
    ).rejects.toMatchObject({ code: 'media_not_ready' });
    expect(deps.posts.rows.size).toBe(0);
    expect((await m.media.get(ids[0]!))?.attachedTo).toBeUndefined();
  });

  it('a picture is in one post only: a second post with it is 409 media_in_use, and its other picture is given back', async () => {
    const { m, deps, ids } = await withPictures(2);
    const first = await publishPost(deps, 'amy', { body: 'one', media: [{ id: ids[0]! }] }, T);
    await expect(
      publishPost(deps, 'amy', { body: 'two', media: [{ id: ids[1]! }, { id: ids[0]! }] }, T + 1),
    ).rejects.toMatchObject({ code: 'media_in_use' });
    expect((await m.media.get(ids[0]!))?.attachedTo).toBe(first.post.id);
    expect((await m.media.get(ids[1]!))?.attachedTo).toBeUndefined();
    expect(deps.posts.rows.size).toBe(1);
  });

  it('two posts racing for one picture (both past the checks): exactly one gets it, the other answers 409 and leaves nothing (forced)', async () => {
    const { m, deps, ids } = await withPictures(2);
    // No claim runs until both publishes have read the pictures as free and reached their claims.
    const arrived = new Set<string>();
    let bothThere!: () => void;
    const both = new Promise<void>((r) => (bothThere = r));
    m.media.beforeAttach = async (_id, postId) => {
      arrived.add(postId);
      if (arrived.size === 2) bothThere();
      await both;
    };
    const results = await Promise.allSettled([
      publishPost(deps, 'amy', { body: 'a', media: [{ id: ids[0]! }] }, T),
      publishPost(deps, 'amy', { body: 'b', media: [{ id: ids[1]! }, { id: ids[0]! }] }, T + 1),
    ]);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.post] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string }] : []));
    expect(won).toHaveLength(1);
    expect(lost.map((e) => e.code)).toEqual(['media_in_use']);
    expect((await m.media.get(ids[0]!))?.attachedTo).toBe(won[0]!.id);
    // The loser gave back what it had claimed: ids[1] belongs to the winner or to nobody.
    expect((await m.media.get(ids[1]!))?.attachedTo).toBe(won[0]!.body === 'b' ? won[0]!.id : undefined);
    expect(deps.posts.rows.size).toBe(1);
  });

  it('a publish stopped between claiming its pictures and writing the post: its retry with the same key finishes it (forced)', async () => {
    const { m, deps, ids } = await withPictures(1);
    deps.step = async (point) => {
      if (point === 'publish.pictures-attached') throw new Error('the function stopped here');
    };
    const request = { body: 'retried', idempotencyKey: 'k1', media: [{ id: ids[0]! }] };
    await expect(publishPost(deps, 'amy', request, T)).rejects.toThrow('stopped here');
    expect(deps.posts.rows.size).toBe(0);
    deps.step = undefined;
    const { post, replayed } = await publishPost(deps, 'amy', request, T + 5);
    expect(replayed).toBe(false);
    expect(post.media?.map((p) => p.id)).toEqual([ids[0]]);
    expect((await m.media.get(ids[0]!))?.attachedTo).toBe(post.id);
    // The same key with other pictures is another request.
    await expect(publishPost(deps, 'amy', { ...request, media: [] }, T + 6)).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
  });

  it('the request schema: pictures only is a post; no text and no picture is not; at most nine, each once', () => {
    const pic = (i: number) => ({ id: `${'A'.repeat(21)}${i}` });
    expect(publishBody.safeParse({ body: '', media: [pic(1)] }).success).toBe(true);
    expect(publishBody.safeParse({ body: '  ' }).success).toBe(false);
    expect(publishBody.safeParse({ body: '', media: [] }).success).toBe(false);
    expect(publishBody.safeParse({ body: 'x', media: Array.from({ length: 9 }, (_, i) => pic(i)) }).success).toBe(true);
    expect(publishBody.safeParse({ body: 'x', media: Array.from({ length: 10 }, (_, i) => pic(i)) }).success).toBe(
      false,
    );
    expect(publishBody.safeParse({ body: 'x', media: [pic(1), pic(1)] }).success).toBe(false);
    expect(publishBody.safeParse({ body: 'x', media: [{ ...pic(1), alt: 'x'.repeat(1501) }] }).success).toBe(false);
  });
});
