// test/unit/avatar.test.ts — setting and removing avatars (shared/use-cases/avatar.ts) and the
// faces every view carries (shared/use-cases/faces.ts), on in-memory fakes of the ports. The
// same flows run on HBase in test/integration/avatar.test.ts and through the API in
// test/e2e/media.test.ts.
import { describe, expect, it } from 'vitest';
import type { MediaPurpose } from '../../shared/domain/media-id.js';
import { newMediaId } from '../../shared/domain/media-id.js';
import { avatarClaim, removeAvatar, setAvatar, type AvatarDeps } from '../../shared/use-cases/avatar.js';
import { readFaces } from '../../shared/use-cases/faces.js';
import { interleaver } from '../support/interleave.js';
import { FakeUsers } from '../support/fakes/feed.js';
import { FakeMediaStore } from '../support/fakes/media.js';

const URL_BASE = 'https://cdn.example';

function world() {
  const users = new FakeUsers('amy', 'bob');
  const media = new FakeMediaStore();
  const gate = interleaver(5_000);
  const deps: AvatarDeps = {
    users,
    pictures: {
      media,
      variantUrl: (id, name) => `${URL_BASE}/media/${id}/${name}.webp`,
      queue: { send: async () => {} },
    },
    step: gate.hook,
  };
  /** A processed picture of `owner`'s, for `purpose`. */
  async function ready(owner: string, purpose: MediaPurpose = 'avatar', state: 'ready' | 'processing' = 'ready') {
    const id = newMediaId();
    await media.create({ id, owner, purpose, declaredType: 'image/png', declaredBytes: 10, createdAt: 0 });
    await media.move(id, 'uploading', 'processing');
    const square = (name: string, side: number) => ({ name, width: side, height: side });
    if (state === 'ready')
      await media.finish(id, {
        width: 400,
        height: 400,
        animated: false,
        placeholder: '#112233',
        variants: [square('avatar-96', 96), square('avatar-400', 400)],
      });
    return id;
  }
  return { users, media, deps, gate, ready };
}

describe('setAvatar', () => {
  it('sets a ready avatar picture of your own: the profile and every face carry its URLs, and the picture is claimed for you', async () => {
    const { deps, media, ready } = world();
    const id = await ready('amy');
    const profile = await setAvatar(deps, 'amy', 'amy', id);
    expect(profile).toMatchObject({
      handle: 'amy',
      avatar: `${URL_BASE}/media/${id}/avatar-96.webp`,
      avatarLarge: `${URL_BASE}/media/${id}/avatar-400.webp`,
    });
    expect((await media.get(id))!.attachedTo).toBe(avatarClaim('amy'));
    expect((await readFaces(deps, ['amy', 'bob', 'nobody'])).get('amy')).toEqual({
      handle: 'amy',
      displayName: 'amy',
      avatar: `${URL_BASE}/media/${id}/avatar-96.webp`,
    });
    // Setting it again changes nothing.
    expect(await setAvatar(deps, 'amy', 'amy', id)).toEqual(profile);
  });

  it('replacing gives the old picture back (the cleanup job deletes it); removing goes back to none', async () => {
    const { deps, media, ready } = world();
    const first = await ready('amy');
    const second = await ready('amy');
    await setAvatar(deps, 'amy', 'amy', first);
    await setAvatar(deps, 'amy', 'amy', second);
    expect((await media.get(first))!.attachedTo).toBeUndefined();
    expect((await media.get(second))!.attachedTo).toBe(avatarClaim('amy'));
    expect(await removeAvatar(deps, 'amy', 'amy')).toMatchObject({ avatar: null, avatarLarge: null });
    expect((await media.get(second))!.attachedTo).toBeUndefined();
    expect(await removeAvatar(deps, 'amy', 'amy')).toMatchObject({ avatar: null }); // idempotent
  });

  it('refuses, changing nothing: someone else’s profile, a picture not yours, a post picture, one not processed, one in a post, an unknown id', async () => {
    const { deps, media, ready, users } = world();
    const mine = await ready('amy');
    await expect(setAvatar(deps, 'bob', 'amy', mine)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(setAvatar(deps, 'bob', 'bob', mine)).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(setAvatar(deps, 'amy', 'amy', await ready('amy', 'post'))).rejects.toMatchObject({
      code: 'media_not_found',
    });
    await expect(setAvatar(deps, 'amy', 'amy', await ready('amy', 'avatar', 'processing'))).rejects.toMatchObject({
      code: 'media_not_ready',
    });
    const inPost = await ready('amy');
    await media.attach(inPost, 'amy.8230174987654321.a1b2c3d4e5f6', 0);
    await expect(setAvatar(deps, 'amy', 'amy', inPost)).rejects.toMatchObject({ code: 'media_in_use' });
    await expect(setAvatar(deps, 'amy', 'amy', 'not-a-media-id')).rejects.toMatchObject({ code: 'media_not_found' });
    expect(users.rows.get('amy')!.avatar).toBeUndefined();
    expect((await media.get(mine))!.attachedTo).toBeUndefined();
  });

  it('forced: a change that lands between another’s claim and its swap — the later swap wins from what it finds, the loser’s picture is given back', async () => {
    const { deps, media, ready, users, gate } = world();
    const [a, b] = [await ready('amy'), await ready('amy')];
    const held = gate.holdAt('avatar.claimed', (d) => d.mediaId === a);
    const first = setAvatar(deps, 'amy', 'amy', a); // read "none", claimed a, waits before its swap
    await held.reached;
    await setAvatar(deps, 'amy', 'amy', b); // runs entirely inside the gap: none → b
    expect(users.rows.get('amy')!.avatar).toBe(b);
    held.release();
    // Its swap from "none" fails (b is there now): it reads again and swaps b → a, giving b back.
    expect(await first).toMatchObject({ avatar: `${URL_BASE}/media/${a}/avatar-96.webp` });
    expect(users.rows.get('amy')!.avatar).toBe(a);
    expect((await media.get(a))!.attachedTo).toBe(avatarClaim('amy'));
    expect((await media.get(b))!.attachedTo).toBeUndefined();
  });

  it('forced: stopped between its swap and giving the old picture back — the current avatar is claimed; the old claim is the cleanup job’s', async () => {
    const { deps, media, ready, users } = world();
    const [a, b] = [await ready('amy'), await ready('amy')];
    await setAvatar(deps, 'amy', 'amy', a);
    deps.step = async (point) => {
      if (point === 'avatar.swapped') throw new Error('the function stopped here');
    };
    await expect(setAvatar(deps, 'amy', 'amy', b)).rejects.toThrow('stopped');
    expect(users.rows.get('amy')!.avatar).toBe(b);
    expect((await media.get(b))!.attachedTo).toBe(avatarClaim('amy'));
    // Left claimed by amy though not her avatar: what the cleanup job looks for (invariant L).
    expect((await media.get(a))!.attachedTo).toBe(avatarClaim('amy'));
  });
});
