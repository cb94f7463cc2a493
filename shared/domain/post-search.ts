// shared/domain/post-search.ts — what post search finds: the terms a post is indexed under, the
// terms a query asks for, whether a post matches a query, and the spans to highlight.
//
// Text is folded before anything else: compatibility forms (full-width ＡＢＣ, ①) to their plain
// form, lower case, accents off (café = cafe). Then:
// - Chinese, Japanese and Korean text is indexed by its characters and its overlapping character
//   pairs (微博好 → 微 博 好 微博 博好). A query's run of such characters matches a post that holds
//   the run as it is (北京大学 finds …北京大学…), so a name or new slang no dictionary knows is
//   found as surely as a word it does. A segmenter's words would miss every post whose text it cut
//   differently from the query (the recall test, test/unit/search-recall.test.ts, measures it).
// - Other scripts are indexed by words (letters and digits), matched whole.
// - `#话题#` topics and `@handles` are their own terms (`#话题`, `@handle`), besides their words.
// A post matches when it holds every term of the query; the index only proposes candidates, and
// each is checked against the post's text as it is now (matchesQuery), so an entry an edit left
// behind, or two pairs that are not next to each other, never make a false match.
import { parseMentions, parseTopics, type MentionSpan, type TopicSpan } from './text-entities.js';

/** The longest query, in code points. */
export const SEARCH_QUERY_MAX = 100;
/** The most distinct terms a query may ask for. */
export const SEARCH_TERMS_MAX = 10;
/** The most index lists one page reads (the query's most selective terms; the rest are checked on the text). */
export const SEARCH_SCANNED_TERMS = 4;
/** A word's index term is at most this many code points (a longer word is matched whole on the text). */
const WORD_TERM_MAX = 32;

// A run of CJK characters, or a word of other letters and digits (marks are folded away). A word
// stops where CJK text starts (小米SU7交付了 is 小米 su7 交付了), since CJK characters are letters too.
const TOKEN =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|((?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])[\p{L}\p{N}])+)/gu;
const MARKS = /\p{M}/gu;

/** A text folded for search, and where each of its UTF-16 units came from (a code-point index of the original). */
export interface Folded {
  text: string;
  origin: number[];
}

/** Folds one code point at a time, so every folded unit knows its original code point. */
export function fold(text: string): Folded {
  let out = '';
  const origin: number[] = [];
  let at = 0;
  for (const ch of text) {
    const folded = ch.normalize('NFKC').toLowerCase().normalize('NFD').replace(MARKS, '');
    out += folded;
    for (let i = 0; i < folded.length; i++) origin.push(at);
    at++;
  }
  return { text: out, origin };
}

interface Token {
  kind: 'cjk' | 'word';
  text: string;
  /** UTF-16 index in the folded text. */
  index: number;
}

function tokens(folded: string): Token[] {
  const out: Token[] = [];
  for (const m of folded.matchAll(TOKEN)) {
    out.push({ kind: m[1] !== undefined ? 'cjk' : 'word', text: m[0], index: m.index });
  }
  return out;
}

const wordTerm = (word: string) => [...word].slice(0, WORD_TERM_MAX).join('');
export const topicTerm = (name: string) => `#${name}`;
export const mentionTerm = (handle: string) => `@${handle}`;

/** A CJK run's characters and overlapping pairs. */
function cjkTerms(run: string): string[] {
  const chars = [...run];
  return [...chars, ...chars.slice(1).map((c, i) => chars[i] + c)];
}

/** What a post's text carries that search reads: its entities as parsed at publish. */
export interface Searchable {
  body: string;
  topics?: readonly TopicSpan[];
  mentions?: readonly MentionSpan[];
}

/** Every distinct index term of a post's text. */
export function indexTerms(post: Searchable): string[] {
  const terms = new Set<string>();
  for (const t of tokens(fold(post.body).text)) {
    for (const term of t.kind === 'cjk' ? cjkTerms(t.text) : [wordTerm(t.text)]) terms.add(term);
  }
  for (const t of post.topics ?? []) terms.add(topicTerm(t.name));
  for (const m of post.mentions ?? []) terms.add(mentionTerm(m.handle));
  return [...terms];
}

export type QueryTerm =
  | { kind: 'cjk'; text: string }
  | { kind: 'word'; text: string }
  | { kind: 'topic'; name: string }
  | { kind: 'mention'; handle: string };

export interface SearchQuery {
  /** The query as it is matched: its terms, each once. */
  terms: QueryTerm[];
  /** The index lists a page reads, most selective first (≤ SEARCH_SCANNED_TERMS). */
  scanned: string[];
}

export type QueryProblem = 'query_empty' | 'query_too_long' | 'query_too_complex';

