// test/unit/text-entities.test.ts — @mention and #topic# parsing (shared/domain/text-entities.ts):
// boundaries, full-width signs, code-point offsets, caps, and linear time on hostile input.
import { describe, expect, it } from 'vitest';
import {
  MAX_MENTIONS,
  MAX_TOPICS,
  TOPIC_MAX_CODE_POINTS,
  mentionedHandles,
  normalizeTopic,
  parseMentions,
  parseTopics,
  topicNames,
} from '../../shared/domain/text-entities.js';

const handles = (text: string, max?: number) => mentionedHandles(parseMentions(text, max));
const topics = (text: string, max?: number) => topicNames(parseTopics(text, max));
/** The text a span covers, cut by code points (what the offsets promise). */
const cut = (text: string, span: { start: number; end: number }) =>
  Array.from(text).slice(span.start, span.end).join('');
/**
 * Runs `parse` three times and keeps the fastest time: one GC pause or a busy machine must not fail
 * the test, while a quadratic scan (seconds at this size) fails every run.
 */
function timed<T>(parse: () => T): { result: T; ms: number } {
  let ms = Infinity;
  let result!: T;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    result = parse();
    ms = Math.min(ms, performance.now() - t0);
  }
  return { result, ms };
}

describe('parseMentions', () => {
  it('finds a mention at the start, after a space and at the end', () => {
    expect(parseMentions('@ann hi @bob')).toEqual([
      { handle: 'ann', start: 0, end: 4 },
      { handle: 'bob', start: 8, end: 12 },
    ]);
  });

  it('lowercases the handle', () => {
    expect(parseMentions('hi @Ann_01')).toEqual([{ handle: 'ann_01', start: 3, end: 10 }]);
  });

  it('is not fooled by an e-mail address or a word before the @', () => {
    expect(handles('mail ann@example.com')).toEqual([]);
    expect(handles('中@ann')).toEqual([]);
    expect(handles('café@ann')).toEqual([]);
    expect(handles('x_@ann 9@ann')).toEqual([]);
  });

  it('refuses a doubled @ and an @ after a dot', () => {
    expect(handles('x@@bob')).toEqual([]);
    expect(handles('@@bob')).toEqual([]);
    expect(handles('＠＠bob')).toEqual([]);
    expect(handles('ann.@bob')).toEqual([]);
  });

  it('accepts the repost chain //@bob: and punctuation before the @', () => {
    expect(parseMentions('nice//@bob: old//@Carol:older')).toEqual([
      { handle: 'bob', start: 6, end: 10 },
      { handle: 'carol', start: 17, end: 23 },
    ]);
    expect(handles('(@a)，@b。@c：@d！@e（@f"@g')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(handles('line\n@ann\t@bob')).toEqual(['ann', 'bob']);
  });

  it('accepts the full-width ＠', () => {
    expect(parseMentions('你好＠ann')).toEqual([]); // 好 is a letter: still an e-mail-like join
    expect(parseMentions('你好 ＠Ann')).toEqual([{ handle: 'ann', start: 3, end: 7 }]);
  });

  it('takes exactly 30 characters but refuses a 31-character run outright (no truncation)', () => {
    const h30 = 'a'.repeat(30);
    expect(handles(`@${h30}`)).toEqual([h30]);
    expect(handles(`@${h30}b`)).toEqual([]);
    expect(handles(`@${h30}b @ok`)).toEqual(['ok']);
  });

  it('ends the handle at the first non-handle character', () => {
    expect(parseMentions('@ann你好')).toEqual([{ handle: 'ann', start: 0, end: 4 }]);
    expect(handles('@ann, @bob. @carol!')).toEqual(['ann', 'bob', 'carol']);
    expect(parseMentions('@ann\u200bhi')).toEqual([{ handle: 'ann', start: 0, end: 4 }]);
    expect(handles('@ann-bob')).toEqual(['ann']);
  });

  it('needs a handle character right after the @', () => {
    expect(handles('@\u200bann')).toEqual([]);
    expect(handles('@ ann')).toEqual([]);
    expect(handles('@')).toEqual([]);
    expect(handles('@ａｎｎ')).toEqual([]); // full-width letters are not handle characters
  });

  it('gives code-point offsets: 😀 before the @ counts one and is a boundary', () => {
    const text = '😀@ann 𝒳 @bob';
    const spans = parseMentions(text);
    expect(spans).toEqual([
      { handle: 'ann', start: 1, end: 5 },
      { handle: 'bob', start: 8, end: 12 },
    ]);
    expect(spans.map((s) => cut(text, s))).toEqual(['@ann', '@bob']);
  });

  it('works inside right-to-left text', () => {
    const text = 'שלום @ann מה נשמע';
    expect(parseMentions(text)).toEqual([{ handle: 'ann', start: 5, end: 9 }]);
    expect(handles('مرحبا @bob!')).toEqual(['bob']);
    expect(handles('שלום@ann')).toEqual([]); // a Hebrew letter is a word character too
  });

  it('spans every occurrence of an accepted handle, in text order', () => {
    expect(parseMentions('@ann @bob @ANN')).toEqual([
      { handle: 'ann', start: 0, end: 4 },
      { handle: 'bob', start: 5, end: 9 },
      { handle: 'ann', start: 10, end: 14 },
    ]);
  });

  it('accepts only the first max distinct handles; later ones are plain text', () => {
    expect(parseMentions('@a @b @c @a @b', 2)).toEqual([
      { handle: 'a', start: 0, end: 2 },
      { handle: 'b', start: 3, end: 5 },
      { handle: 'a', start: 9, end: 11 },
      { handle: 'b', start: 12, end: 14 },
    ]);
    expect(handles('@a', 0)).toEqual([]);
    expect(handles('@a', Number.NaN)).toEqual([]);
    const many = Array.from({ length: 30 }, (_, k) => `@u${k}`).join(' ');
    expect(handles(many)).toHaveLength(MAX_MENTIONS);
    expect(handles(many)[MAX_MENTIONS - 1]).toBe(`u${MAX_MENTIONS - 1}`);
  });

  it('parses 10,000 repeated mentions fast', () => {
    const text = '@a '.repeat(10_000);
    const { result: spans, ms } = timed(() => parseMentions(text));
    expect(spans).toHaveLength(10_000);
    expect(mentionedHandles(spans)).toEqual(['a']);
    expect(ms).toBeLessThan(50);
  });

  it('parses 10,000 distinct mentions fast and caps them', () => {
    const text = Array.from({ length: 10_000 }, (_, k) => `@user${k}`).join(' ');
    const { result: spans, ms } = timed(() => parseMentions(text));
    expect(spans).toHaveLength(MAX_MENTIONS);
    expect(mentionedHandles(spans)).toHaveLength(MAX_MENTIONS);
    expect(ms).toBeLessThan(50);
  });

  it('stays fast on hostile runs: long handles and @ storms', () => {
    const text = `@${'x'.repeat(40)} `.repeat(2_000) + '@'.repeat(20_000) + '//@'.repeat(5_000);
    const { result, ms } = timed(() => parseMentions(text));
    expect(result).toEqual([]);
    expect(ms).toBeLessThan(50);
  });
});

describe('parseTopics', () => {
  it('finds Weibo paired topics', () => {
    expect(parseTopics('今天 #今天天气# 不错')).toEqual([{ name: '今天天气', start: 3, end: 9 }]);
    expect(parseTopics('#Hello World#')).toEqual([{ name: 'hello world', start: 0, end: 13 }]);
  });

  it('finds a tag ended by whitespace, punctuation or the end', () => {
    expect(parseTopics('#Rust is fun')).toEqual([{ name: 'rust', start: 0, end: 5 }]);
    expect(topics('#rust, #go. #zig')).toEqual(['rust', 'go', 'zig']);
    expect(topics('#snake_case!')).toEqual(['snake_case']);
  });

  it('falls back to a tag when the paired content is not valid', () => {
    // Paired content `abc ` ends in a space, so these are two tags.
    expect(parseTopics('#abc #def')).toEqual([
      { name: 'abc', start: 0, end: 4 },
      { name: 'def', start: 5, end: 9 },
    ]);
    expect(topics('# abc#')).toEqual([]); // starts with a space: not paired, and no tag after '#'
    expect(topics('#a/b#')).toEqual(['a']); // '/' is refused in a name; tag `a` remains
    expect(topics(`#${'x'.repeat(TOPIC_MAX_CODE_POINTS + 1)} y#`)).toEqual([]); // too long either way
  });

  it('takes a tag for an unclosed #话题', () => {
    expect(parseTopics('看 #话题 吧')).toEqual([{ name: '话题', start: 2, end: 5 }]);
    expect(topics('#话题')).toEqual(['话题']);
  });

  it('consumes the closing #: #a#b# is the topic a and plain b#', () => {
    expect(parseTopics('#a#b#')).toEqual([{ name: 'a', start: 0, end: 3 }]);
    expect(parseTopics('#a# #b#')).toEqual([
      { name: 'a', start: 0, end: 3 },
      { name: 'b', start: 4, end: 7 },
    ]);
  });

  it('looks at most TOPIC_MAX_CODE_POINTS * 4 raw code points ahead for the closing #', () => {
    const zw = (n: number) => '\u200b'.repeat(n);
    expect(topics(`#a${zw(TOPIC_MAX_CODE_POINTS * 4 - 2)}b#`)).toEqual(['ab']); // 128 raw, 2 after normalising
    expect(topics(`#a${zw(TOPIC_MAX_CODE_POINTS * 4 - 1)}b#`)).toEqual(['a']); // 129 raw: the tag form
  });

  it('keeps a paired topic on one line', () => {
    expect(topics('#line one\nline two#')).toEqual(['line']);
    expect(topics('#a b\r\nc#')).toEqual(['a']);
  });

  it('finds nothing in a lone #, ## or #1', () => {
    expect(parseTopics('#')).toEqual([]);
    expect(parseTopics('##')).toEqual([]);
    expect(parseTopics('a # b')).toEqual([]);
    expect(parseTopics('#1')).toEqual([]);
    expect(parseTopics('#2024 #１２')).toEqual([]);
  });

  it('takes #1st, which is not just a number', () => {
    expect(topics('#1st place')).toEqual(['1st']);
    // A paired topic of digits is still a topic: the pairing says the writer meant one.
    expect(topics('#2024#')).toEqual(['2024']);
  });

  it('reads ## before a word as a lone # then a tag', () => {
    expect(parseTopics('##abc')).toEqual([{ name: 'abc', start: 1, end: 5 }]);
  });

  it('needs a boundary before the #: C# and abc#def are not topics', () => {
    expect(topics('I like C# a lot')).toEqual([]);
    expect(topics('abc#def')).toEqual([]);
    expect(topics('中#话题#')).toEqual([]);
    expect(topics('https://example.com/page#section')).toEqual([]);
    expect(topics('(#ok) ，#好')).toEqual(['ok) ,']); // paired: the content is `ok) ，`, see below
    expect(topics('(#ok) and ，#好')).toEqual(['ok) and ,']);
    expect(topics('(#ok)\n，#好')).toEqual(['ok', '好']);
  });

  it('pairs with the first # on the line, as Weibo does, whatever lies between', () => {
    expect(parseTopics('#learn C# today')).toEqual([{ name: 'learn c', start: 0, end: 9 }]);
    expect(topics('#one, two# three')).toEqual(['one, two']);
  });

  it('treats full-width ＃ as #, and normalises full-width letters', () => {
    expect(parseTopics('＃ＲＵＳＴ＃')).toEqual([{ name: 'rust', start: 0, end: 6 }]);
    expect(topics('#话题＃ ＃tag')).toEqual(['话题', 'tag']);
  });

  it('works in right-to-left text', () => {
    expect(parseTopics('#مرحبا#')).toEqual([{ name: 'مرحبا', start: 0, end: 7 }]);
    expect(parseTopics('שלום #עולם')).toEqual([{ name: 'עולם', start: 5, end: 10 }]);
    expect(topics('مرحبا#عالم')).toEqual([]); // a letter before '#'
  });

  it('gives code-point offsets with astral characters before and inside', () => {
    const text = '😀#话题# 𝒳 #tag😀';
    const spans = parseTopics(text);
    expect(spans).toEqual([
      { name: '话题', start: 1, end: 5 },
      { name: 'tag', start: 8, end: 12 },
    ]);
    expect(spans.map((s) => cut(text, s))).toEqual(['#话题#', '#tag']);
  });

  it('spans every occurrence of an accepted name, and caps distinct names', () => {
    expect(parseTopics('#a #b #c #A #b#', 2)).toEqual([
      { name: 'a', start: 0, end: 2 },
      { name: 'b', start: 3, end: 5 },
      { name: 'a', start: 9, end: 11 },
      { name: 'b', start: 12, end: 15 },
    ]);
    const many = Array.from({ length: 15 }, (_, k) => `#t${k}`).join(' ');
    expect(topics(many)).toHaveLength(MAX_TOPICS);
    expect(topics('#a', 0)).toEqual([]);
  });

  it('consumes a topic over the cap whole, so no part of it becomes another topic', () => {
    // `#a b#` is over the cap of 1; its prefix `a` (accepted) must not be picked up as a tag.
    expect(parseTopics('#x# #a b#', 1)).toEqual([{ name: 'x', start: 0, end: 3 }]);
    expect(parseTopics('#x# #a b#', 2).map((s) => s.name)).toEqual(['x', 'a b']);
  });

  it('parses 10,000 #t tags fast and capped', () => {
    const text = '#t '.repeat(10_000);
    const { result: spans, ms } = timed(() => parseTopics(text));
    expect(spans).toHaveLength(10_000);
    expect(topicNames(spans)).toEqual(['t']);
    expect(ms).toBeLessThan(50);

    const distinct = Array.from({ length: 10_000 }, (_, k) => `#t${k}`).join(' ');
    const { result: capped, ms: cappedMs } = timed(() => parseTopics(distinct));
    expect(topicNames(capped)).toHaveLength(MAX_TOPICS);
    expect(capped).toHaveLength(MAX_TOPICS);
    expect(cappedMs).toBeLessThan(50);
  });

  it('stays fast on hostile input: unclosed # with long content, # storms', () => {
    // Each `#x x … x ` tries a 200-character pairing (refused: trailing space), then tags `x`.
    const text = `#${'x '.repeat(100)}`.repeat(200) + '#'.repeat(20_000) + '# '.repeat(10_000);
    const { result, ms } = timed(() => parseTopics(text));
    expect(result).toHaveLength(200);
    expect(topicNames(result)).toEqual(['x']);
    expect(ms).toBeLessThan(50);
  });
});

describe('normalizeTopic', () => {
  it('applies NFKC, lowercases, collapses whitespace and trims', () => {
    expect(normalizeTopic('ＲＵＳＴ')).toBe('rust');
    expect(normalizeTopic('  Hello \t\u3000 World ')).toBe('hello world');
    expect(normalizeTopic('ﬁle')).toBe('file');
    expect(normalizeTopic('İstanbul')).toBe('i̇stanbul'); // locale-independent lowercase
  });

  it('gives an ASCII word its lowercase form (the fast path agrees with the full one)', () => {
    expect(normalizeTopic('Rust_2024')).toBe('rust_2024');
    expect(normalizeTopic('___')).toBeNull();
    expect(normalizeTopic('A'.repeat(TOPIC_MAX_CODE_POINTS + 1))).toBeNull();
    expect(normalizeTopic('Rust_2024\u200b')).toBe('rust_2024');
  });

  it('removes invisible format characters', () => {
    expect(normalizeTopic('ru\u200bst')).toBe('rust');
    expect(normalizeTopic('\ufeffrust\u200d')).toBe('rust');
    expect(normalizeTopic('\u200b')).toBeNull();
  });

  it('bounds the length in code points after normalisation', () => {
    expect(normalizeTopic('a'.repeat(TOPIC_MAX_CODE_POINTS))).toBe('a'.repeat(TOPIC_MAX_CODE_POINTS));
    expect(normalizeTopic('a'.repeat(TOPIC_MAX_CODE_POINTS + 1))).toBeNull();
    expect(normalizeTopic('𝒳'.repeat(TOPIC_MAX_CODE_POINTS))).toBe('x'.repeat(TOPIC_MAX_CODE_POINTS));
    expect(normalizeTopic(`${'话'.repeat(TOPIC_MAX_CODE_POINTS)}\u200b  `)).toBe('话'.repeat(TOPIC_MAX_CODE_POINTS));
    expect(normalizeTopic('')).toBeNull();
    expect(normalizeTopic('   ')).toBeNull();
  });

  it('needs a letter or a number', () => {
    expect(normalizeTopic('😀')).toBeNull();
    expect(normalizeTopic('!!!')).toBeNull();
    expect(normalizeTopic('_')).toBeNull();
    expect(normalizeTopic('2024')).toBe('2024');
    expect(normalizeTopic('😀a')).toBe('😀a');
  });

  it('refuses characters that break a URL path, controls and bidi controls', () => {
    for (const bad of [
      'a#b',
      'a＃b',
      'a/b',
      'a?b',
      'a%b',
      'a\u0000b',
      'a\u007fb',
      'a\u202eb',
      'a\u2066b',
      '\u202aab',
    ]) {
      expect(normalizeTopic(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(normalizeTopic('a﹟b')).toBeNull(); // small number sign becomes '#' under NFKC
  });

  it('is idempotent', () => {
    for (const raw of ['ＲＵＳＴ', ' Hello  World ', 'İstanbul', 'ﬁle', '今天天气', 'مرحبا', 'Straße']) {
      const once = normalizeTopic(raw);
      expect(once).not.toBeNull();
      expect(normalizeTopic(once!)).toBe(once);
    }
  });
});

describe('mentionedHandles / topicNames', () => {
  it('lists distinct values in first-occurrence order', () => {
    expect(mentionedHandles(parseMentions('@b @a @B @c @a'))).toEqual(['b', 'a', 'c']);
    expect(topicNames(parseTopics('#y #x #Y# #z'))).toEqual(['y', 'x', 'z']);
    expect(mentionedHandles([])).toEqual([]);
    expect(topicNames([])).toEqual([]);
  });
});
