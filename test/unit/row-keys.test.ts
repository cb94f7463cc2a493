// test/unit/row-keys.test.ts — the row-key properties the data design promises (product.md),
// checked on the pure key codec; the integration tests check them again inside HBase.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { feedOrderKey, newPostId } from '../../shared/domain/post.js';
import { md5Salt } from '../../shared/schema/salt.js';
import {
  LIST_TIME_MAX,
  handleFromKey,
  inboxQualifier,
  keyFromPostId,
  listPrefix,
  listKeyAt,
  listRowKey,
  mentionRowKeys,
  parseFollowListRowKey,
  parseNamedInRowKey,
  parseNamesRowKey,
  parseListRowKey,
  postIdFromKey,
  parsePostKey,
  postIdOfTopicKey,
  postKey,
  postKeyFromInboxQualifier,
  relationKey,
  topicEntryKey,
  topicPrefix,
  relationPrefix,
  reversedTimestamp,
  timestampFromReversed,
  userKey,
} from '../../shared/schema/row-keys.js';

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

  it("salts with the first two bytes of node:crypto's MD5 of the handle (every key already stored was made so)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9_]{1,30}$/), (handle) => {
        expect([...userKey(handle).subarray(0, 2)]).toEqual([
          ...createHash('md5').update(handle).digest().subarray(0, 2),
        ]);
      }),
      { numRuns: 2000 },
    );
    // Every length an MD5 block can hold, any ASCII byte (md5Salt's whole domain).
    const salt = new Uint8Array(2);
    for (let n = 0; n <= 55; n++) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i * 37 + n * 11) % 95))).join('');
      md5Salt(text, salt);
      expect([...salt], `${n} bytes`).toEqual([...createHash('md5').update(text).digest().subarray(0, 2)]);
    }
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
    const id = fc
      .tuple(author, fc.integer({ min: 0, max: 5 }), fc.uint8Array({ minLength: 6, maxLength: 6 }))
      .map(([a, t, sfx]) => `${a}.${1_700_000_000_000 + t}.${Buffer.from(sfx).toString('hex')}`);
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 2, maxLength: 30 }), (ids) => {
        const byDomain = [...ids].sort((x, y) => (feedOrderKey(x) < feedOrderKey(y) ? -1 : 1));
        const byKeys = [...ids].sort((x, y) =>
          compareBytes(inboxQualifier(keyFromPostId(x)!), inboxQualifier(keyFromPostId(y)!)),
        );
        expect(byDomain).toEqual(byKeys);
      }),
    );
  });
});

describe('topic keys (tables.ts, topics)', () => {
  const text = (s: string) => new TextEncoder().encode(s);

  it('sort a topic’s posts newest first (one millisecond by id) and parse back', () => {
    const posts = fc.uniqueArray(
      fc.tuple(fc.integer({ min: 0, max: LIST_TIME_MAX }), fc.constantFrom('a', 'ab', 'a_', 'zed', '0')),
      { minLength: 2, maxLength: 30, selector: ([m, a]) => `${m}/${a}` },
    );
    fc.assert(
      fc.property(posts, (list) => {
        const ids = list.map(([millis, author]) => `${author}.${millis}.0123456789ab`);
        const byKey = [...ids].sort((x, y) =>
          compareBytes(text(topicEntryKey('话题 one', x)), text(topicEntryKey('话题 one', y))),
        );
        const newestFirst = [...ids].sort(
          (x, y) => Number(y.split('.')[1]) - Number(x.split('.')[1]) || (x < y ? -1 : x > y ? 1 : 0),
        );
        expect(byKey).toEqual(newestFirst);
        for (const id of ids) expect(postIdOfTopicKey(topicPrefix('话题 one'), topicEntryKey('话题 one', id))).toBe(id);
      }),
    );
  });

  it('keep every topic to its own rows: "ab" does not list "ab c" or "abc", even with one salt', () => {
    const id = newPostId('ann', 1_700_000_000_000);
    const names = ['ab', 'ab c', 'abc', 'a', '话题'];
    for (const a of names)
      for (const b of names)
        if (a !== b) expect(topicEntryKey(b, id).startsWith(topicPrefix(a)), `${a} / ${b}`).toBe(false);
    // Not by luck of the salt: a row of "ab c" under "ab"'s salt still is not "ab"'s.
    const forged = `${topicPrefix('ab').slice(0, 4)}${topicEntryKey('ab c', id).slice(4)}`;
    expect(postIdOfTopicKey(topicPrefix('ab'), forged)).toBeNull();
    expect(() => topicEntryKey('ab', 'not a post id')).toThrow(RangeError);
    // A cursor naming a time past any key's reads from the newest: no error.
    expect(
      topicEntryKey('ab', 'ann.99999999999999.0123456789ab').startsWith(`${topicPrefix('ab')}0000000000000/`),
    ).toBe(true);
  });
});

