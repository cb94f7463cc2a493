// test/integration/settings.test.ts — the profile's own words and pictures (bio, location, cover)
// and the user's settings (who may message them, which notifications they are told of) on the
// real HBase adapters: every change lands whole or not at all, the cover moves only from the one
// read, the export carries them, the erasure leaves none of them, and a kind of notification
// switched off is not delivered by the worker while the others are.
import { describe, expect, inject, it } from 'vitest';
import { HBaseAccountRemains } from '../../shared/adapters/hbase/hbase-account-remains.js';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { S3MediaObjects } from '../../shared/adapters/s3/s3-media-objects.js';
import type { ExportDocument } from '../../shared/domain/data-export.js';
import { RESTORE_WINDOW_MS } from '../../shared/domain/leaving.js';
import { BIO_MAX_CODE_POINTS } from '../../shared/domain/limits.js';
import { newMediaId } from '../../shared/domain/media-id.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { avatarClaim, removeCover, setAvatar, setCover, type AvatarDeps } from '../../shared/use-cases/avatar.js';
import { addComment } from '../../shared/use-cases/comments.js';
import type { ErasureDeps } from '../../shared/use-cases/erase-account.js';
import { requestExport } from '../../shared/use-cases/export-data.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { getProfile } from '../../shared/use-cases/get-profile.js';
import { eraseAccountsJob } from '../../shared/use-cases/jobs/erase-accounts.js';
import { leave } from '../../shared/use-cases/leave.js';
import { likePost } from '../../shared/use-cases/likes.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { listNotifications, unreadCount } from '../../shared/use-cases/notifications.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { changeSettings, getSettings } from '../../shared/use-cases/settings.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';
import { discardVerdict, holdersFrom } from '../../shared/use-cases/media/discard.js';
import { accountFactory, accountWorld, drainQueue } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';
import { localMediaBaseUrl } from '../../infra/local/object-store.js';
import { runToCompletion, silentLog } from '../support/job-driver.js';

const ns = `it_settings_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, queued, deps: world } = accountWorld(hbase, ns);
const media = new HBaseMediaStore(hbase, ns);
const endpoint = inject('s3Endpoint');
const bucket = inject('mediaBucket');
const exports = new S3MediaObjects({ bucket, publicBaseUrl: localMediaBaseUrl(endpoint, bucket), endpoint });
const urlOf = (id: string, name: string) => `https://cdn.example/media/${id}/${name}.webp`;
const pictures = { media, variantUrl: urlOf, queue: { send: async () => {} } };
const deps: FeedDeps & ErasureDeps & typeof world & { exports: S3MediaObjects } = {
  ...world,
  pictures,
  exports,
  remains: new HBaseAccountRemains(hbase, ns),
};
useNamespace(hbase, ns);

const PASSWORD = 'a long password';
const users = accountFactory(deps, PASSWORD);
const drain = () => drainQueue(deps, queued);
const all = { likes: true, comments: true, reposts: true, mentions: true, follows: true };

async function readyPicture(owner: string, purpose: 'avatar' | 'cover'): Promise<string> {
  const id = newMediaId();
  await media.create({ id, owner, purpose, declaredType: 'image/png', declaredBytes: 10, createdAt: 1 });
  await media.move(id, 'uploading', 'processing');
  await media.finish(id, {
    width: 1500,
    height: 500,
    animated: false,
    placeholder: '#112233',
    variants: purpose === 'cover' ? [{ name: 'cover', width: 1500, height: 500 }] : [],
  });
  return id;
}

