// test/e2e/media.test.ts — pictures end to end: POST /media through serverless-offline, the
// browser's part (a PUT of the bytes to the presigned URL, straight to the local S3-compatible
// server), the completion call, the media worker through the real media queue, and the variants
// read back from storage — no EXIF left, the right sizes. And the bad inputs: each a clear 4xx or
// `failed` with a reason, nothing half-written.
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
type User = Awaited<ReturnType<typeof api.newUser>>;

/** A 1600×1200 JPEG whose EXIF says where it was taken and by what (what must never be served). */
async function photoWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Make: 'WeiboTestCam', Model: 'GPS-1', Copyright: 'secret-owner' } })
    .toBuffer();
}

async function declare(
  u: User,
  bytes: Uint8Array,
  contentType = 'image/jpeg',
  purpose: 'post' | 'avatar' = 'post',
): Promise<ApiResponse> {
  return api.call('POST', '/media', { token: u.token, body: { contentType, size: bytes.length, purpose } });
}

/** The browser's part: the bytes straight to storage, with exactly the headers the API gave. */
async function put(upload: { url: string; headers: Record<string, string> }, bytes: Uint8Array): Promise<Response> {
  return fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
}

const media = (u: User, id: string) => api.call('GET', `/media/${id}`, { token: u.token });
const complete = (u: User, id: string) => api.call('POST', `/media/${id}/complete`, { token: u.token });

async function settled(u: User, id: string): Promise<ApiResponse> {
  return eventually(async () => {
    const res = await media(u, id);
    expect(['ready', 'failed']).toContain(res.json.state);
    return res;
  }, 60_000);
}

