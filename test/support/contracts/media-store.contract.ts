// test/support/contracts/media-store.contract.ts — what MediaStore promises
// (shared/ports/media-store.ts), through its interface only: a record made once, every state move
// conditional on the state before it, a picture claimed by one post at most (a retry claims
// again), a discard that wins only over the claim it read, and a walk that visits every record
// once. Run on the fake (test/support/fakes/media.ts) and on HBase (test/unit/contracts.test.ts,
// test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import { newMediaId } from '../../../shared/domain/media-id.js';
import type { MediaDescriptor, MediaStore, NewMedia } from '../../../shared/ports/media-store.js';
import { fresh, type Make, post, T0 } from './fixtures.js';

const newMedia = (owner = fresh('ann')): NewMedia => ({
  id: newMediaId(),
  owner,
  purpose: 'post',
  declaredType: 'image/jpeg',
  declaredBytes: 12_345,
  createdAt: T0,
});

const descriptor: MediaDescriptor = {
  width: 1200,
  height: 800,
  animated: false,
  placeholder: '#336699',
  variants: [{ name: 'thumb', width: 360, height: 240 }],
};

export function mediaStoreContract(make: Make<MediaStore>): void {
  describe('MediaStore contract', () => {
    it('create is put-if-absent, in uploading; get and getMany give the records that exist', async () => {
      const media = await make();
      const m = newMedia();
      expect(await media.create(m)).toBe(true);
      expect(await media.create({ ...m, owner: fresh('bob') })).toBe(false);
      expect(await media.get(m.id)).toEqual({ ...m, state: 'uploading' });
      const never = newMediaId();
      expect(await media.get(never)).toBeNull();
      expect(await media.getMany([m.id, never])).toEqual(new Map([[m.id, { ...m, state: 'uploading' }]]));
      expect(await media.getMany([])).toEqual(new Map());
    });

    it('state moves: each only from the state named; finish keeps what processing found, fail the reason', async () => {
      const media = await make();
      const [a, b] = [newMedia(), newMedia()];
      await media.create(a);
      await media.create(b);
      expect(await media.finish(a.id, descriptor)).toBe(false); // not processing yet
      expect(await media.move(a.id, 'processing', 'processing')).toBe(false);
      expect(await media.move(a.id, 'uploading', 'processing')).toBe(true);
      expect(await media.move(a.id, 'uploading', 'processing')).toBe(false); // another move won
      expect(await media.finish(a.id, descriptor)).toBe(true);
      expect(await media.fail(a.id, 'processing', 'too_big')).toBe(false);
      expect(await media.get(a.id)).toEqual({ ...a, state: 'ready', descriptor });
      expect(await media.fail(b.id, 'processing', 'upload_missing')).toBe(false);
      expect(await media.fail(b.id, 'uploading', 'upload_missing')).toBe(true);
      expect(await media.get(b.id)).toEqual({ ...b, state: 'failed', reason: 'upload_missing' });
      const racing = await Promise.all([1, 2, 3].map(() => media.move(newMediaId(), 'uploading', 'processing')));
      expect(racing).toEqual([false, false, false]); // no record: no move
    });

    it('attach: one post at most; a retry by the same post claims again at its time; detach only by that post', async () => {
      const media = await make();
      const m = newMedia();
      await media.create(m);
      const [p1, p2] = [post(m.owner, T0 + 1).id, post(m.owner, T0 + 2).id];
      expect(await media.attach(m.id, p1, T0 + 10)).toBe(true);
      expect(await media.attach(m.id, p2, T0 + 11)).toBe(false);
      expect(await media.attach(m.id, p1, T0 + 12)).toBe(true);
      expect(await media.get(m.id)).toMatchObject({ attachedTo: p1, attachedAt: T0 + 12 });
      await media.detach(m.id, p2); // not p2's: nothing happens
      expect((await media.get(m.id))?.attachedTo).toBe(p1);
      await media.detach(m.id, p1);
      const free = await media.get(m.id);
      expect(free?.attachedTo).toBeUndefined();
      expect(free?.attachedAt).toBeUndefined();
      const racing = await Promise.all([p1, p2].map((p, i) => media.attach(m.id, p, T0 + 20 + i)));
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await media.attach(newMediaId(), p1, T0)).toBe(false); // no record: a claim never makes one
    });

    it('markDiscarding: only over the claim read; then no post can claim it; remove takes the record', async () => {
      const media = await make();
      const [free, held] = [newMedia(), newMedia()];
      await media.create(free);
      await media.create(held);
      const p = post(held.owner, T0).id;
      await media.attach(held.id, p, T0 + 10);
      expect(await media.markDiscarding(free.id, { postId: p, at: T0 + 10 }, T0 + 30)).toBe(false); // it is free
      expect(await media.markDiscarding(held.id, null, T0 + 30)).toBe(false); // it is claimed
      expect(await media.markDiscarding(held.id, { postId: p, at: T0 + 9 }, T0 + 30)).toBe(false); // an older claim
      // A retry claimed it again after the read: the discard loses.
      const read = { postId: p, at: T0 + 10 };
      await media.attach(held.id, p, T0 + 20);
      expect(await media.markDiscarding(held.id, read, T0 + 30)).toBe(false);
      expect(await media.markDiscarding(held.id, { postId: p, at: T0 + 20 }, T0 + 30)).toBe(true);
      expect(await media.markDiscarding(free.id, null, T0 + 30)).toBe(true);
      expect(await media.markDiscarding(free.id, null, T0 + 31)).toBe(false);
      for (const m of [free, held]) {
        const record = await media.get(m.id);
        expect(record?.discarding).toBe(true);
        expect(record?.attachedTo).toBeUndefined();
        expect(await media.attach(m.id, p, T0 + 40)).toBe(false);
      }
      await media.remove(free.id);
      expect(await media.get(free.id)).toBeNull();
      expect(await media.attach(free.id, p, T0 + 50)).toBe(false);
      expect(await media.get(free.id)).toBeNull(); // nothing brought it back
    });

    it('walk: every record once, in bounded pages, resumed from where a page stopped', async () => {
      const media = await make();
      const mine = [1, 2, 3, 4, 5].map(() => newMedia());
      for (const m of mine) await media.create(m);
      const ids = new Set(mine.map((m) => m.id));
      const seen: string[] = [];
      let start: string | undefined;
      for (let guard = 0; guard < 1000; guard++) {
        const page = await media.walk({ limit: 2, ...(start === undefined ? {} : { start }) });
        expect(page.records.length).toBeLessThanOrEqual(2);
        seen.push(...page.records.map((r) => r.id).filter((id) => ids.has(id)));
        if (page.next === undefined) break;
        start = page.next;
      }
      expect(seen.toSorted()).toEqual([...ids].toSorted());
    });
  });
}
