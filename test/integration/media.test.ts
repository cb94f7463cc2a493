// test/integration/media.test.ts — the media records on the real HBase adapter (tables.ts
// media): every state move is a check-and-put on m:s, so of racing moves exactly one wins, and
// ready or failed are final.
import { describe, expect, inject, it } from 'vitest';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { newMediaId } from '../../shared/domain/media-id.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const ns = `media_${Date.now().toString(36)}`;
useNamespace(hbase, ns);
const store = new HBaseMediaStore(hbase, ns);

const T = 1_700_000_000_000;
async function created(purpose: 'post' | 'avatar' = 'post') {
  const id = newMediaId();
  await store.create({ id, owner: 'amy', purpose, declaredType: 'image/png', declaredBytes: 4321, createdAt: T });
  return id;
}

describe('media records on HBase', () => {
  it('reads back what was created, uploading; an unknown id is null', async () => {
    const id = await created('avatar');
    expect(await store.get(id)).toEqual({ id, owner: 'amy', purpose: 'avatar', declaredType: 'image/png', declaredBytes: 4321, createdAt: T, state: 'uploading' });
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
    const descriptor = { width: 640, height: 480, animated: false, placeholder: '#112233', variants: [{ name: 'thumb', width: 360, height: 360 }] };
    const [finished, failed] = await Promise.all([store.finish(id, descriptor), store.fail(id, 'processing', 'corrupt_image')]);
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
    expect(await store.finish(id, { width: 1, height: 1, animated: false, placeholder: '#000000', variants: [] })).toBe(false);
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

