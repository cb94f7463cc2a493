// test/integration/media-discard.test.ts — removing pictures nothing refers to, on the real HBase
// and the local object store (s3rver): a discard removes the original and every variant (listed
// from the bucket), then the record, and a duplicate delivery does nothing; a removed record is
// never written back by a late claim; a publish held between its claim and its post row (forced,
// test/support/interleave.ts) keeps its picture through the cleanup job and a discard; a discard
// delivered while its post is live does nothing. Invariant L, docs/consistency.md.
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, inject, it } from 'vitest';
import { localMediaBaseUrl, localS3Client } from '../../infra/local/object-store.js';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { S3MediaObjects } from '../../shared/adapters/s3/s3-media-objects.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { newMediaId } from '../../shared/domain/media-id.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import type { MediaMessage } from '../../shared/ports/media-queue.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { mediaCleanupJob } from '../../shared/use-cases/jobs/media-cleanup.js';
import { discardMedia } from '../../shared/use-cases/media/discard.js';
import type { DiscardDeps } from '../../shared/use-cases/media/media-deps.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { integrationLimits, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { runToCompletion } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const ns = `discard_${Date.now().toString(36)}`;
useNamespace(hbase, ns);
const endpoint = inject('s3Endpoint');
const bucket = inject('mediaBucket');
const s3 = localS3Client(endpoint);

const stores = hbaseFeedStores(hbase, ns);
const media = new HBaseMediaStore(hbase, ns);
const objects = new S3MediaObjects({ bucket, publicBaseUrl: localMediaBaseUrl(endpoint, bucket), endpoint });
const mediaQueued: MediaMessage[] = [];
const gate = interleaver();
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (_m: FanoutMessage) => {} },
  limits: integrationLimits,
  pictures: {
    media,
    variantUrl: (id, name) => objects.variantUrl(id, name),
    queue: { send: async (m) => void mediaQueued.push(m) },
  },
  step: gate.hook,
};
/** The media worker's ports for a discard: the same records, posts and bucket. */
const worker: DiscardDeps = { media, objects, posts: stores.posts, users: stores.users };
const users = userFactory(stores.users);

const VARIANTS = ['thumb', 'feed', 'large'];

/** A ready picture of `owner`'s, made `ageMs` ago: its original and its three variants in the bucket, as the worker leaves them mid-way. */
async function readyPicture(owner: string, ageMs = 0): Promise<string> {
  const id = newMediaId();
  await media.create({
    id,
    owner,
    purpose: 'post',
    declaredType: 'image/png',
    declaredBytes: 3,
    createdAt: Date.now() - ageMs,
  });
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: `uploads/${id}`,
      Body: new Uint8Array([1, 2, 3]),
      ContentType: 'image/png',
    }),
  );
  await media.move(id, 'uploading', 'processing');
  for (const name of VARIANTS) await objects.putVariant(id, name, 'image/webp', new Uint8Array([4, 5, 6]));
  await media.finish(id, {
    width: 30,
    height: 20,
    animated: false,
    placeholder: '#102030',
    variants: VARIANTS.map((name) => ({ name, width: 30, height: 20 })),
  });
  return id;
}

/** Every key the bucket holds for the picture: its original and anything under media/<id>/. */
async function storedKeys(id: string): Promise<string[]> {
  const list = async (Prefix: string) =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix }))).Contents ?? []).map((o) => o.Key!);
  return [...(await list(`uploads/${id}`)), ...(await list(`media/${id}/`))].sort();
}

const allKeys = (id: string) => [`uploads/${id}`, ...VARIANTS.map((v) => `media/${id}/${v}.webp`)].sort();

