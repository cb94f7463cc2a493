// test/unit/row-keys.test.ts — the row-key properties the data design promises (product.md),
// checked on the pure key codec; the integration tests check them again inside HBase.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { feedOrderKey, newPostId } from '../../shared/domain/post.js';
import { handleFromKey, inboxQualifier, keyFromPostId, postIdFromKey, parsePostKey, postKey, postKeyFromInboxQualifier, relationKey, relationPrefix, reversedTimestamp, timestampFromReversed, userKey } from '../../shared/schema/row-keys.js';

const hasPrefix = (key: Uint8Array, prefix: Uint8Array) =>
  key.length >= prefix.length && prefix.every((b, i) => key[i] === b);

/** Unsigned lexicographic byte order — HBase's row order. */
const compareBytes = (a: Uint8Array, b: Uint8Array) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};

describe('userKey', () => {
  it('keeps user 1 out of user 10’s key range and the other way round', () => {
    const one = userKey('1');
    const ten = userKey('10');
    const tenPost = postKey('10', Date.now());
    const onePost = postKey('1', Date.now());
    expect(hasPrefix(tenPost, one)).toBe(false);
    expect(hasPrefix(onePost, ten)).toBe(false);
    expect(hasPrefix(onePost, one)).toBe(true);
    expect(hasPrefix(relationKey('10', 'F', '2'), relationPrefix('1', 'F'))).toBe(false);
  });

  it('round-trips the handle and salts the lead bytes', () => {
    expect(handleFromKey(userKey('alice')).handle).toBe('alice');
    // Sequential handles must not share lead bytes (the point of the salt).
    const leads = new Set(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'].map((h) => userKey(h)[0]));
    expect(leads.size).toBeGreaterThan(4);
  });

  it('refuses handles outside the safe character set', () => {
    for (const bad of ['', 'Alice', 'a/b', 'a,b', 'a+b', 'a*', 'a%', 'a\u0000b', 'x'.repeat(31), 'é']) {
      expect(() => userKey(bad)).toThrow(RangeError);
    }
  });
});

describe('postKey', () => {
  it('orders one author’s posts newest first', () => {
    const older = postKey('bob', 1_700_000_000_000);
    const newer = postKey('bob', 1_700_000_000_001);
    expect(compareBytes(newer, older)).toBeLessThan(0);
  });

  it('gives two posts in the same millisecond different keys', () => {
    const t = 1_700_000_000_000;
    const keys = new Set(Array.from({ length: 1000 }, () => Buffer.from(postKey('bob', t)).toString('hex')));
    expect(keys.size).toBe(1000);
  });

  it('parses back into author, time and suffix', () => {
    const suffix = Uint8Array.of(1, 2, 3, 4, 5, 6);
    const parsed = parsePostKey(postKey('carol_9', 1_795_000_000_123, suffix));
    expect(parsed).toEqual({ author: 'carol_9', millis: 1_795_000_000_123, suffix });
  });

  it('reverses timestamps losslessly', () => {
    for (const t of [0, 1, 1_795_248_353_189, Number.MAX_SAFE_INTEGER]) {
      expect(timestampFromReversed(reversedTimestamp(t))).toBe(t);
    }
  });
});

describe('inboxQualifier', () => {
  it('sorts newest first across different authors and maps back to the post key', () => {
    const a = postKey('zed', 1_000);
    const b = postKey('amy', 2_000);
    const qa = inboxQualifier(a);
    const qb = inboxQualifier(b);
    expect(compareBytes(qb, qa)).toBeLessThan(0); // amy's newer post first, whatever the salt
    expect(postKeyFromInboxQualifier(qa)).toEqual(a);
  });
});

describe('post ids and feed order (the domain) against the keys (storage)', () => {
  it('maps a post id onto its key and back', () => {
    const id = newPostId('ann', 1_700_000_000_123);
    expect(postIdFromKey(keyFromPostId(id)!)).toBe(id);
    expect(keyFromPostId('ann.1.zz')).toBeNull();
  });

  it('orders ids by feedOrderKey exactly as HBase orders their inbox qualifiers', () => {
    // Same-millisecond posts by authors that share prefixes ("a", "ab", "a_") are where a
    // domain order that forgot the key's salt or terminator would part from the stored order.
    const author = fc.constantFrom('a', 'ab', 'abc', 'a_', 'b', 'z9', '0', 'carol');
    const id = fc.tuple(author, fc.integer({ min: 0, max: 5 }), fc.uint8Array({ minLength: 6, maxLength: 6 })).map(([a, t, sfx]) =>
      `${a}.${1_700_000_000_000 + t}.${Buffer.from(sfx).toString('hex')}`,
    );
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 2, maxLength: 30 }), (ids) => {
        const byDomain = [...ids].sort((x, y) => (feedOrderKey(x) < feedOrderKey(y) ? -1 : 1));
        const byKeys = [...ids].sort((x, y) => compareBytes(inboxQualifier(keyFromPostId(x)!), inboxQualifier(keyFromPostId(y)!)));
        expect(byDomain).toEqual(byKeys);
      }),
    );
  });
});
