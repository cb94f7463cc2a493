// test/unit/search-recall.test.ts — which way of cutting Chinese text finds what a person would
// call relevant: recall and precision of three tokenizers on a fixed set of posts and queries
// (test/support/search-recall-set.ts, with the judgement written down), each used for BOTH the
// index and the query (a post matches when it holds every term of the query):
//   (a) Intl.Segmenter('zh', { granularity: 'word' }) words — Node's built-in ICU dictionary;
//   (b) @node-rs/jieba words (cut, with HMM for words the dictionary lacks);
//   (c) the product's own terms (shared/domain/post-search.ts): CJK characters and pairs in the
//       index, query runs matched as substrings, folded English words, topics and mentions.
// A segmenter misses a post whenever it cuts the post's text differently from the query (微博 in
// 看微博热搜 is 看微|博热|搜 to jieba); names and new slang are where that happens most. The
// substring match pays in precision instead (和服 in 我和服务员), which a reader sees and skips.
// The figures are asserted, so a change of either segmenter or of the product's terms that moves
// the comparison fails here and gets looked at.
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';
import { describe, expect, it } from 'vitest';
import { fold, indexTerms, matchesQuery, parseQuery } from '../../shared/domain/post-search.js';
import { parseMentions, parseTopics } from '../../shared/domain/text-entities.js';
import { RECALL_POSTS, RECALL_QUERIES } from '../support/search-recall-set.js';

/** A tokenizer under test: which of the set's posts a query finds. */
type Matcher = (q: string) => Set<string>;

const WORDY = /[\p{L}\p{N}]/u;

/** Index and query cut by the same word list; a post matches when it holds every query word. */
function byWords(cut: (text: string) => string[]): Matcher {
  const words = (text: string) => new Set(cut(fold(text).text).filter((w) => WORDY.test(w)));
  const index = RECALL_POSTS.map((p) => ({ id: p.id, words: words(p.body) }));
  return (q) => {
    const asked = [...words(q)];
    return new Set(index.filter((p) => asked.length > 0 && asked.every((w) => p.words.has(w))).map((p) => p.id));
  };
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const intlWords = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);

// Loaded once: building the dictionary is most of jieba's cost.
const jieba = Jieba.withDict(dict);
const jiebaWords = (text: string) => jieba.cut(text, true);

/**
 * The product's search on the set: a post is a candidate when its index terms hold every list
 * the query reads (as a page reads them), and a match when its text holds the query.
 */
const product: Matcher = (q) => {
  const query = parseQuery(q);
  if (typeof query === 'string') throw new Error(`${q}: ${query}`);
  const found = new Set<string>();
  for (const p of RECALL_POSTS) {
    const post = { body: p.body, topics: parseTopics(p.body), mentions: parseMentions(p.body) };
    const terms = new Set(indexTerms(post));
    if (query.scanned.every((t) => terms.has(t)) && matchesQuery(post, query)) found.add(p.id);
  }
  return found;
};

interface Measured {
  name: string;
  recall: number;
  precision: number;
  missed: string[];
  falseHits: string[];
}

/** Recall and precision over every (query, relevant post) pair of the set. */
function measure(name: string, match: Matcher): Measured {
  let relevant = 0;
  let retrieved = 0;
  let hits = 0;
  const missed: string[] = [];
  const falseHits: string[] = [];
  for (const { q, relevant: wanted } of RECALL_QUERIES) {
    const found = match(q);
    const lost = wanted.filter((id) => !found.has(id));
    const extra = [...found].filter((id) => !wanted.includes(id));
    relevant += wanted.length;
    retrieved += found.size;
    hits += wanted.length - lost.length;
    if (lost.length) missed.push(`${q} (${lost.join(' ')})`);
    if (extra.length) falseHits.push(`${q} (${extra.join(' ')})`);
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { name, recall: round(hits / relevant), precision: round(hits / retrieved), missed, falseHits };
}

describe('search recall on the fixed set', () => {
  it('the product’s characters and pairs find every relevant post; both segmenters miss some', () => {
    const intl = measure('(a) Intl.Segmenter zh', byWords(intlWords));
    const jb = measure('(b) @node-rs/jieba cut+HMM', byWords(jiebaWords));
    const ours = measure('(c) post-search terms', product);
    const all = [intl, jb, ours];
    console.log(
      [
        `${RECALL_POSTS.length} posts, ${RECALL_QUERIES.length} queries, ${RECALL_QUERIES.reduce((n, q) => n + q.relevant.length, 0)} relevant pairs`,
        'tokenizer                     recall  precision',
        ...all.map((m) => `${m.name.padEnd(28)}  ${m.recall.toFixed(3)}  ${m.precision.toFixed(3)}`),
        ...all.flatMap((m) => [
          `${m.name} missed: ${m.missed.join(', ') || 'nothing'}`,
          `${m.name} false hits: ${m.falseHits.join(', ') || 'none'}`,
        ]),
      ].join('\n'),
    );

    expect(ours.missed).toEqual([]);
    expect(ours.recall).toBe(1);
    expect(ours.recall).toBeGreaterThanOrEqual(Math.max(intl.recall, jb.recall));
    // The segmenters' figures as measured: a change moves them and asks for a new look.
    expect({ intl: intl.recall, jieba: jb.recall }).toEqual({ intl: 0.96, jieba: 0.84 });
  });
});
