// test/unit/post-search.test.ts — what post search finds (shared/domain/post-search.ts) and how a
// page picks its candidates from the lists it read (shared/use-cases/search-posts.ts); the page
// itself on the in-memory fakes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fold,
  highlights,
  indexTerms,
  matchesQuery,
  parseQuery,
  SEARCH_SCANNED_TERMS,
  SEARCH_TERMS_MAX,
  type SearchQuery,
} from '../../shared/domain/post-search.js';
import { candidatesOf, searchPosts } from '../../shared/use-cases/search-posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { fakeFeed } from '../support/fakes/feed.js';

const query = (q: string) => parseQuery(q) as SearchQuery;

describe('folding', () => {
  it('folds width, case and accents one code point at a time, each folded unit knowing its origin', () => {
    expect(fold('ＡＢＣ Café ß İ').text).toBe('abc cafe ß i');
    const f = fold('😀Ｈi');
    expect(f.text).toBe('😀hi');
    expect(f.origin).toEqual([0, 0, 1, 2]);
  });
});

describe('index terms', () => {
  it('are every CJK character and neighbouring pair, folded words, and topics and mentions as themselves', () => {
    expect(
      indexTerms({
        body: '微博热搜 Hello-WORLD #话题# @ann',
        topics: [{ name: '话题', start: 18, end: 22 }],
        mentions: [{ handle: 'ann', start: 23, end: 27 }],
      }).sort(),
    ).toEqual(
      [
        '#话题',
        '@ann',
        'ann',
        'hello',
        'world',
        '博',
        '博热',
        '微',
        '微博',
        '搜',
        '热',
        '热搜',
        '话',
        '话题',
        '题',
      ].sort(),
    );
  });

  it('are each once, and a long word is indexed by its first 32 characters', () => {
    expect(indexTerms({ body: 'la la LA' })).toEqual(['la']);
    expect(indexTerms({ body: 'x'.repeat(40) })).toEqual(['x'.repeat(32)]);
  });

  it('end a word where CJK text starts, so both the word and the Chinese are found', () => {
    expect(indexTerms({ body: '小米SU7交付' }).sort()).toEqual(['su7', '小', '米', '小米', '交', '付', '交付'].sort());
    const post = { body: '小米SU7交付了' };
    expect(highlights(post, query('su7'))).toEqual([[2, 5]]);
    expect(highlights(post, query('交付'))).toEqual([[5, 7]]);
  });
});

describe('queries', () => {
  it('refuse nothing to search for, too long, too many words', () => {
    expect(parseQuery('  !!! ?? 😀🎉 ')).toBe('query_empty');
    expect(parseQuery('.*+?^$()[]{}|\\')).toBe('query_empty');
    expect(parseQuery('字'.repeat(101))).toBe('query_too_long');
    expect(parseQuery('a b c d e f g h i j k')).toBe('query_too_complex');
    expect(parseQuery('字'.repeat(100))).not.toBeTypeOf('string');
  });

  it('are bounded whatever the text: a problem, or at most 10 terms and 4 lists to read', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      fc.array(fc.constantFrom('a', '微', '#t#', '@ann', '.*', '😀', ' '), { maxLength: 1_000 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (q) => {
        const parsed = parseQuery(q);
        if (typeof parsed === 'string') return;
        expect(parsed.terms.length).toBeLessThanOrEqual(SEARCH_TERMS_MAX);
        expect(parsed.scanned.length).toBeGreaterThan(0);
        expect(parsed.scanned.length).toBeLessThanOrEqual(SEARCH_SCANNED_TERMS);
        for (const term of parsed.scanned) expect(term).not.toContain('/');
      }),
      { numRuns: 500 },
    );
  });

  it('read at most a few lists, the most selective first: topics and mentions, long words, then pairs covering a run', () => {
    expect(query('#微博# @ann 北京大学生').scanned).toEqual(['#微博', '@ann', '北京', '学生']);
    expect(query('猫 cat').scanned).toEqual(['cat', '猫']);
    expect(query('一二三四五六七八九十').scanned).toHaveLength(SEARCH_SCANNED_TERMS);
  });

  it('match Chinese by the run as written, words whole, entities as themselves', () => {
    const post = { body: '今天北京大学的 Café 很好 #春天# @ann', topics: [{ name: '春天', start: 18, end: 22 }] };
    expect(matchesQuery(post, query('北京大学'))).toBe(true);
    expect(matchesQuery(post, query('大学 cafe'))).toBe(true);
    expect(matchesQuery(post, query('京学'))).toBe(false); // both characters, not next to each other
    expect(matchesQuery(post, query('caf'))).toBe(false);
    expect(matchesQuery(post, query('#春天#'))).toBe(true);
    expect(matchesQuery(post, query('@ann'))).toBe(false); // text, not a mention of a registered user
    expect(matchesQuery(post, query('ann'))).toBe(true);
  });

  it('highlight every match in code points of the original text, merged', () => {
    expect(highlights({ body: '😀微博 and 微博博客' }, query('微博 博客'))).toEqual([
      [1, 3],
      [8, 12],
    ]);
    expect(highlights({ body: 'ＴＯＫＹＯ tokyo' }, query('Tokyo'))).toEqual([
      [0, 5],
      [6, 11],
    ]);
  });
});

describe('a page’s candidates', () => {
  const ids = (...ms: number[]) => ms.map((m) => `ann.${m}.000000000000`);

  it('are driven by the list that reaches furthest back, less what another list read past without finding', () => {
    // "common" read 3 rows and stops at 97; "rare" read to its end.
    const common = { items: ids(100, 99, 97), nextCursor: ids(97)[0]! };
    const rare = { items: ids(99, 50, 10) };
    expect(candidatesOf([common, rare])).toEqual({ candidates: ids(99, 50, 10) });
    // Neither at its end: the one that reaches further drives; beyond the other's reach, the text decides.
    const a = { items: ids(100, 98, 96), nextCursor: ids(96)[0]! };
    const b = { items: ids(99, 98, 60), nextCursor: ids(60)[0]! };
    expect(candidatesOf([a, b])).toEqual({ candidates: ids(98, 60), more: ids(60)[0] });
    expect(candidatesOf([b, a])).toEqual({ candidates: ids(98, 60), more: ids(60)[0] });
  });

  it('page through a search on the fakes, newest first, each post once', async () => {
    const deps = fakeFeed();
    await deps.users.create({ handle: 'ann', displayName: 'ann', passwordHash: 'x', createdAt: 0 });
    for (let i = 0; i < 25; i++) await publishPost(deps, 'ann', { body: `第${i}条 微博 note` }, 1_000 + i);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchPosts(deps, '微博 note', 10, cursor);
      seen.push(...page.items.map((p) => p.body));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `第${24 - i}条 微博 note`));
  });
});
