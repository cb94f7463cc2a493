// test/unit/web-drafts.test.ts — web/src/features/compose/drafts.ts: a draft and its
// Idempotency-Key come back for the same user and target only; anything stored that is not a
// draft of ours (broken JSON, another shape, an expired one, a refusing storage) reads as no
// draft and never throws.
import { describe, expect, it } from 'vitest';
import { DRAFT_TTL_MS, draftStore, newKey, type DraftStorage } from '../../web/src/features/compose/drafts.js';

/** A Web Storage over a Map (insertion order, as browsers keep it). */
function memoryStorage(initial: Record<string, string> = {}): DraftStorage & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return {
    entries,
    get length() {
      return entries.size;
    },
    key: (i) => [...entries.keys()][i] ?? null,
    getItem: (k) => entries.get(k) ?? null,
    setItem: (k, v) => void entries.set(k, v),
    removeItem: (k) => void entries.delete(k),
  };
}

const T0 = Date.parse('2026-11-22T10:00:00Z');

function setup(initial: Record<string, string> = {}) {
  const storage = memoryStorage(initial);
  let now = T0;
  const store = draftStore(
    () => storage,
    () => now,
  );
  return { storage, store, later: (ms: number) => (now += ms) };
}

describe('drafts', () => {
  it('keeps text, key and meta per user and per target, and forgets an emptied one', () => {
    const { storage, store } = setup();
    const key = newKey();
    store.save('ann', 'comment:p1', { text: '你好 🌞', key, meta: { replyTo: 'c1', replyAuthor: 'bob' } });
    expect(store.load('ann', 'comment:p1')).toEqual({
      text: '你好 🌞',
      key,
      meta: { replyTo: 'c1', replyAuthor: 'bob' },
    });
    // Another user on the same browser, or another target, finds nothing.
    expect(store.load('bob', 'comment:p1')).toBeNull();
    expect(store.load('ann', 'comment:p2')).toBeNull();
    expect(store.load('ann', 'post')).toBeNull();
    store.save('ann', 'comment:p1', { text: '', key });
    expect(store.load('ann', 'comment:p1')).toBeNull();
    expect(storage.entries.size).toBe(0);
  });

  it('a new key fits the API’s Idempotency-Key rule', () => {
    expect(newKey()).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(newKey()).not.toBe(newKey());
  });

  it('reads anything else stored under a draft’s name as no draft, and removes it', () => {
    const { storage, store } = setup();
    const at = (target: string) => `weibo.draft.v1:ann:${target}`;
    const good = { text: 'ok', key: 'k-1', savedAt: T0 };
    const bad: Record<string, unknown> = {
      broken: '{"text":',
      nothing: 'null',
      array: '[1,2]',
      number: '42',
      noText: JSON.stringify({ ...good, text: undefined }),
      emptyText: JSON.stringify({ ...good, text: '' }),
      longText: JSON.stringify({ ...good, text: 'x'.repeat(10_001) }),
      numberText: JSON.stringify({ ...good, text: 7 }),
      badKey: JSON.stringify({ ...good, key: 'has space' }),
      longKey: JSON.stringify({ ...good, key: 'k'.repeat(65) }),
      noTime: JSON.stringify({ ...good, savedAt: undefined }),
      textTime: JSON.stringify({ ...good, savedAt: '2026-11-22' }),
      metaArray: JSON.stringify({ ...good, meta: ['a'] }),
      metaNumber: JSON.stringify({ ...good, meta: { replyTo: 5 } }),
      metaLong: JSON.stringify({ ...good, meta: { replyTo: 'c'.repeat(201) } }),
    };
    for (const [target, raw] of Object.entries(bad)) storage.setItem(at(target), raw as string);
    for (const target of Object.keys(bad)) expect(store.load('ann', target), target).toBeNull();
    expect(storage.entries.size).toBe(0);
  });

  it('forgets a draft after its keeping time; one saved "in the future" (a clock set back) still counts', () => {
    const { store, later, storage } = setup();
    store.save('ann', 'post', { text: 'kept', key: 'k1' });
    later(DRAFT_TTL_MS - 1);
    expect(store.load('ann', 'post')?.text).toBe('kept');
    later(2);
    expect(store.load('ann', 'post')).toBeNull();
    storage.setItem(
      'weibo.draft.v1:ann:post',
      JSON.stringify({ text: 'ahead', key: 'k2', savedAt: T0 + DRAFT_TTL_MS * 3 }),
    );
    expect(store.load('ann', 'post')?.text).toBe('ahead');
  });

  it('sweep removes expired, unreadable and other-version drafts of anyone, and nothing else', () => {
    const { store, storage, later } = setup({ 'weibo.locale': 'en', 'weibo.user': 'ann' });
    store.save('ann', 'post', { text: 'old', key: 'k1' });
    later(DRAFT_TTL_MS + 1);
    store.save('bob', 'post', { text: 'fresh', key: 'k2' });
    storage.setItem('weibo.draft.v1:cat:post', '{oops');
    storage.setItem('weibo.draft.v0:ann:post', JSON.stringify({ text: 'v0', key: 'k3', savedAt: T0 }));
    store.sweep();
    expect([...storage.entries.keys()].sort()).toEqual(['weibo.draft.v1:bob:post', 'weibo.locale', 'weibo.user']);
  });

  it('dropAll removes one user’s drafts only (a handle that begins the same is another user)', () => {
    const { store, storage } = setup();
    store.save('ann', 'post', { text: 'a', key: 'k1' });
    store.save('ann', 'comment:p1', { text: 'b', key: 'k2' });
    store.save('anna', 'post', { text: 'c', key: 'k3' });
    store.dropAll('ann');
    expect([...storage.entries.keys()]).toEqual(['weibo.draft.v1:anna:post']);
  });

  it('a storage that refuses (disabled, full) reads as empty and never throws', () => {
    const refusing: DraftStorage = {
      length: 1,
      key: () => {
        throw new Error('SecurityError');
      },
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    for (const storage of [
      () => refusing,
      () => null,
      (): DraftStorage => {
        throw new Error('SecurityError');
      },
    ]) {
      const store = draftStore(storage);
      expect(() => store.save('ann', 'post', { text: 'x', key: 'k' })).not.toThrow();
      expect(store.load('ann', 'post')).toBeNull();
      expect(() => store.drop('ann', 'post')).not.toThrow();
      expect(() => store.dropAll('ann')).not.toThrow();
      expect(() => store.sweep()).not.toThrow();
    }
  });
});