describe('discarding pictures (real HBase + object store)', () => {
  it('a deleted post’s pictures: the discard removes the original and every variant, then the record; a duplicate delivery is a no-op', async () => {
    const [amy] = await users('amy');
    const ids = [await readyPicture(amy), await readyPicture(amy)];
    const { post } = await publishPost(deps, amy, { body: 'two', media: ids.map((id) => ({ id })) });
    mediaQueued.length = 0;
    // The worker wrote the variants mid-way, before finish; the original was never removed here (a
    // redelivery's leftovers): the discard must find every kind of object.
    expect(await storedKeys(ids[0]!)).toEqual(allKeys(ids[0]!));
    await deletePost(deps, amy, post.id);
    expect(mediaQueued).toEqual(ids.map((mediaId) => ({ v: 1, type: 'discard', mediaId })));

    for (const m of mediaQueued)
      expect(await discardMedia(worker, m.mediaId)).toEqual({ outcome: 'discarded', reason: 'post-deleted' });
    for (const id of ids) {
      expect(await storedKeys(id)).toEqual([]);
      expect(await media.get(id)).toBeNull();
    }
    for (const m of mediaQueued)
      expect(await discardMedia(worker, m.mediaId)).toEqual({ outcome: 'skipped', state: 'absent' });
  });

  it('a removed record is never written back: a late claim, a retry’s claim, a give-back or a second mark all find nothing', async () => {
    const id = await readyPicture('amy');
    expect(await media.markDiscarding(id, null, Date.now())).toBe(true);
    expect(await media.attach(id, 'amy.1700000000000.a1b2c3d4e5f6', Date.now())).toBe(false); // marked: no claim takes it
    await media.remove(id);
    expect(await media.attach(id, 'amy.1700000000000.a1b2c3d4e5f6', Date.now())).toBe(false);
    await media.detach(id, 'amy.1700000000000.a1b2c3d4e5f6');
    expect(await media.markDiscarding(id, null, Date.now())).toBe(false);
    expect(await media.get(id)).toBeNull();
  });

  it('a mark loses to a claim made since its read (the claim time is the check): a retry’s claim keeps the picture', async () => {
    const id = await readyPicture('amy');
    const postId = 'amy.1700000000000.a1b2c3d4e5f6';
    expect(await media.attach(id, postId, 1000)).toBe(true);
    const read = await media.get(id);
    expect(read).toMatchObject({ attachedTo: postId, attachedAt: 1000 });
    expect(await media.attach(id, postId, 2000)).toBe(true); // the retry claims again
    expect(await media.markDiscarding(id, { postId, at: 1000 }, Date.now())).toBe(false);
    expect(await media.markDiscarding(id, { postId, at: 2000 }, Date.now())).toBe(true);
    expect(await media.get(id)).toMatchObject({ discarding: true });
    expect((await media.get(id))?.attachedTo).toBeUndefined();
  });

  it('forced: a publish held between claiming its picture and writing its post keeps it through the cleanup job and a discard; a discard delivered while the post is live does nothing', async () => {
    const [amy] = await users('amy');
    const id = await readyPicture(amy, 2 * 86_400_000); // uploaded two days ago, claimed just now
    const held = gate.holdAt('publish.pictures-attached', (d) => d.author === amy);
    const publish = publishPost(deps, amy, { body: 'slow', media: [{ id }] });
    await held.reached;
    expect((await media.get(id))?.attachedTo).toBeDefined(); // claimed, and no post row yet

    const sent: MediaMessage[] = [];
    await runToCompletion(
      mediaCleanupJob({
        media,
        posts: stores.posts,
        users: stores.users,
        queue: { send: async (m) => void sent.push(m) },
      }),
      { rowsPerStep: 2 },
    );
    expect(sent.map((m) => m.mediaId)).not.toContain(id);
    expect(await discardMedia(worker, id)).toEqual({ outcome: 'kept', reason: 'claim-young' });
    expect(await storedKeys(id)).toEqual(allKeys(id));

    held.release();
    const { post } = await publish;
    expect((await stores.posts.get(post.id))?.media?.map((m) => m.id)).toEqual([id]);
    // A discard late or out of order (nothing sent it for this live post, but SQS may deliver anything).
    expect(await discardMedia(worker, id)).toEqual({ outcome: 'kept', reason: 'in-live-post' });
    expect(await storedKeys(id)).toEqual(allKeys(id));
    expect((await media.get(id))?.attachedTo).toBe(post.id);
  });

  it('the cleanup job walks the records in bounded pages and queues only the abandoned', async () => {
    const [amy] = await users('amy');
    const old = await readyPicture(amy, 25 * 3600_000);
    const young = await readyPicture(amy);
    const sent: MediaMessage[] = [];
    const { outcomes } = await runToCompletion(
      mediaCleanupJob({
        media,
        posts: stores.posts,
        users: stores.users,
        queue: { send: async (m) => void sent.push(m) },
      }),
      { rowsPerStep: 2 },
    );
    expect(outcomes.length).toBeGreaterThan(1);
    expect(outcomes.at(-1)?.status).toBe('done');
    const ids = sent.map((m) => m.mediaId);
    expect(ids).toContain(old);
    expect(ids).not.toContain(young);
    expect(new Set(ids).size).toBe(ids.length); // each record visited once across the pages
  });
});
