// test/integration/media.test.ts — the media records on the real HBase adapter (tables.ts
// media): every state move is a check-and-put on m:s, so of racing moves exactly one wins, and
// ready or failed are final. Starting an upload with an Idempotency-Key on the real tables: a
// retry inside the first request's gap (forced, test/support/interleave.ts), a retry after the
// record was removed.
import { describe, expect, inject, it } from 'vitest';
import { localMediaBaseUrl } from '../../infra/local/object-store.js';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { HBaseIdempotencyStore } from '../../shared/adapters/hbase/hbase-post-store.js';
import { HBaseWriteQuota } from '../../shared/adapters/hbase/hbase-write-quota.js';
import { S3MediaObjects } from '../../shared/adapters/s3/s3-media-objects.js';
import { newMediaId } from '../../shared/domain/media-id.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { MediaDeps } from '../../shared/use-cases/media/media-deps.js';
import { startUpload } from '../../shared/use-cases/media/uploads.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const ns = `media_${Date.now().toString(36)}`;
useNamespace(hbase, ns);
const store = new HBaseMediaStore(hbase, ns);
const gate = interleaver();
const endpoint = inject('s3Endpoint');
const bucket = inject('mediaBucket');
/** The upload flow on the real tables; presigning is local (the object store is never called). */
const uploads: MediaDeps = {
  media: store,
  objects: new S3MediaObjects({ bucket, publicBaseUrl: localMediaBaseUrl(endpoint, bucket), endpoint }),
  queue: { send: async () => {} },
  quota: new HBaseWriteQuota(hbase, ns),
  idempotency: new HBaseIdempotencyStore(hbase, ns),
  limits: { writesPerMinute: { upload: 1000 }, uploadUrlSeconds: 300 },
  step: gate.hook,
};
const png = (idempotencyKey: string, size = 4321) => ({
  contentType: 'image/png',
  size,
  purpose: 'post' as const,
  idempotencyKey,
});

const T = 1_700_000_000_000;
async function created(purpose: 'post' | 'avatar' = 'post') {
  const id = newMediaId();
  await store.create({ id, owner: 'amy', purpose, declaredType: 'image/png', declaredBytes: 4321, createdAt: T });
  return id;
}

describe('media records on HBase', () => {
  it('reads back what was created, uploading; an unknown id is null', async () => {
    const id = await created('avatar');
    expect(await store.get(id)).toEqual({
      id,
      owner: 'amy',
      purpose: 'avatar',
      declaredType: 'image/png',
      declaredBytes: 4321,
      createdAt: T,
      state: 'uploading',
    });
    expect(await store.get(newMediaId())).toBeNull();
  });

  it('ten racing moves uploading → processing: exactly one wins', async () => {
    const id = await created();
    const wins = await Promise.all(Array.from({ length: 10 }, () => store.move(id, 'uploading', 'processing')));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect((await store.get(id))?.state).toBe('processing');
  });

  it('finish records the descriptor; a racing fail loses, and nothing moves a ready record again', async () => {
    const id = await created();
    await store.move(id, 'uploading', 'processing');
    const descriptor = {
      width: 640,
      height: 480,
      animated: false,
      placeholder: '#112233',
      variants: [{ name: 'thumb', width: 360, height: 360 }],
    };
    const [finished, failed] = await Promise.all([
      store.finish(id, descriptor),
      store.fail(id, 'processing', 'corrupt_image'),
    ]);
    expect([finished, failed].filter(Boolean)).toHaveLength(1);
    const after = await store.get(id);
    if (finished) expect(after).toMatchObject({ state: 'ready', descriptor });
    else expect(after).toMatchObject({ state: 'failed', reason: 'corrupt_image' });
    expect(await store.move(id, 'uploading', 'processing')).toBe(false);
    expect(await store.finish(id, descriptor)).toBe(false);
    expect(await store.fail(id, 'processing', 'x')).toBe(false);
    expect(await store.get(id)).toEqual(after);
  });

  it('fail from uploading carries the reason; finish needs processing first', async () => {
    const id = await created();
    expect(await store.finish(id, { width: 1, height: 1, animated: false, placeholder: '#000000', variants: [] })).toBe(
      false,
    );
    expect(await store.fail(id, 'uploading', 'size_mismatch')).toBe(true);
    expect(await store.get(id)).toMatchObject({ state: 'failed', reason: 'size_mismatch' });
  });

  it('five posts racing to claim one picture: exactly one gets it; only the holder can give it back; a retry of the holder succeeds', async () => {
    const id = await created();
    const posts = Array.from({ length: 5 }, (_, i) => `amy.823017498765432${i}.a1b2c3d4e5f6`);
    const won = await Promise.all(posts.map((p) => store.attach(id, p, T)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const holder = posts[won.indexOf(true)]!;
    expect((await store.get(id))?.attachedTo).toBe(holder);
    expect(await store.attach(id, holder, T + 1)).toBe(true); // the holder's retry
    const other = posts.find((p) => p !== holder)!;
    await store.detach(id, other); // not the holder: nothing changes
    expect((await store.get(id))?.attachedTo).toBe(holder);
    await store.detach(id, holder);
    expect((await store.get(id))?.attachedTo).toBeUndefined();
    expect(await store.attach(id, other, T + 2)).toBe(true);
    expect((await store.getMany([id, newMediaId()])).get(id)?.attachedTo).toBe(other);
  });
});

describe('starting an upload with an Idempotency-Key (real tables)', () => {
  it('forced: an upload retry that runs while the first request is between its claim and its create makes one record; both answers name it', async () => {
    const held = gate.holdAt('upload.claimed', (d) => d.owner === 'ivy');
    const first = startUpload(uploads, 'ivy', png('pick-1'));
    await held.reached; // the key is claimed for its media id; no record yet
    const retry = await startUpload(uploads, 'ivy', png('pick-1')); // makes it under the claimed id
    held.release();
    const original = await first; // its create loses: it answers the retry's record, never resets it
    expect(original.media.id).toBe(retry.media.id);
    expect([original.replayed, retry.replayed]).toEqual([true, undefined]);
    expect(await store.get(retry.media.id)).toMatchObject({ owner: 'ivy', state: 'uploading', declaredBytes: 4321 });
    const walked = (await store.walk({ limit: 1000 })).records.filter((r) => r.owner === 'ivy');
    expect(walked.map((r) => r.id)).toEqual([retry.media.id]);
  });

  it('an upload retry after its record was removed answers media_deleted and brings nothing back; another declaration is a mismatch', async () => {
    const { media } = await startUpload(uploads, 'ike', png('pick-2'));
    expect(await store.markDiscarding(media.id, null, Date.now())).toBe(true);
    await expect(startUpload(uploads, 'ike', png('pick-2'))).rejects.toMatchObject({ code: 'media_deleted' }); // being discarded
    await store.remove(media.id);
    await expect(startUpload(uploads, 'ike', png('pick-2'))).rejects.toMatchObject({ code: 'media_deleted' });
    await expect(startUpload(uploads, 'ike', png('pick-2', 99))).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
    expect(await store.get(media.id)).toBeNull();
  });
});