describe('pictures', () => {
  it('a photo goes up straight to storage, is processed by the worker, and comes back in three sizes without its EXIF', async () => {
    const amy = await api.newUser('pic');
    const photo = await photoWithExif();
    expect((await sharp(photo).metadata()).exif).toBeDefined(); // the input really carries EXIF
    const declared = await declare(amy, photo);
    expect(declared.status).toBe(201);
    const { media: m, upload } = declared.json;
    expect(m.state).toBe('uploading');
    expect((await put(upload, photo)).status).toBe(200);

    const done = await complete(amy, m.id);
    expect(done.status).toBe(200);
    expect(['processing', 'ready']).toContain(done.json.state);
    const ready = (await settled(amy, m.id)).json;
    expect(ready).toMatchObject({ state: 'ready', width: 1600, height: 1200, animated: false });
    expect(ready.placeholder).toMatch(/^#[0-9a-f]{6}$/);
    expect(Object.keys(ready.variants).sort()).toEqual(['feed', 'large', 'thumb']);
    expect(ready.variants.thumb).toMatchObject({ width: 360, height: 360 });
    expect(ready.variants.feed.width).toBeLessThanOrEqual(690);

    for (const [name, v] of Object.entries(
      ready.variants as Record<string, { url: string; width: number; height: number }>,
    )) {
      const res = await fetch(v.url);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe('image/webp');
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height], name).toEqual(['webp', v.width, v.height]);
      expect(meta.exif, name).toBeUndefined();
      expect(bytes.includes('WeiboTestCam'), name).toBe(false);
      expect(bytes.includes('secret-owner'), name).toBe(false);
    }
    // A repeated completion changes nothing.
    expect((await complete(amy, m.id)).json.state).toBe('ready');
  });

  it('an HTML file declared as a JPEG is uploaded, then refused by its bytes as markup (a script vector, like SVG): failed, svg_refused', async () => {
    const amy = await api.newUser('pic');
    const html = Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>');
    const { media: m, upload } = (await declare(amy, html)).json;
    expect((await put(upload, html)).status).toBe(200);
    await complete(amy, m.id);
    expect((await settled(amy, m.id)).json).toMatchObject({ state: 'failed', reason: 'svg_refused' });
    expect((await media(amy, m.id)).json.variants).toBeUndefined();
  });

  it('refuses what it must before any upload: a type no picture has, over 20 MB; 409 before the bytes arrive; 404 for others', async () => {
    const [amy, bob] = [await api.newUser('pic'), await api.newUser('pic')];
    const svg = await api.call('POST', '/media', {
      token: amy.token,
      body: { contentType: 'image/svg+xml', size: 100 },
    });
    expect([svg.status, svg.json.error.code]).toEqual([422, 'media_type_refused']);
    const big = await api.call('POST', '/media', {
      token: amy.token,
      body: { contentType: 'image/jpeg', size: 21 * 1024 * 1024 },
    });
    expect([big.status, big.json.error.code]).toEqual([422, 'media_too_large']);
    const anonymous = await api.call('POST', '/media', { body: { contentType: 'image/jpeg', size: 100 } });
    expect(anonymous.status).toBe(401);

    const { media: m } = (await declare(amy, new Uint8Array(100))).json;
    const early = await complete(amy, m.id);
    expect([early.status, early.json.error.code]).toEqual([409, 'upload_missing']);
    expect((await media(amy, m.id)).json.state).toBe('uploading');
    for (const res of [await media(bob, m.id), await complete(bob, m.id), await media(amy, 'not-a-media-id')]) {
      expect([res.status, res.json.error.code]).toEqual([404, 'media_not_found']);
    }
  });

  it('an upload declared twice with one Idempotency-Key is one upload (201, then 200 with the same id and a working PUT); another declaration is 422', async () => {
    const amy = await api.newUser('pic');
    const bytes = await photoWithExif();
    const declareKeyed = (size: number) =>
      api.call('POST', '/media', {
        token: amy.token,
        body: { contentType: 'image/jpeg', size },
        headers: { 'idempotency-key': 'pick-photo-1' },
      });
    const first = await declareKeyed(bytes.length);
    expect(first.status).toBe(201);
    const again = await declareKeyed(bytes.length);
    expect(again.status).toBe(200);
    expect(again.json.media).toEqual(first.json.media);
    expect((await put(again.json.upload, bytes)).status).toBe(200);
    expect((await complete(amy, first.json.media.id)).json.state).toMatch(/^(processing|ready)$/);
    const other = await declareKeyed(bytes.length + 1);
    expect([other.status, other.json.error.code]).toEqual([422, 'idempotency_key_mismatch']);
  });

  it('a body of another length than declared never becomes a picture', async () => {
    const amy = await api.newUser('pic');
    const photo = await photoWithExif();
    const { media: m, upload } = (await declare(amy, photo)).json;
    // S3 refuses it (the length is signed: 403) and completing answers 409 upload_missing; the
    // local object store checks no signature (docs/local-stack.md, "The object store") and stores it, and the
    // completion's HEAD finds another size: failed, size_mismatch. Either way: no picture.
    const stored = (await put(upload, photo.subarray(0, photo.length - 10))).status === 200;
    const done = await complete(amy, m.id);
    if (stored) expect(done.json).toMatchObject({ state: 'failed', reason: 'size_mismatch' });
    else expect([done.status, done.json.error.code]).toEqual([409, 'upload_missing']);
    expect((await media(amy, m.id)).json.variants).toBeUndefined();
  });
});

/** A processed picture of `u`'s: a plain PNG of `color`, uploaded, completed and waited for. */
async function readyPicture(
  u: User,
  color: { r: number; g: number; b: number },
  size = [800, 600],
  purpose: 'post' | 'avatar' = 'post',
): Promise<string> {
  const bytes = await sharp({ create: { width: size[0]!, height: size[1]!, channels: 3, background: color } })
    .png()
    .toBuffer();
  const { media: m, upload } = (await declare(u, bytes, 'image/png', purpose)).json;
  expect((await put(upload, bytes)).status).toBe(200);
  await complete(u, m.id);
  expect((await settled(u, m.id)).json.state).toBe('ready');
  return m.id;
}

