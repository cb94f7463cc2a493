// test/integration/message-pictures.test.ts — pictures in private messages on the real stack
// (HBase, s3rver behind infra/local/private-gate.ts, sharp): an upload with purpose `message` is
// processed into private/ variants, which a signed GET fetches and nothing else does (unsigned,
// tampered, expired: 403, as the deployed bucket answers); a post cannot take a message picture;
// a message's claim (`dm:…`) keeps the picture through the cleanup job and the discard worker,
// and releasing it removes its objects and record; through the messages use case (sendMessage,
// readConversation, recallMessage) with the library it is given (messagePicturesFor).
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { LOCAL_S3_CREDENTIALS, localMediaBaseUrl, localS3Client } from '../../infra/local/object-store.js';
import { SharpImageProcessor } from '../../shared/adapters/images/sharp-image-processor.js';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { HBaseIdempotencyStore } from '../../shared/adapters/hbase/hbase-post-store.js';
import { HBaseWriteQuota } from '../../shared/adapters/hbase/hbase-write-quota.js';
import { SigV4PrivateVariantSigner } from '../../shared/adapters/s3/private-variant-signer.js';
import { S3MediaObjects } from '../../shared/adapters/s3/s3-media-objects.js';
import { InvalidInputError } from '../../shared/domain/errors.js';
import type { MediaPurpose } from '../../shared/domain/media-id.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { mapError } from '../../shared/http/error-mapper.js';
import { mediaView } from '../../shared/http/views.js';
import { VARIANT_NAMES } from '../../shared/ports/image-processor.js';
import type { MediaMessage } from '../../shared/ports/media-queue.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { mediaCleanupJob } from '../../shared/use-cases/jobs/media-cleanup.js';
import type { Pictures } from '../../shared/use-cases/media/attach.js';
import { discardMedia } from '../../shared/use-cases/media/discard.js';
import type { MediaDeps, MediaWorkerDeps } from '../../shared/use-cases/media/media-deps.js';
import {
  checkMessagePictures,
  claimMessagePictures,
  messagePictureViews,
  messagePicturesFor,
  releaseMessagePictures,
  storedMessagePictures,
} from '../../shared/use-cases/media/message-pictures.js';
import { processMedia } from '../../shared/use-cases/media/process-media.js';
import { completeUpload, startUpload } from '../../shared/use-cases/media/uploads.js';
import { type MessageDeps, readConversation, recallMessage, sendMessage } from '../../shared/use-cases/messages.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { integrationLimits, userFactory } from '../support/feed-harness.js';
import { runToCompletion } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const ns = `dmpics_${Date.now().toString(36)}`;
useNamespace(hbase, ns);
const endpoint = inject('s3Endpoint');
const bucket = inject('mediaBucket');
const s3 = localS3Client(endpoint);

const stores = hbaseFeedStores(hbase, ns);
const media = new HBaseMediaStore(hbase, ns);
const objects = new S3MediaObjects({ bucket, publicBaseUrl: localMediaBaseUrl(endpoint, bucket), endpoint });
const mediaQueued: MediaMessage[] = [];
const mediaQueue = { send: async (m: MediaMessage) => void mediaQueued.push(m) };
const uploads: MediaDeps = {
  media,
  objects,
  queue: mediaQueue,
  quota: new HBaseWriteQuota(hbase, ns),
  idempotency: new HBaseIdempotencyStore(hbase, ns),
  limits: { writesPerMinute: { upload: 1000 }, uploadUrlSeconds: 300 },
};
const worker: MediaWorkerDeps = {
  media,
  objects,
  images: new SharpImageProcessor(),
  posts: stores.posts,
  users: stores.users,
};
/** As shared/wiring/message-pictures.ts builds it locally: the feed's pictures plus the signer. */
const pictures: Pictures = {
  media,
  variantUrl: (id, name) => objects.variantUrl(id, name),
  queue: mediaQueue,
  signer: new SigV4PrivateVariantSigner({
    bucket,
    region: 'us-east-1',
    endpoint,
    credentials: () => LOCAL_S3_CREDENTIALS,
  }),
};
const feed: FeedDeps = { ...stores, queue: { send: async () => {} }, limits: integrationLimits, pictures };
const users = userFactory(stores.users);