/**
 * A query's terms, or why it has none worth reading: nothing searchable (only punctuation,
 * emoji or spaces), longer than SEARCH_QUERY_MAX, or more than SEARCH_TERMS_MAX terms.
 */
export function parseQuery(raw: string): SearchQuery | QueryProblem {
  if ([...raw].length > SEARCH_QUERY_MAX) return 'query_too_long';
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const push = (term: QueryTerm, key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    terms.push(term);
  };
  // Entities first; their text is not searched again as words (#微博# asks for the topic).
  const topics = parseTopics(raw, SEARCH_TERMS_MAX + 1);
  const mentions = parseMentions(raw, SEARCH_TERMS_MAX + 1);
  for (const t of topics) push({ kind: 'topic', name: t.name }, topicTerm(t.name));
  for (const m of mentions) push({ kind: 'mention', handle: m.handle }, mentionTerm(m.handle));
  const chars = [...raw];
  const spans = [...topics, ...mentions];
  const rest = chars.map((c, i) => (spans.some((s) => i >= s.start && i < s.end) ? ' ' : c)).join('');
  for (const t of tokens(fold(rest).text)) push({ kind: t.kind, text: t.text }, `${t.kind}:${t.text}`);
  if (terms.length === 0) return 'query_empty';
  if (terms.length > SEARCH_TERMS_MAX) return 'query_too_complex';
  return { terms, scanned: scannedTerms(terms) };
}

/**
 * The lists worth reading, most selective first: topics and mentions, then words by length, then
 * each CJK run's pairs (spread over the run: its first, its last, …), single characters last.
 */
function scannedTerms(terms: QueryTerm[]): string[] {
  const ranked: Array<{ term: string; rank: number }> = [];
  for (const t of terms) {
    if (t.kind === 'topic') ranked.push({ term: topicTerm(t.name), rank: 1000 });
    else if (t.kind === 'mention') ranked.push({ term: mentionTerm(t.handle), rank: 1000 });
    else if (t.kind === 'word') ranked.push({ term: wordTerm(t.text), rank: 100 + [...t.text].length });
    else {
      const chars = [...t.text];
      if (chars.length === 1) ranked.push({ term: chars[0]!, rank: 1 });
      // Pairs that cover the run, ends first: each is as likely as another to be the rarest.
      const starts = chars.length === 1 ? [] : coveringPairs(chars.length);
      for (const [i, s] of starts.entries()) ranked.push({ term: chars[s]! + chars[s + 1]!, rank: 50 - i });
    }
  }
  const out: string[] = [];
  for (const { term } of ranked.sort((a, b) => b.rank - a.rank)) {
    if (!out.includes(term)) out.push(term);
    if (out.length === SEARCH_SCANNED_TERMS) break;
  }
  return out;
}

/** Start indices of pairs that together cover a run of n ≥ 2 characters: 0, n−2, 2, 4, … */
function coveringPairs(n: number): number[] {
  const starts = [0];
  if (n - 2 > 0) starts.push(n - 2);
  for (let s = 2; s < n - 2; s += 2) starts.push(s);
  return starts;
}

/** Whether the post's current text holds every term of the query. */
export function matchesQuery(post: Searchable, query: SearchQuery): boolean {
  return highlights(post, query) !== null;
}

/**
 * The spans of `post.body` that match the query (code-point offsets [start, end), sorted, merged),
 * or null when some term of the query is not in the post.
 */
export function highlights(post: Searchable, query: SearchQuery): Array<[number, number]> | null {
  const folded = fold(post.body);
  const found = tokens(folded.text);
  const spans: Array<[number, number]> = [];
  const span = (index: number, length: number): [number, number] => [
    folded.origin[index]!,
    folded.origin[index + length - 1]! + 1,
  ];
  for (const term of query.terms) {
    const before = spans.length;
    if (term.kind === 'topic') {
      for (const t of post.topics ?? []) if (t.name === term.name) spans.push([t.start, t.end]);
    } else if (term.kind === 'mention') {
      for (const m of post.mentions ?? []) if (m.handle === term.handle) spans.push([m.start, m.end]);
    } else if (term.kind === 'word') {
      for (const t of found) if (t.kind === 'word' && t.text === term.text) spans.push(span(t.index, t.text.length));
    } else {
      for (const t of found) {
        if (t.kind !== 'cjk') continue;
        for (let at = t.text.indexOf(term.text); at >= 0; at = t.text.indexOf(term.text, at + 1)) {
          spans.push(span(t.index + at, term.text.length));
        }
      }
    }
    if (spans.length === before) return null;
  }
  return merge(spans);
}

function merge(spans: Array<[number, number]>): Array<[number, number]> {
  const sorted = spans.toSorted((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