describe('pictures in posts', () => {
  it('a post of pictures only reaches a follower’s timeline with them, in order, with alt text; a picture cannot go in a second post', async () => {
    const [amy, bob] = [await api.newUser('pic'), await api.newUser('pic')];
    expect((await api.call('PUT', `/users/${bob.handle}/following/${amy.handle}`, { token: bob.token })).status).toBe(
      200,
    );
    const [red, blue] = [
      await readyPicture(amy, { r: 220, g: 0, b: 0 }),
      await readyPicture(amy, { r: 0, g: 0, b: 220 }, [600, 900]),
    ];
    const published = await api.call('POST', '/posts', {
      token: amy.token,
      body: { body: '', media: [{ id: blue, alt: '蓝色' }, { id: red }] },
    });
    expect(published.status).toBe(201);
    expect(published.json.media.map((p: { id: string; alt: string | null }) => [p.id, p.alt])).toEqual([
      [blue, '蓝色'],
      [red, null],
    ]);
    expect(published.json.media[0]).toMatchObject({
      width: 600,
      height: 900,
      placeholder: expect.stringMatching(/^#[0-9a-f]{6}$/),
    });

    const shown = await eventually(async () => {
      const res = await api.call('GET', `/users/${bob.handle}/timeline`, { token: bob.token });
      const post = (res.json.posts as { id: string }[]).find((p) => p.id === published.json.id);
      expect(post).toBeDefined();
      return post as unknown as { media: { id: string; variants: Record<string, { url: string }> }[] };
    });
    expect(shown.media.map((p) => p.id)).toEqual([blue, red]);
    const thumb = await fetch(shown.media[0]!.variants.thumb!.url);
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/webp']);

    // A repost shows the original's pictures (they are the original's: nothing is copied).
    const repost = await api.call('POST', `/posts/${published.json.id}/reposts`, { token: bob.token, body: {} });
    expect(repost.status).toBe(201);
    expect(repost.json.repostOf.media).toEqual(published.json.media);

    const again = await api.call('POST', '/posts', { token: amy.token, body: { body: 'again', media: [{ id: red }] } });
    expect([again.status, again.json.error.code]).toEqual([409, 'media_in_use']);
    const theirs = await api.call('POST', '/posts', {
      token: bob.token,
      body: { body: 'mine', media: [{ id: blue }] },
    });
    expect([theirs.status, theirs.json.error.code]).toEqual([422, 'media_not_found']);
    const empty = await api.call('POST', '/posts', { token: amy.token, body: { body: '' } });
    expect(empty.status).toBe(422);
  });

  it('deleting a post removes its pictures through the media queue: every variant leaves the bucket, then the record is gone (404)', async () => {
    const amy = await api.newUser('pic');
    const [green, grey] = [
      await readyPicture(amy, { r: 0, g: 200, b: 0 }),
      await readyPicture(amy, { r: 90, g: 90, b: 90 }),
    ];
    const published = await api.call('POST', '/posts', {
      token: amy.token,
      body: { body: 'soon gone', media: [{ id: green }, { id: grey }] },
    });
    expect(published.status).toBe(201);
    const urls = (published.json.media as { variants: Record<string, { url: string }> }[]).flatMap((p) =>
      Object.values(p.variants).map((v) => v.url),
    );
    expect(urls).toHaveLength(6);
    for (const url of urls) expect((await fetch(url)).status, url).toBe(200);

    expect((await api.call('DELETE', `/posts/${published.json.id}`, { token: amy.token })).status).toBe(204);
    // The record reads as gone from the moment the worker marks it discarding, before the objects
    // go (their order, objects first and the record last, is forced in test/unit/media-discard.test.ts):
    // so wait for both.
    await eventually(async () => {
      for (const id of [green, grey]) expect([(await media(amy, id)).status, id]).toEqual([404, id]);
      for (const url of urls) expect((await fetch(url)).status, url).toBe(404);
    }, 60_000);
    // A deleted picture's id posts nothing; nor do ten pictures (nine at most), even of one id each.
    const deleted = await api.call('POST', '/posts', {
      token: amy.token,
      body: { body: 'again?', media: [{ id: green }] },
    });
    expect([deleted.status, deleted.json.error.code]).toEqual([422, 'media_not_found']);
    const ten = await api.call('POST', '/posts', {
      token: amy.token,
      body: { body: 'ten', media: Array.from({ length: 10 }, (_, i) => ({ id: `${'A'.repeat(21)}${i}` })) },
    });
    expect([ten.status, ten.json.error.code]).toEqual([422, 'validation_failed']);
  });
});

describe('avatars', () => {
  type Named = { handle: string; displayName: string; avatar: string | null };
  const named = (list: Named[], handle: string) => list.find((u) => u.handle === handle);

  it('an avatar is made square in two sizes; the profile, posts, comments, likers, lists and notifications all carry it', async () => {
    const [amy, bob] = [await api.newUser('ava'), await api.newUser('ava')];
    const [amyAvatar, bobAvatar] = [
      await readyPicture(amy, { r: 10, g: 120, b: 60 }, [900, 600], 'avatar'),
      await readyPicture(bob, { r: 90, g: 0, b: 90 }, [300, 300], 'avatar'),
    ];
    const set = await api.call('PUT', `/users/${amy.handle}/avatar`, {
      token: amy.token,
      body: { mediaId: amyAvatar },
    });
    expect(set.status).toBe(200);
    const { avatar, avatarLarge } = set.json as { avatar: string; avatarLarge: string };
    for (const [url, side] of [
      [avatar, 96],
      [avatarLarge, 400],
    ] as const) {
      const res = await fetch(url);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/webp']);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([side, side]);
    }
    expect((await api.call('GET', `/users/${amy.handle}`)).json).toMatchObject({ avatar, avatarLarge });
    expect(
      (await api.call('PUT', `/users/${bob.handle}/avatar`, { token: bob.token, body: { mediaId: bobAvatar } })).status,
    ).toBe(200);
    const bobs = (await api.call('GET', `/users/${bob.handle}`)).json.avatar as string;

    // Someone else's, and a post picture, are not avatars; nothing changes.
    const refused = await api.call('PUT', `/users/${bob.handle}/avatar`, {
      token: bob.token,
      body: { mediaId: amyAvatar },
    });
    expect([refused.status, refused.json.error.code]).toEqual([422, 'media_not_found']);
    const postPicture = await readyPicture(amy, { r: 1, g: 2, b: 3 }, [64, 64]);
    const notAvatar = await api.call('PUT', `/users/${amy.handle}/avatar`, {
      token: amy.token,
      body: { mediaId: postPicture },
    });
    expect([notAvatar.status, notAvatar.json.error.code]).toEqual([422, 'media_not_found']);
    expect(
      (await api.call('PUT', `/users/${amy.handle}/avatar`, { token: bob.token, body: { mediaId: bobAvatar } })).status,
    ).toBe(403);

    // Bob follows amy, likes and comments on her post; each view names them with their avatars.
    expect((await api.call('PUT', `/users/${bob.handle}/following/${amy.handle}`, { token: bob.token })).status).toBe(
      200,
    );
    const post = (await api.call('POST', '/posts', { token: amy.token, body: { body: 'with a face' } })).json as {
      id: string;
      authorAvatar: string;
      authorName: string;
    };
    expect(post).toMatchObject({ authorAvatar: avatar, authorName: `User ${amy.handle}` });
    expect((await api.call('PUT', `/users/${bob.handle}/likes/${post.id}`, { token: bob.token })).status).toBe(200);
    expect(
      (await api.call('POST', `/posts/${post.id}/comments`, { token: bob.token, body: { body: 'nice' } })).json
        .authorAvatar,
    ).toBe(bobs);
    expect((await api.call('GET', `/posts/${post.id}/comments`)).json.comments[0].authorAvatar).toBe(bobs);
    expect(named((await api.call('GET', `/posts/${post.id}/likes`)).json.users, bob.handle)?.avatar).toBe(bobs);
    expect(named((await api.call('GET', `/users/${amy.handle}/followers`)).json.users, bob.handle)?.avatar).toBe(bobs);
    expect(named((await api.call('GET', `/users/${bob.handle}/following`)).json.users, amy.handle)?.avatar).toBe(
      avatar,
    );
    const inTimeline = await eventually(async () => {
      const found = (
        (await api.call('GET', `/users/${bob.handle}/timeline`, { token: bob.token })).json.posts as { id: string }[]
      ).find((p) => p.id === post.id);
      expect(found).toBeDefined();
      return found as unknown as { authorAvatar: string };
    });
    expect(inTimeline.authorAvatar).toBe(avatar);
    const actors = await eventually(async () => {
      const groups = (await api.call('GET', `/users/${amy.handle}/notifications`, { token: amy.token })).json
        .notifications as { type: string; actors: Named[] }[];
      expect(groups.map((g) => g.type).sort()).toEqual(['comment', 'follow', 'like']);
      return groups.flatMap((g) => g.actors);
    });
    expect(actors.every((a) => a.handle === bob.handle && a.avatar === bobs)).toBe(true);

    // Removing it goes back to initials everywhere.
    expect((await api.call('DELETE', `/users/${amy.handle}/avatar`, { token: amy.token })).json).toMatchObject({
      avatar: null,
      avatarLarge: null,
    });
    expect((await api.call('GET', `/posts/${post.id}`)).json.authorAvatar).toBeNull();
  });
});