/** A picture of `owner`'s, uploaded (a real PUT to the presigned URL), completed and processed by the worker. */
async function processedPicture(owner: string, purpose: MediaPurpose = 'message'): Promise<string> {
  const bytes = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const { media: m, upload } = await startUpload(uploads, owner, {
    contentType: 'image/png',
    size: bytes.length,
    purpose,
  });
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  expect((await completeUpload(uploads, owner, m.id)).state).toBe('processing');
  expect(await processMedia(worker, m.id)).toEqual({ outcome: 'ready', variants: VARIANT_NAMES[purpose].length });
  return m.id;
}

/** Every key the bucket holds for the picture, under any prefix. */
async function storedKeys(id: string): Promise<string[]> {
  const list = async (Prefix: string) =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix }))).Contents ?? []).map((o) => o.Key!);
  return [...(await list(`uploads/${id}`)), ...(await list(`media/${id}/`)), ...(await list(`private/${id}/`))].sort();
}

const claimOf = (sender: string, clientId: string) => `dm:conv-${sender}:${sender}:${clientId}`;

describe('pictures in private messages (real HBase + object store + sharp)', () => {
  it('a message picture is stored under private/: a signed URL fetches it; unsigned, tampered or expired: 403', async () => {
    const [amy] = await users('amy');
    const id = await processedPicture(amy);
    expect(await storedKeys(id)).toEqual([`private/${id}/large.webp`, `private/${id}/thumb.webp`]);

    const records = await checkMessagePictures(pictures, amy, [id]);
    const stored = storedMessagePictures(records);
    expect(stored).toEqual([{ id, width: 800, height: 600 }]);
    const [view] = messagePictureViews(pictures, stored);
    expect(view).toMatchObject({ id, width: 800, height: 600 });
    for (const url of [view!.urls.thumb, view!.urls.large]) {
      expect(url).toContain(`/${bucket}/private/${id}/`);
      expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
    }

    const signed = new URL(view!.urls.thumb);
    const unsigned = `${signed.origin}${signed.pathname}`;
    expect((await fetch(unsigned)).status).toBe(403);
    expect((await fetch(unsigned, { method: 'HEAD' })).status).toBe(403);
    // The same key spelled another way is the same object, and as private.
    expect((await fetch(unsigned.replace('/private/', '/%70rivate/'))).status).toBe(403);

    const tampered = new URL(signed);
    const sig = tampered.searchParams.get('X-Amz-Signature')!;
    tampered.searchParams.set('X-Amz-Signature', `${sig[0] === '0' ? '1' : '0'}${sig.slice(1)}`);
    expect((await fetch(tampered)).status).toBe(403);
    // A valid signature for another key does not open this one.
    const otherKey = view!.urls.large.replace('/large.webp', '/thumb.webp');
    expect((await fetch(otherKey)).status).toBe(403);
    // Nor a longer life than was signed.
    const longer = new URL(signed);
    longer.searchParams.set('X-Amz-Expires', '604800');
    expect((await fetch(longer)).status).toBe(403);

    const [short] = messagePictureViews(pictures, stored, 1);
    expect((await fetch(short!.urls.thumb)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await fetch(short!.urls.thumb)).status).toBe(403);
    // The owner's own view of the upload (GET /media/{id}) names no public URL of it.
    const own = mediaView((await media.get(id))!, (i, n) => objects.variantUrl(i, n));
    expect(own).toMatchObject({ purpose: 'message', state: 'ready', width: 800 });
    expect(own).not.toHaveProperty('variants');
  });

  it('a post cannot take a message picture, nor a message a post picture (422 media_not_found)', async () => {
    const [amy] = await users('amy');
    const [dmPicture, postPicture] = await Promise.all([processedPicture(amy), processedPicture(amy, 'post')]);
    const refusal = await publishPost(feed, amy, { body: 'mine', media: [{ id: dmPicture }] }).catch((e) => e);
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect(mapError(refusal)).toMatchObject({ status: 422, code: 'media_not_found' });
    const other = await checkMessagePictures(pictures, amy, [postPicture]).catch((e) => e);
    expect(mapError(other)).toMatchObject({ status: 422, code: 'media_not_found' });
    // Someone else's message picture is not there to send.
    const [bob] = await users('bob');
    expect(mapError(await checkMessagePictures(pictures, bob, [dmPicture]).catch((e) => e))).toMatchObject({
      status: 422,
      code: 'media_not_found',
    });
    // The same picture twice in one message is refused before anything is read.
    expect(mapError(await checkMessagePictures(pictures, amy, [dmPicture, dmPicture]).catch((e) => e))).toMatchObject({
      status: 422,
      code: 'validation_failed',
    });
    expect((await media.get(dmPicture))?.attachedTo).toBeUndefined();
  });

  it('a claimed message picture survives the cleanup job and a discard at any age; released, it is discarded (objects, then record)', async () => {
    const [amy] = await users('amy');
    const id = await processedPicture(amy);
    const claim = claimOf(amy, 'c1');
    const records = await checkMessagePictures(pictures, amy, [id]);
    await claimMessagePictures(pictures, records, claim, Date.now());
    expect((await media.get(id))?.attachedTo).toBe(claim);
    // A retry of the same send finds its own claim; another message cannot take it.
    expect(await checkMessagePictures(pictures, amy, [id], claim)).toHaveLength(1);
    await claimMessagePictures(pictures, records, claim, Date.now());
    const taken = await claimMessagePictures(pictures, records, claimOf(amy, 'c2'), Date.now()).catch((e) => e);
    expect(mapError(taken)).toMatchObject({ status: 409, code: 'media_in_use' });
    expect(mapError(await checkMessagePictures(pictures, amy, [id]).catch((e) => e))).toMatchObject({
      status: 409,
      code: 'media_in_use',
    });

    // Two days later, the job walks every record: a message's picture is not abandoned.
    const later = Date.now() + 2 * 24 * 3600_000;
    const sent: MediaMessage[] = [];
    const { outcomes } = await runToCompletion(
      mediaCleanupJob({
        media,
        posts: stores.posts,
        users: stores.users,
        queue: { send: async (m) => void sent.push(m) },
        now: () => later,
      }),
      { rowsPerStep: 50 },
    );
    expect(outcomes.at(-1)?.status).toBe('done');
    expect(sent.map((m) => m.mediaId)).not.toContain(id);
    // A stray discard message (a duplicate, a lost race) keeps it too.
    expect(await discardMedia(worker, id, later)).toEqual({ outcome: 'kept', reason: 'in-message' });
    expect(await storedKeys(id)).toHaveLength(2);

    // Another message's claim does not release it.
    expect(await releaseMessagePictures(pictures, [id], claimOf(amy, 'c2'))).toEqual([]);
    expect((await media.get(id))?.attachedTo).toBe(claim);

    mediaQueued.length = 0;
    expect(await releaseMessagePictures(pictures, storedMessagePictures(records), claim)).toEqual([id]);
    expect(mediaQueued).toEqual([{ v: 1, type: 'discard', mediaId: id }]);
    expect(await discardMedia(worker, id)).toEqual({ outcome: 'discarded', reason: 'being-discarded' });
    expect(await storedKeys(id)).toEqual([]);
    expect(await media.get(id)).toBeNull();
    // Its signed URL now finds nothing.
    const [view] = messagePictureViews(pictures, storedMessagePictures(records));
    expect((await fetch(view!.urls.thumb)).status).toBe(404);
  });

  it('what the messages use case is given (messagePicturesFor): check, claim, view, release — a retry of a landed send passes its check', async () => {
    const [amy] = await users('amy');
    const ids = [await processedPicture(amy), await processedPicture(amy)];
    const library = messagePicturesFor(pictures);
    const claim = claimOf(amy, 'c4');
    const stored = await library.check(amy, ids);
    expect(stored).toEqual(ids.map((id) => ({ id, width: 800, height: 600 })));
    await library.claim(ids, claim, Date.now());
    // The retry's check cannot name its claim yet: the claim decides, and it is this message's.
    expect(await library.check(amy, ids)).toEqual(stored);
    await library.claim(ids, claim, Date.now());
    expect(mapError(await library.claim(ids, claimOf(amy, 'c5'), Date.now()).catch((e) => e))).toMatchObject({
      status: 409,
      code: 'media_in_use',
    });
    const views = library.view(stored);
    expect((await fetch(views[1]!.urls.large)).status).toBe(200);
    await library.release(ids, claim);
    expect(mediaQueued.slice(-2)).toEqual(ids.map((mediaId) => ({ v: 1, type: 'discard', mediaId })));
    for (const id of ids) expect((await media.get(id))?.discarding).toBe(true);
  });

  it('through the messages use case: a sent picture is shown to both through signed URLs, a retry sends it once, a recall discards it', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(feed, bob, ann);
    const deps: MessageDeps = {
      messages: stores.messages!,
      users: stores.users,
      blocks: stores.blocks,
      relations: stores.relations,
      quota: stores.quota,
      limits: { writesPerMinute: { message: 1000, conversation: 1000 } },
      pictures,
      messagePictures: messagePicturesFor(pictures),
    };
    const id = await processedPicture(ann);
    const sent = await sendMessage(deps, ann, bob, { text: '', media: [id], clientId: 'pic-1' });
    expect(sent.message.pictures).toEqual([
      { id, width: 800, height: 600, urls: { thumb: expect.any(String), large: expect.any(String) } },
    ]);
    expect((await media.get(id))?.attachedTo).toMatch(/^dm:.*:pic-1$/);
    const again = await sendMessage(deps, ann, bob, { text: '', media: [id], clientId: 'pic-1' });
    expect(again).toMatchObject({ created: false, message: { seq: sent.message.seq } });
    const [shown] = (await readConversation(deps, bob, ann, 30)).messages;
    for (const url of [shown!.pictures[0]!.urls.thumb, shown!.pictures[0]!.urls.large])
      expect((await fetch(url)).status).toBe(200);
    const unsigned = new URL(shown!.pictures[0]!.urls.thumb);
    expect((await fetch(`${unsigned.origin}${unsigned.pathname}`)).status).toBe(403);

    // A refused send gives its pictures back, free for another message: the sender loses nothing.
    const [cat] = await users('cat');
    await stores.users.changeSettings(cat, { messagesFrom: 'nobody' });
    const spare = await processedPicture(ann);
    await expect(sendMessage(deps, ann, cat, { text: '', media: [spare], clientId: 'pic-2' })).rejects.toMatchObject({
      code: 'messages_refused',
    });
    expect((await media.get(spare))?.discarding).toBeFalsy();
    expect((await media.get(spare))?.attachedTo).toBeUndefined();
    expect((await sendMessage(deps, ann, bob, { text: 'spare', media: [spare], clientId: 'pic-3' })).created).toBe(
      true,
    );

    mediaQueued.length = 0;
    const recalled = await recallMessage(deps, ann, bob, sent.message.seq);
    expect(recalled).toMatchObject({ recalled: true, pictures: [] });
    expect(mediaQueued).toEqual([{ v: 1, type: 'discard', mediaId: id }]);
    expect(await discardMedia(worker, id)).toEqual({ outcome: 'discarded', reason: 'being-discarded' });
    expect(await storedKeys(id)).toEqual([]);
  });

  it('forced: a retry of the send claims again between the release’s read and its mark; the release marks what it finds', async () => {
    const [amy] = await users('amy');
    const id = await processedPicture(amy);
    const claim = claimOf(amy, 'c3');
    const records = await checkMessagePictures(pictures, amy, [id]);
    const first = Date.now() - 60_000;
    await claimMessagePictures(pictures, records, claim, first);
    // The release's first mark runs only after a retry's claim rewrote the claim time it read.
    let marks = 0;
    const racing: Pictures = {
      ...pictures,
      media: Object.assign(Object.create(media) as HBaseMediaStore, {
        markDiscarding: async (...args: Parameters<HBaseMediaStore['markDiscarding']>) => {
          if (marks++ === 0) {
            expect(args[1]).toEqual({ postId: claim, at: first });
            await claimMessagePictures(pictures, records, claim, first + 1);
          }
          return media.markDiscarding(...args);
        },
      }),
    };
    mediaQueued.length = 0;
    expect(await releaseMessagePictures(racing, [id], claim)).toEqual([id]);
    expect(marks).toBe(2);
    expect((await media.get(id))?.discarding).toBe(true);
    expect(mediaQueued).toEqual([{ v: 1, type: 'discard', mediaId: id }]);
    expect(await discardMedia(worker, id)).toEqual({ outcome: 'discarded', reason: 'being-discarded' });
    expect(await storedKeys(id)).toEqual([]);
  });
});
