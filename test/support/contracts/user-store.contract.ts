// test/support/contracts/user-store.contract.ts — what UserStore and LoginThrottle promise
// (shared/ports/user-store.ts), through their interfaces only: a handle taken once, every change
// of an account a check-and-set on what was read, only active accounts anyone's face, the account
// counters in the profile (CounterStore keeps them beside the account), and login attempts
// counted before they are checked. Run on the fakes and on HBase (test/unit/contracts.test.ts,
// test/integration/contracts.test.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACTIVE } from '../../../shared/domain/leaving.js';
import type { CounterStore } from '../../../shared/ports/feed-store.js';
import type { LoginThrottle, NewUser, UserStore } from '../../../shared/ports/user-store.js';
import { fresh, type Make, T0 } from './fixtures.js';

const newUser = (handle: string, more: Partial<NewUser> = {}): NewUser => ({
  handle,
  displayName: `${handle} name`,
  passwordHash: `hash of ${handle}`,
  createdAt: T0,
  ...more,
});

/** A naming version (16 hex digits, domain/people-search.ts). */
const naming = () => randomBytes(8).toString('hex');

/** A user store, and the counter store that keeps the same accounts' counters. */
export interface Accounts {
  users: UserStore;
  counters: CounterStore;
}

export function userStoreContract(make: Make<Accounts>): void {
  describe('UserStore contract', () => {
    it('create is put-if-absent on the handle; an unknown handle is null everywhere', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      expect(await users.create(newUser(ann))).toBe(true);
      expect(await users.create(newUser(ann, { displayName: 'someone else' }))).toBe(false);
      expect(await users.credentials(ann)).toEqual({ hash: `hash of ${ann}`, standing: ACTIVE, epoch: '' });
      expect(await users.sessionGate(ann)).toEqual({ standing: ACTIVE, epoch: '' });
      const nobody = fresh('nobody');
      expect(await users.credentials(nobody)).toBeNull();
      expect(await users.sessionGate(nobody)).toBeNull();
      expect(await users.profile(nobody)).toBeNull();
      expect(await users.naming(nobody)).toBeNull();
    });

    it('of racing registrations of one handle exactly one is created', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      const won = await Promise.all(['a', 'b', 'c'].map((n) => users.create(newUser(ann, { displayName: n }))));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await users.profile(ann))?.displayName).toBe(['a', 'b', 'c'][won.indexOf(true)]);
    });

    it('profile: the account with its counters; faces, existing and findable only of active users', async () => {
      const { users, counters } = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const annNaming = naming();
      await users.create(newUser(ann, { naming: annNaming }));
      await users.create(newUser(bob));
      await counters.add(ann, 'followers', 3);
      await counters.add(ann, 'following', 2);
      await counters.add(ann, 'posts', 1);
      expect(await users.profile(ann)).toEqual({
        handle: ann,
        displayName: `${ann} name`,
        createdAt: T0,
        followers: 3,
        following: 2,
        posts: 1,
        standing: ACTIVE,
      });
      expect(await users.faces([ann, bob, cy, ann])).toEqual(
        new Map([
          [ann, { handle: ann, displayName: `${ann} name` }],
          [bob, { handle: bob, displayName: `${bob} name` }],
        ]),
      );
      expect(await users.existing([ann, cy])).toEqual(new Set([ann]));
      expect(await users.findable([ann, bob, cy])).toEqual(
        new Map([
          [ann, { handle: ann, displayName: `${ann} name`, followers: 3, naming: annNaming }],
          [bob, { handle: bob, displayName: `${bob} name`, followers: 0, naming: null }],
        ]),
      );
      await users.deactivate(bob, T0 + 5, 'e1');
      expect([...(await users.faces([ann, bob])).keys()]).toEqual([ann]);
      expect(await users.existing([bob])).toEqual(new Set());
      expect(await users.findable([bob])).toEqual(new Map());
      expect((await users.profile(bob))?.standing).toEqual({ state: 'deactivated', at: T0 + 5 }); // to its own login
      expect(await users.faces([])).toEqual(new Map());
      expect(await users.existing([])).toEqual(new Set());
    });

    it('deactivate only an active account, with a new session epoch; restore only from the standing read', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      await users.create(newUser(ann));
      expect(await users.deactivate(ann, T0 + 1, 'e1')).toBe(true);
      expect(await users.deactivate(ann, T0 + 2, 'e2')).toBe(false);
      const gone = { state: 'deactivated' as const, at: T0 + 1 };
      expect(await users.credentials(ann)).toEqual({ hash: `hash of ${ann}`, standing: gone, epoch: 'e1' });
      expect(await users.restore(ann, { state: 'deactivated', at: T0 + 2 })).toBe(false);
      expect(await users.restore(ann, gone)).toBe(true);
      expect(await users.restore(ann, gone)).toBe(false);
      expect(await users.sessionGate(ann)).toEqual({ standing: ACTIVE, epoch: 'e1' });
      expect(await users.existing([ann])).toEqual(new Set([ann]));
    });

    it('the password hash: replaced only while it is still the one read', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      await users.create(newUser(ann));
      expect(await users.replacePasswordHash(ann, 'not it', 'h2')).toBe(false);
      expect(await users.replacePasswordHash(ann, `hash of ${ann}`, 'h2')).toBe(true);
      expect(await users.replacePasswordHash(ann, `hash of ${ann}`, 'h3')).toBe(false);
      expect((await users.credentials(ann))?.hash).toBe('h2');
    });

    it('naming and rename: the name and its naming version move together, from the version read', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      await users.create(newUser(ann));
      expect(await users.naming(ann)).toEqual({ displayName: `${ann} name`, naming: null });
      const [v1, v2] = [naming(), naming()];
      expect(await users.rename(ann, 'Ann', v1, v2)).toBe(false); // the naming is not v1
      expect(await users.rename(ann, 'Ann', null, v1)).toBe(true);
      expect(await users.rename(ann, 'Annie', null, v2)).toBe(false); // lost to the first
      expect(await users.naming(ann)).toEqual({ displayName: 'Ann', naming: v1 });
      expect(await users.rename(ann, 'Annie', v1, v2)).toBe(true);
      expect((await users.profile(ann))?.displayName).toBe('Annie');
      expect((await users.findable([ann])).get(ann)?.naming).toBe(v2);
    });

    it('the avatar: set and removed only from the one read', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      await users.create(newUser(ann));
      expect(await users.replaceAvatar(ann, 'm0', 'm1')).toBe(false);
      expect(await users.replaceAvatar(ann, null, 'm1')).toBe(true);
      expect(await users.replaceAvatar(ann, null, 'm2')).toBe(false);
      expect((await users.profile(ann))?.avatar).toBe('m1');
      expect((await users.faces([ann])).get(ann)).toEqual({ handle: ann, displayName: `${ann} name`, avatar: 'm1' });
      expect(await users.replaceAvatar(ann, 'm1', null)).toBe(true);
      expect((await users.profile(ann))?.avatar).toBeUndefined();
      expect(await users.replaceAvatar(ann, null, 'm3')).toBe(true); // none again: set from none
    });

    it('the bio, location and cover: described whole, the cover set only from the one read', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      await users.create(newUser(ann));
      await users.describe(ann, { bio: '写代码的', location: '杭州' });
      expect(await users.profile(ann)).toMatchObject({ bio: '写代码的', location: '杭州' });
      await users.describe(ann, { location: '' }); // cleared; the bio stays
      const described = await users.profile(ann);
      expect(described?.bio).toBe('写代码的');
      expect(described?.location).toBeUndefined();
      // A rename carries the text in its own conditional write: a lost rename writes none of it.
      const v1 = naming();
      expect(await users.rename(ann, 'Annie', null, v1, { bio: 'new bio' })).toBe(true);
      expect(await users.rename(ann, 'Lost', null, naming(), { bio: 'lost bio' })).toBe(false);
      expect(await users.profile(ann)).toMatchObject({ displayName: 'Annie', bio: 'new bio' });
      expect(await users.replaceCover(ann, 'c0', 'c1')).toBe(false);
      expect(await users.replaceCover(ann, null, 'c1')).toBe(true);
      expect(await users.replaceCover(ann, null, 'c2')).toBe(false);
      expect((await users.profile(ann))?.cover).toBe('c1');
      expect((await users.faces([ann])).get(ann)).toEqual({ handle: ann, displayName: 'Annie' });
      expect(await users.replaceCover(ann, 'c1', null)).toBe(true);
      expect((await users.profile(ann))?.cover).toBeUndefined();
    });

    it('the settings: defaults until changed, a change writes only what it names', async () => {
      const { users } = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      await users.create(newUser(ann));
      await users.create(newUser(bob));
      const all = { likes: true, comments: true, reposts: true, mentions: true, follows: true };
      expect(await users.settings(ann)).toEqual({ messagesFrom: 'following', notifications: all });
      expect(await users.settings(fresh('nobody'))).toBeNull();
      await users.changeSettings(ann, { notifications: { likes: false } });
      await users.changeSettings(ann, { messagesFrom: 'nobody', notifications: { follows: false } });
      expect(await users.settings(ann)).toEqual({
        messagesFrom: 'nobody',
        notifications: { ...all, likes: false, follows: false },
      });
      const choices = await users.notificationChoices([ann, bob]);
      expect(choices.get(ann)).toEqual({ ...all, likes: false, follows: false });
      expect(choices.get(bob)).toEqual(all);
    });

    it('the data export: asked from the latest asked, done only for the latest asked', async () => {
      const { users } = await make();
      const ann = fresh('ann');
      await users.create(newUser(ann));
      expect(await users.exportState(ann)).toEqual({});
      expect(await users.askExport(ann, T0, T0 + 1)).toBe(false); // none was asked yet
      expect(await users.askExport(ann, null, T0 + 1)).toBe(true);
      expect(await users.askExport(ann, null, T0 + 2)).toBe(false);
      expect(await users.exportState(ann)).toEqual({ requestedAt: T0 + 1 });
      expect(await users.askExport(ann, T0 + 1, T0 + 3)).toBe(true);
      expect(await users.exportDone(ann, T0 + 1, 'old.zip', T0 + 4)).toBe(false); // a newer one was asked
      expect(await users.exportDone(ann, T0 + 3, 'new.zip', T0 + 5)).toBe(true);
      expect(await users.exportState(ann)).toEqual({
        requestedAt: T0 + 3,
        done: { requestedAt: T0 + 3, key: 'new.zip', builtAt: T0 + 5 },
      });
    });
  });
}