describe('list keys (tables.ts, lists)', () => {
  const text = (s: string) => new TextEncoder().encode(s);

  it('sort newest first, one since by handle, and parse back', () => {
    const entries = fc.uniqueArray(
      fc.tuple(fc.integer({ min: 0, max: LIST_TIME_MAX }), fc.constantFrom('a', 'ab', 'a_', 'b', 'z9', '0', 'carol')),
      {
        minLength: 2,
        maxLength: 30,
        selector: ([since, h]) => `${since}/${h}`,
      },
    );
    fc.assert(
      fc.property(entries, (list) => {
        const byKey = [...list].sort(([s1, h1], [s2, h2]) =>
          compareBytes(text(listRowKey('ann', 'R', s1, h1)), text(listRowKey('ann', 'R', s2, h2))),
        );
        const newestFirst = [...list].sort(([s1, h1], [s2, h2]) => s2 - s1 || (h1 < h2 ? -1 : h1 > h2 ? 1 : 0));
        expect(byKey).toEqual(newestFirst);
        for (const [since, handle] of list)
          expect(parseListRowKey(listPrefix('ann', 'R'), listRowKey('ann', 'R', since, handle))).toEqual({
            since,
            handle,
          });
      }),
    );
  });

  it('keep every owner and kind to its own rows: user 1 is not user 10, a post’s likers are not its author’s lists', () => {
    const post = newPostId('ann', 1_700_000_000_000);
    const prefixes = [
      listPrefix('1', 'F'),
      listPrefix('10', 'F'),
      listPrefix('1', 'R'),
      listPrefix('ann', 'F'),
      listPrefix('ann', 'B'),
      listPrefix('ann', 'M'),
      listPrefix(post, 'L'),
    ];
    for (const a of prefixes) for (const b of prefixes) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false);
    // Not by luck of the salt: an owner whose salt equals '1''s and whose handle starts with '1'.
    const salt = (h: string) => createHash('md5').update(h).digest('hex').slice(0, 4);
    // The first such handle ('1' + i, i counted up from 0), found once: the search takes over a
    // million hashes, seconds on a loaded machine.
    const twin = '1244822';
    expect(salt(twin)).toBe(salt('1'));
    expect(listRowKey(twin, 'F', 5, 'x').startsWith(listPrefix('1', 'F'))).toBe(false);
    expect(parseListRowKey(listPrefix('1', 'F'), listRowKey(twin, 'F', 5, 'x'))).toBeNull();
  });

  it('read any owner’s follow entry back as the edge it indexes (the graph sample); other kinds are not edges', () => {
    expect(parseFollowListRowKey(listRowKey('ann', 'F', 42, 'bob'))).toEqual({
      follower: 'ann',
      followee: 'bob',
      since: 42,
    });
    expect(parseFollowListRowKey(listRowKey('bob', 'R', 42, 'ann'))).toEqual({
      follower: 'ann',
      followee: 'bob',
      since: 42,
    });
    for (const kind of ['B', 'M'] as const)
      expect(parseFollowListRowKey(listRowKey('ann', kind, 42, 'bob'))).toBeNull();
    expect(parseFollowListRowKey(listRowKey(newPostId('ann', 1), 'L', 42, 'bob'))).toBeNull();
    // A salt that is not the owner's: not a row of ours.
    expect(parseFollowListRowKey(`0000${listRowKey('ann', 'F', 42, 'bob').slice(4)}`)).toBeNull();
    // Where a sample starts: the salt space end to end.
    expect([listKeyAt(0), listKeyAt(0.5), listKeyAt(0.99999)]).toEqual(['0000', '8000', 'ffff']);
    expect(() => listKeyAt(1)).toThrow(RangeError);
  });

  it('index a mention under the named user and under the post, and read each back as the place it names', () => {
    const postId = newPostId('bob', 1_700_000_000_000);
    const comment = '1700000000001-0a0b0c0d';
    for (const place of [{ postId }, { postId, commentId: comment }]) {
      const [named, names] = mentionRowKeys('ann', place, 42);
      expect(parseNamedInRowKey(listPrefix('ann', 'N'), named)).toEqual({ since: 42, place });
      expect(parseNamesRowKey(postId, names)).toEqual({ since: 42, handle: 'ann', place });
      // Each kind reads only its own rows.
      expect(parseNamedInRowKey(listPrefix('ann', 'N'), names)).toBeNull();
      expect(parseNamesRowKey(postId, named)).toBeNull();
    }
    expect(() => listRowKey('ann', 'N', 42, 'bob')).toThrow(RangeError); // a place, not a handle
    expect(() => listRowKey(postId, 'n', 42, 'ann~not-a-comment')).toThrow(RangeError);
  });

  it('refuse what is not an owner, a handle or a since a key can hold', () => {
    expect(() => listPrefix('Ann', 'F')).toThrow(RangeError);
    expect(() => listPrefix('ann', 'L')).toThrow(RangeError); // likers belong to a post
    expect(() => listPrefix('a/b', 'F')).toThrow(RangeError);
    expect(() => listRowKey('ann', 'F', -1, 'bob')).toThrow(RangeError);
    expect(() => listRowKey('ann', 'F', LIST_TIME_MAX + 1, 'bob')).toThrow(RangeError);
    expect(() => listRowKey('ann', 'F', 1.5, 'bob')).toThrow(RangeError);
    expect(() => listRowKey('ann', 'F', 1, 'Bob')).toThrow(RangeError);
  });
});
