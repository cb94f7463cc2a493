// test/support/contracts/session-store.contract.ts — what SessionStore promises
// (shared/ports/session-store.ts): a session read as its owner with the token that may be
// exchanged, a rotation that lands only from the current token (one winner among racers), and a
// revoke after which no token is current. Run on the fake and on HBase
// (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../shared/ports/session-store.js';
import { fresh, type Make, T0 } from './fixtures.js';

export function sessionStoreContract(make: Make<SessionStore>): void {
  const id = () => new Uint8Array(randomBytes(16));
  const hash = () => randomBytes(32).toString('hex');
  describe('SessionStore contract', () => {
    it('a started session reads as its owner with its current token; an unknown one as null', async () => {
      const sessions = await make();
      const [s, h] = [id(), hash()];
      const owner = { handle: fresh('ann'), epoch: 'e1' };
      await sessions.start(s, owner, { hash: h, expiresAt: T0 + 100 });
      expect(await sessions.read(s, h)).toEqual({
        handle: owner.handle,
        epoch: 'e1',
        revoked: false,
        currentHash: h,
        presentedExpiresAt: T0 + 100,
      });
      expect((await sessions.read(s, hash()))?.presentedExpiresAt).toBeNull(); // never issued by it
      expect(await sessions.read(id(), h)).toBeNull();
    });

    it('rotate: the next token becomes current only while the one presented still is', async () => {
      const sessions = await make();
      const [s, h1, h2, h3] = [id(), hash(), hash(), hash()];
      const owner = { handle: fresh('ann'), epoch: '' };
      await sessions.start(s, owner, { hash: h1, expiresAt: T0 + 100 });
      expect(await sessions.rotate(s, owner, h1, { hash: h2, expiresAt: T0 + 200 })).toBe(true);
      expect(await sessions.rotate(s, owner, h1, { hash: h3, expiresAt: T0 + 300 })).toBe(false); // spent
      const view = (await sessions.read(s, h1))!;
      expect(view.currentHash).toBe(h2);
      expect(view.presentedExpiresAt).toBe(T0 + 100); // a spent token is still known as this session's
      expect((await sessions.read(s, h2))?.presentedExpiresAt).toBe(T0 + 200);
      const racing = await Promise.all(
        [hash(), hash(), hash()].map((next) => sessions.rotate(s, owner, h2, { hash: next, expiresAt: T0 + 400 })),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await sessions.rotate(id(), owner, h1, { hash: h3, expiresAt: T0 })).toBe(false); // no such session
    });

    it('revoke: no token is current any more, no rotation lands; a repeat changes nothing', async () => {
      const sessions = await make();
      const [s, h1, h2] = [id(), hash(), hash()];
      const owner = { handle: fresh('ann'), epoch: '' };
      await sessions.start(s, owner, { hash: h1, expiresAt: T0 + 100 });
      await sessions.revoke(s, T0 + 50);
      await sessions.revoke(s, T0 + 60);
      expect(await sessions.read(s, h1)).toMatchObject({ handle: owner.handle, revoked: true, currentHash: null });
      expect(await sessions.rotate(s, owner, h1, { hash: h2, expiresAt: T0 + 200 })).toBe(false);
      await sessions.revoke(id(), T0); // no such session: still none
    });
  });
}
