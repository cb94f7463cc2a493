// test/integration/avatar.test.ts — avatars on the real HBase adapters: the users row's p:av
// swap (tables.ts users) and the media claim, raced for real and forced between steps, and the
// faces multi-get every view reads its names and avatars with.
import { describe, expect, inject, it } from 'vitest';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { HBaseUserStore } from '../../shared/adapters/hbase/hbase-user-store.js';
import { newMediaId } from '../../shared/domain/media-id.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { avatarClaim, removeAvatar, setAvatar, type AvatarDeps } from '../../shared/use-cases/avatar.js';
import { readFaces } from '../../shared/use-cases/faces.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const ns = `avatar_${Date.now().toString(36)}`;
useNamespace(hbase, ns);
const users = new HBaseUserStore(hbase, ns);
const media = new HBaseMediaStore(hbase, ns);
const urlOf = (id: string, name: string) => `https://cdn.example/media/${id}/${name}.webp`;

let n = 0;
async function user(): Promise<string> {
  const handle = `amy_${++n}`;
  await users.create({ handle, displayName: `Amy ${n}`, passwordHash: 'x', createdAt: 1 });
  return handle;
}

async function readyAvatar(owner: string): Promise<string> {
  const id = newMediaId();
  await media.create({ id, owner, purpose: 'avatar', declaredType: 'image/png', declaredBytes: 10, createdAt: 1 });
  await media.move(id, 'uploading', 'processing');
  await media.finish(id, {
    width: 400,
    height: 400,
    animated: false,
    placeholder: '#112233',
    variants: [
      { name: 'avatar-96', width: 96, height: 96 },
      { name: 'avatar-400', width: 400, height: 400 },
    ],
  });
  return id;
}

describe('avatars on HBase', () => {
  it('p:av: "none" is both never set and removed; every swap is conditional on what was read', async () => {
    const h = await user();
    const [a, b] = [newMediaId(), newMediaId()];
    expect(await users.replaceAvatar(h, a, b)).toBe(false); // it holds none, not a
    expect(await users.replaceAvatar(h, null, a)).toBe(true); // never set counts as none
    expect((await users.profile(h))!.avatar).toBe(a);
    expect(await users.replaceAvatar(h, null, b)).toBe(false);
    expect(await users.replaceAvatar(h, a, null)).toBe(true);
    expect((await users.profile(h))!.avatar).toBeUndefined(); // '' is shown as none
    expect(await users.replaceAvatar(h, null, b)).toBe(true); // removed counts as none
    expect(await users.faces([h, 'nobody_here'])).toEqual(
      new Map([[h, { handle: h, displayName: `Amy ${n}`, avatar: b }]]),
    );
  });

  it('ten racing swaps from the same avatar: exactly one wins', async () => {
    const h = await user();
    const ids = Array.from({ length: 10 }, () => newMediaId());
    const wins = await Promise.all(ids.map((id) => users.replaceAvatar(h, null, id)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect((await users.profile(h))!.avatar).toBe(ids[wins.indexOf(true)]);
  });

  it('set, replace and remove through the use case: the profile and the faces carry the URLs; only the current avatar stays claimed', async () => {
    const h = await user();
    const deps: AvatarDeps = { users, pictures: { media, variantUrl: urlOf, queue: { send: async () => {} } } };
    const [a, b] = [await readyAvatar(h), await readyAvatar(h)];
    expect(await setAvatar(deps, h, h, a)).toMatchObject({
      avatar: urlOf(a, 'avatar-96'),
      avatarLarge: urlOf(a, 'avatar-400'),
    });
    await setAvatar(deps, h, h, b);
    expect((await readFaces(deps, [h])).get(h)).toEqual({
      handle: h,
      displayName: `Amy ${n}`,
      avatar: urlOf(b, 'avatar-96'),
    });
    expect((await media.get(a))!.attachedTo).toBeUndefined();
    expect((await media.get(b))!.attachedTo).toBe(avatarClaim(h));
    expect(await removeAvatar(deps, h, h)).toMatchObject({ avatar: null, avatarLarge: null });
    expect((await media.get(b))!.attachedTo).toBeUndefined();
  });

  it('forced: another change lands between a claim and its swap — the late swap wins from what it finds; the loser’s picture is given back', async () => {
    const h = await user();
    const gate = interleaver();
    const deps: AvatarDeps = {
      users,
      pictures: { media, variantUrl: urlOf, queue: { send: async () => {} } },
      step: gate.hook,
    };
    const [a, b] = [await readyAvatar(h), await readyAvatar(h)];
    const held = gate.holdAt('avatar.claimed', (d) => d.mediaId === a);
    const first = setAvatar(deps, h, h, a);
    await held.reached;
    await setAvatar(deps, h, h, b);
    held.release();
    await first;
    expect((await users.profile(h))!.avatar).toBe(a);
    expect((await media.get(a))!.attachedTo).toBe(avatarClaim(h));
    expect((await media.get(b))!.attachedTo).toBeUndefined();
  });
});