export function loginThrottleContract(make: Make<LoginThrottle>): void {
  describe('LoginThrottle contract', () => {
    it('count: every attempt counted, this one included, per source and across sources in the window', async () => {
      const throttle = await make();
      const ann = fresh('ann');
      expect(await throttle.count(ann, 's1', 100)).toEqual({ sourceAttempts: 1, lockedUntil: 0, globalAttempts: 1 });
      expect(await throttle.count(ann, 's1', 100)).toEqual({ sourceAttempts: 2, lockedUntil: 0, globalAttempts: 2 });
      expect(await throttle.count(ann, 's2', 100)).toEqual({ sourceAttempts: 1, lockedUntil: 0, globalAttempts: 3 });
      expect((await throttle.count(ann, 's2', 101)).globalAttempts).toBe(1); // a new window
      expect((await throttle.count(fresh('bob'), 's1', 100)).sourceAttempts).toBe(1); // another handle
      const racing = await Promise.all([1, 2, 3].map(() => throttle.count(ann, 's3', 100)));
      expect(Math.max(...racing.map((a) => a.sourceAttempts))).toBe(3);
    });

    it('lock: only over the lock the attempt saw, one winner among racers; shown to later attempts', async () => {
      const throttle = await make();
      const ann = fresh('ann');
      await throttle.count(ann, 's1', 100);
      const racing = await Promise.all([1, 2, 3].map((i) => throttle.lock(ann, 's1', 0, T0 + i)));
      expect(racing.filter(Boolean)).toHaveLength(1);
      const until = T0 + 1 + racing.indexOf(true);
      expect(await throttle.lock(ann, 's1', 0, T0 + 9)).toBe(false);
      expect((await throttle.count(ann, 's1', 100)).lockedUntil).toBe(until);
      expect(await throttle.lock(ann, 's1', until, T0 + 10)).toBe(true);
      expect((await throttle.count(ann, 's1', 100)).lockedUntil).toBe(T0 + 10);
    });

    it('succeeded: the source starts afresh, lock and all; the attempt leaves the global count', async () => {
      const throttle = await make();
      const ann = fresh('ann');
      await throttle.count(ann, 's1', 100);
      await throttle.count(ann, 's2', 100);
      await throttle.lock(ann, 's1', 0, T0 + 5);
      await throttle.count(ann, 's1', 100);
      await throttle.succeeded(ann, 's1', 100);
      expect(await throttle.count(ann, 's1', 100)).toEqual({ sourceAttempts: 1, lockedUntil: 0, globalAttempts: 3 });
      expect((await throttle.count(ann, 's2', 100)).sourceAttempts).toBe(2); // another source: untouched
    });
  });
}