describe('the profile’s bio, location and cover (real HBase)', () => {
  it('a change lands whole or not at all: bad input writes nothing, not even the name beside it', async () => {
    const [ann] = await users('ann');
    const updated = await updateProfile(deps, ann, ann, { bio: ' 写代码的 ', location: '杭州' });
    expect(updated).toMatchObject({ bio: '写代码的', location: '杭州', cover: null });
    const tooLong = 'x'.repeat(BIO_MAX_CODE_POINTS + 1);
    await expect(updateProfile(deps, ann, ann, { displayName: 'Renamed', bio: tooLong })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(updateProfile(deps, 'someone_else', ann, { bio: 'not mine' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(await getProfile(deps, ann)).toMatchObject({
      displayName: `Name ${ann}`,
      bio: '写代码的',
      location: '杭州',
    });
    // A name and a bio together: one conditional write; the location left out stays, '' clears.
    expect(await updateProfile(deps, ann, ann, { displayName: 'Ann', bio: '' })).toMatchObject({
      displayName: 'Ann',
      bio: '',
      location: '杭州',
    });
  });

  it('the cover: set and replaced only from the one read, an avatar picture refused, the replaced one given back', async () => {
    const [ann] = await users('ann');
    const avatarDeps: AvatarDeps = { users: stores.users, pictures };
    const [a, b, face] = [
      await readyPicture(ann, 'cover'),
      await readyPicture(ann, 'cover'),
      await readyPicture(ann, 'avatar'),
    ];
    await expect(setCover(avatarDeps, ann, ann, face)).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(setAvatar(avatarDeps, ann, ann, a)).rejects.toMatchObject({ code: 'media_not_found' });
    expect(await setCover(avatarDeps, ann, ann, a)).toMatchObject({ cover: urlOf(a, 'cover'), avatar: null });
    // Ten racing swaps from what was read: exactly one wins.
    const others = Array.from({ length: 10 }, () => newMediaId());
    const wins = await Promise.all(others.map((id) => stores.users.replaceCover(ann, a, id)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await stores.users.replaceCover(ann, a, b)).toBe(false);
    expect(await stores.users.replaceCover(ann, others[wins.indexOf(true)]!, a)).toBe(true);
    // Through the use case: b replaces a, a is given back and no longer the user's to keep.
    await setCover(avatarDeps, ann, ann, b);
    expect((await media.get(a))?.attachedTo).toBeUndefined();
    expect((await media.get(b))?.attachedTo).toBe(avatarClaim(ann));
    // The cleanup keeps a claim that is the current cover, however old.
    const current = (await media.get(b))!;
    expect(await discardVerdict(current, holdersFrom({ ...stores, users: stores.users }), Date.now() + 1e10)).toEqual({
      keep: 'avatar',
    });
    expect((await removeCover(avatarDeps, ann, ann)).cover).toBeNull();
    expect((await removeCover(avatarDeps, ann, ann)).cover).toBeNull(); // none: nothing to do
  });

  it('the export carries bio, location, cover and settings; the erasure leaves none of them', async () => {
    const [ann] = await users('ann');
    await updateProfile(deps, ann, ann, { bio: 'my bio', location: 'Beijing' });
    const cover = await readyPicture(ann, 'cover');
    await setCover(deps, ann, ann, cover);
    await changeSettings(deps, ann, ann, { messagesFrom: 'nobody', notifications: { likes: false } });
    await requestExport(deps, ann, ann);
    const mine = queued.filter((m) => m.type === 'export');
    queued.splice(0, queued.length, ...queued.filter((m) => m.type !== 'export'));
    for (const m of mine) await handleFanoutMessage(deps, m);
    const ready = await requestExport(deps, ann, ann);
    if (ready.state !== 'ready') throw new Error(`not ready: ${JSON.stringify(ready)}`);
    const doc = (await (await fetch(ready.url)).json()) as ExportDocument;
    expect(doc.profile).toMatchObject({ bio: 'my bio', location: 'Beijing', cover: urlOf(cover, 'cover') });
    expect(doc.settings).toEqual({ messagesFrom: 'nobody', notifications: { ...all, likes: false } });

    const left = Date.now();
    await leave(deps, ann, { handle: ann, password: PASSWORD, sourceIp: '192.0.2.7' }, left);
    await runToCompletion(eraseAccountsJob({ ...deps, now: () => left + RESTORE_WINDOW_MS + 1 }), {
      rowsPerStep: 5,
      log: silentLog,
    });
    await drain();
    const row = await stores.users.profile(ann);
    expect(row?.standing.state).toBe('erased');
    expect(row?.bio).toBeUndefined();
    expect(row?.location).toBeUndefined();
    expect(row?.cover).toBeUndefined();
    // The settings' cells went too: what is read is the defaults of a row without them.
    const reservation = await hbase.getRow(qualifiedTableName(ns, 'users'), userKey(ann));
    expect(reservation?.cells.map((c) => Buffer.from(c.column).toString()).sort()).toEqual(['p:h', 'p:x']);
  });
});

describe('settings: who may message me, and what I am told of (real HBase)', () => {
  it('defaults, then only what a change names; 403 for another user', async () => {
    const [ann] = await users('ann');
    expect(await getSettings(deps, ann, ann)).toEqual({ messagesFrom: 'following', notifications: all });
    // Two changes of different kinds at once: neither undoes the other (a cell each).
    await Promise.all([
      changeSettings(deps, ann, ann, { notifications: { likes: false } }),
      changeSettings(deps, ann, ann, { notifications: { reposts: false } }),
    ]);
    expect(await changeSettings(deps, ann, ann, { messagesFrom: 'everyone' })).toEqual({
      messagesFrom: 'everyone',
      notifications: { ...all, likes: false, reposts: false },
    });
    await expect(getSettings(deps, 'intruder', ann)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(changeSettings(deps, 'intruder', ann, { messagesFrom: 'nobody' })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('a kind switched off is not delivered, the others are, and the badge counts what the list shows; on again, the next one arrives', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    await changeSettings(deps, ann, ann, { notifications: { likes: false, follows: false } });
    const p = (await publishPost(deps, ann, { body: 'hello' })).post.id;
    await likePost(deps, bob, p);
    await follow(deps, bob, ann);
    await addComment(deps, bob, p, { body: 'nice' });
    await repost(deps, cat, p, { comment: 'look' });
    await drain();
    const types = (await listNotifications(deps, ann, 20)).items.map((n) => n.type).sort();
    expect(types).toEqual(['comment', 'repost']);
    expect(await unreadCount(deps, ann)).toEqual({ count: 2, capped: false });
    // Switched on again: the next like is told (the one before stays untold).
    await changeSettings(deps, ann, ann, { notifications: { likes: true } });
    await likePost(deps, cat, p);
    await drain();
    const likes = (await listNotifications(deps, ann, 20)).items.filter((n) => n.type === 'like');
    expect(likes.map((n) => n.actors.map((a) => a.handle))).toEqual([[cat]]);
    expect((await unreadCount(deps, ann)).count).toBe(3);
  });
});
