// test/unit/web-compose.test.ts — the composer's suggestions, outside a browser: which @mention or
// #topic is being typed before the caret (web/src/features/compose/typed.ts), agreeing with the
// server's parser on where a mention or topic may start; what a topic suggestion query is
// compared as (topicPrefixForm); and the topic name rows' keys.
import { describe, expect, it } from 'vitest';
import { parseMentions, parseTopics, topicPrefixForm } from '../../shared/domain/text-entities.js';
import { topicNameKey, topicNameOfKey } from '../../shared/schema/row-keys.js';
import { typedAt } from '../../web/src/features/compose/typed.js';

const atEnd = (text: string) => typedAt(text, text.length);

describe('the word being typed', () => {
  it('finds a mention or a topic being typed before the caret, where the server would parse one', () => {
    expect(atEnd('hi @an')).toEqual({ kind: '@', start: 3, query: 'an' });
    expect(atEnd('＠Ann_1')).toEqual({ kind: '@', start: 0, query: 'Ann_1' });
    expect(atEnd('今天 #话')).toEqual({ kind: '#', start: 3, query: '话' });
    expect(atEnd('😀#天气好')).toEqual({ kind: '#', start: 2, query: '天气好' });
    expect(atEnd('#a# #b')).toEqual({ kind: '#', start: 4, query: 'b' });
    expect(typedAt('@ann and more', 4)).toEqual({ kind: '@', start: 0, query: 'ann' });
    // Where the server sees no mention or topic, nothing is suggested.
    for (const text of ['mail@ex', 'a@@b', 'C#', 'abc#def', '#话题#', '#a b', '@', '#', 'x.@y', `@${'a'.repeat(31)}`])
      expect(atEnd(text), text).toBeNull();
    // Each suggestion's start is where the server's parser starts the entity once accepted.
    expect(parseMentions('hi @ann ')[0]?.start).toBe(atEnd('hi @an')!.start);
    expect(parseTopics('今天 #话题# ')[0]?.start).toBe(atEnd('今天 #话')!.start);
  });
});

describe('topic suggestion queries and name rows', () => {
  it('compares a prefix in the names’ form; refuses what no name could start with', () => {
    expect(topicPrefixForm('#话题')).toBe('话题');
    expect(topicPrefixForm('＃ＲＵＳＴ')).toBe('rust');
    expect(topicPrefixForm(' #a  b')).toBe('a b');
    expect(topicPrefixForm('🎉')).toBe('🎉');
    for (const q of ['', '#', '  ', 'a/b', 'a?', '5%', 'a#b', 'a\u202eb', 'x'.repeat(33)])
      expect(topicPrefixForm(q), JSON.stringify(q)).toBeNull();
  });

  it('keys a name row by its name, and reads back only name rows', () => {
    expect(topicNameKey('话题')).toBe('#话题');
    expect(topicNameOfKey(topicNameKey('话题 one'))).toBe('话题 one');
    expect(topicNameOfKey('#Rust')).toBeNull(); // not a name's form
    expect(topicNameOfKey('#a\u0000\u0001')).toBeNull(); // a row of another layout
    expect(topicNameOfKey('0a1b话题/9999/x')).toBeNull(); // an entry row
  });
});
