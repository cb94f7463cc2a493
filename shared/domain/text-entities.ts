// shared/domain/text-entities.ts — finds the @mentions and #topics# in a post or comment body:
// pure functions over the text, with offsets in code points so every client can link the same span.
import { BIDI_CONTROL } from './text-rules.js';

/** Distinct handles a post or comment may mention; occurrences of later handles are plain text. */
export const MAX_MENTIONS = 20;
/** Distinct topics a post may carry; later ones are plain text. */
export const MAX_TOPICS = 10;
/** A topic name's length bound, in code points, after normalisation. */
export const TOPIC_MAX_CODE_POINTS = 32;

/** `@handle` in a text: offsets are Unicode CODE POINT indices [start, end) of the whole token, '@' included. */
export interface MentionSpan {
  handle: string;
  start: number;
  end: number;
}
/** `#话题#` or `#tag` in a text: offsets (code points, [start,end)) of the whole token, both '#' included for the paired form. */
export interface TopicSpan {
  name: string;
  start: number;
  end: number;
}

// The longest handle (HANDLE_PATTERN in shared/schema/row-keys.ts). A longer run is not cut to
// fit: linking a prefix would point at someone the writer never named.
const HANDLE_MAX = 30;
// The longest raw content of a paired topic, in code points. Content may shrink under
// normalisation (spaces collapse, invisibles go), so allow slack beyond the name's bound; past
// it, normalising would be wasted work on text that cannot become a name.
const PAIRED_SCAN_LIMIT = TOPIC_MAX_CODE_POINTS * 4;

// The scanners jump between signs with native regex searches instead of stepping through every
// character in JavaScript: 10,000-token texts stay fast even before the JIT has warmed up. No
// search reaches past the next sign or newline, and none covers a stretch an earlier one of its
// kind covered, so the work stays linear.
const AT_SIGN = /[@＠]/g;
// Full-width '＃' is what a CJK input method types; treating it as '#' is what Weibo users expect.
const HASH_SIGN = /[#＃]/g;
// A paired topic's content has no '#' and never spans lines, so its closer is the first of these.
const PAIR_END = /[#＃\n\r]/g;
const HANDLE_RUN = /[A-Za-z0-9_]*/y;
// A "word" character in any script: '@' or '#' right after one is part of a word (an e-mail
// address, `中@ann`, `C#`, `abc#def`), not the start of an entity.
const WORD_RUN = /[\p{L}\p{M}\p{N}_]*/uy;
const WORD_CHAR = /^[\p{L}\p{M}\p{N}_]$/u;
// A tag made only of numbers (and marks on them, e.g. keycap 1️⃣) is a number: `#1` is "number one".
const TAG_NEEDS = /[\p{L}_]/u;
const WHITESPACE = /^\s$/u;
const SURROGATE = /[\uD800-\uDFFF]/;

const isHash = (unit: number) => unit === 0x23 || unit === 0xff03;

// Offsets count code points, not UTF-16 units, so they do not depend on how a client stores
// strings (😀 is one). A lone surrogate counts as one, as Array.from counts it.
function codePointLength(s: string): number {
  return SURROGATE.test(s) ? Array.from(s).length : s.length;
}

/** Turns increasing UTF-16 indices into code-point indices, counting each stretch once. */
function codePointCounter(text: string) {
  let unit = 0;
  let cp = 0;
  return (at: number) => {
    cp += codePointLength(text.slice(unit, at));
    unit = at;
    return cp;
  };
}

/** The code point that ends just before `at`, or undefined at the start. */
function charBefore(text: string, at: number): string | undefined {
  if (at === 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text[at - 1];
}

/** Where a sticky `run` regex stops when started at `at`. */
function runEnd(run: RegExp, text: string, at: number): number {
  run.lastIndex = at;
  return run.exec(text) === null ? at : run.lastIndex;
}

// A non-integer or negative cap is a caller bug; it must not lift the cap (NaN would compare false).
function capOf(max: number): number {
  if (max === Infinity) return Infinity;
  return Number.isFinite(max) ? Math.max(0, Math.floor(max)) : 0;
}

/**
 * Every `@handle` (or `＠handle`) in `text`, in text order. Only the first `max` distinct handles
 * count; each of their occurrences gets a span so a client can link every one.
 */
export function parseMentions(text: string, max = MAX_MENTIONS): MentionSpan[] {
  const cap = capOf(max);
  const accepted = new Set<string>();
  const spans: MentionSpan[] = [];
  const cpAt = codePointCounter(text);
  const signs = new RegExp(AT_SIGN); // own lastIndex: the scanner is reentrant
  const handleRun = new RegExp(HANDLE_RUN);
  for (let m = signs.exec(text); m !== null; m = signs.exec(text)) {
    const at = m.index;
    const prev = charBefore(text, at);
    // Both signs are one UTF-16 unit and the run is ASCII, so unit lengths are code-point lengths.
    const end = runEnd(handleRun, text, at + 1);
    const run = end - at - 1;
    // The run holds no '@', so nothing inside it can start a mention: resume after it.
    signs.lastIndex = end;
    // After a word char, '@' is an e-mail join (ann@example.com, 中@ann); after '@' or '.', a
    // doubled sign or an address part. Punctuation, space and `//` (the repost chain) are fine.
    if (prev !== undefined && (WORD_CHAR.test(prev) || prev === '@' || prev === '＠' || prev === '.')) continue;
    if (run < 1 || run > HANDLE_MAX) continue;
    // Handles are stored lowercase; `@Ann` names the same person as `@ann`.
    const handle = text.slice(at + 1, end).toLowerCase();
    if (accepted.has(handle) || accepted.size < cap) {
      accepted.add(handle);
      const start = cpAt(at);
      spans.push({ handle, start, end: start + 1 + run });
    }
  }
  return spans;
}

/**
 * Every topic in `text`, in text order: Weibo's paired `#话题#` first, else a `#tag`. Only the
 * first `max` distinct names count; each of their occurrences gets a span.
 */
export function parseTopics(text: string, max = MAX_TOPICS): TopicSpan[] {
  const cap = capOf(max);
  const accepted = new Set<string>();
  const spans: TopicSpan[] = [];
  const cpAt = codePointCounter(text);
  const signs = new RegExp(HASH_SIGN);
  const pairEnd = new RegExp(PAIR_END);
  const wordRun = new RegExp(WORD_RUN);
  // Which tokens exist never depends on the cap: a topic over the cap is still consumed, as plain
  // text, so a piece of it cannot turn into a different topic.
  const take = (name: string, at: number, cpLength: number, resume: number) => {
    if (accepted.has(name) || accepted.size < cap) {
      accepted.add(name);
      const start = cpAt(at);
      spans.push({ name, start, end: start + cpLength });
    }
    signs.lastIndex = resume;
  };
  for (let m = signs.exec(text); m !== null; m = signs.exec(text)) {
    const at = m.index;
    const prev = charBefore(text, at);
    // `C#` and `abc#def` are words, not topics.
    if (prev !== undefined && WORD_CHAR.test(prev)) continue;

    // Paired form: '#', content, '#'.
    pairEnd.lastIndex = at + 1;
    const close = pairEnd.exec(text)?.index ?? -1;
    // Content of at most PAIRED_SCAN_LIMIT code points spans at most twice as many units.
    if (close > at + 1 && close - at - 1 <= 2 * PAIRED_SCAN_LIMIT && isHash(text.charCodeAt(close))) {
      const raw = text.slice(at + 1, close);
      const length = codePointLength(raw);
      // `#abc #def` is two tags, not the topic "abc ": Weibo's paired form hugs its content.
      // Whitespace is all in the BMP, so testing the single units at the edges is enough.
      if (length <= PAIRED_SCAN_LIMIT && !WHITESPACE.test(raw[0]!) && !WHITESPACE.test(raw[raw.length - 1]!)) {
        const name = normalizeTopic(raw);
        if (name !== null) {
          // The closing '#' is consumed: in `#a#b#` the `b#` after it is plain text.
          take(name, at, length + 2, close + 1);
          continue;
        }
      }
    }

    // Tag form: the longest word after '#'.
    const end = runEnd(wordRun, text, at + 1);
    if (end > at + 1) {
      const raw = text.slice(at + 1, end);
      const name = TAG_NEEDS.test(raw) ? normalizeTopic(raw) : null;
      if (name !== null) {
        take(name, at, 1 + codePointLength(raw), end);
      }
    }
    // A lone '#', `##`, `#1`: plain text; the next '#' may still start a topic (`##abc`).
  }
  return spans;
}

const ASCII_WORD = /^[A-Za-z0-9_]+$/;
const ASCII_ALNUM = /[A-Za-z0-9]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Names appear in URL paths: '#', '?', '%' and '/' would change what the URL means.
const FORBIDDEN = /[#＃/?%\p{Cc}]/u;

/** The canonical form of a topic name, or null when it is not a valid topic name. */
export function normalizeTopic(raw: string): string | null {
  // An ASCII word (most tags) needs only lowercasing; the full path below gives the same answer.
  if (ASCII_WORD.test(raw)) {
    return raw.length <= TOPIC_MAX_CODE_POINTS && ASCII_ALNUM.test(raw) ? raw.toLowerCase() : null;
  }
  // Printable ASCII is already NFKC and has no format characters: skipping those steps is only speed.
  let s = raw;
  if (!PRINTABLE_ASCII.test(s)) {
    // NFKC first, so `ＲＵＳＴ` and `rust` are one topic and the checks below see the real characters.
    s = s.normalize('NFKC');
    // Bidi controls are \p{Cf} too, but refused rather than stripped (text-rules.ts): an
    // override inside a topic name is a spoofing attempt, not something to guess at.
    if (BIDI_CONTROL.test(s)) return null;
    // Invisible format characters (ZWSP, ZWJ, BOM) would make two names look alike but differ.
    s = s.replace(/\p{Cf}/gu, '');
  }
  // toLowerCase, not toLocaleLowerCase: the same name on every server, whatever its locale.
  s = s.toLowerCase();
  s = s.replace(/\s+/gu, ' ').trim();
  const length = codePointLength(s);
  if (length < 1 || length > TOPIC_MAX_CODE_POINTS) return null;
  // Punctuation or emoji alone name nothing searchable.
  if (!/[\p{L}\p{N}]/u.test(s)) return null;
  if (FORBIDDEN.test(s)) return null;
  return s;
}

/**
 * What a topic suggestion query is compared as: the start of a topic name in the names' own
 * form (NFKC, lowercased, spaces collapsed; a leading `#` or `＃` dropped, as people type it),
 * or null when no topic name could start so (empty, too long, or holding `# / ? %`, a control
 * or a bidirectional override). Unlike a whole name it needs no letter or digit yet: `#🎉` may
 * start `#🎉新年#`.
 */
export function topicPrefixForm(raw: string): string | null {
  let s = raw.replace(/^\s*[#＃]/u, '').normalize('NFKC');
  if (BIDI_CONTROL.test(s)) return null;
  s = s
    .replace(/\p{Cf}/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trimStart();
  const length = codePointLength(s);
  if (length < 1 || length > TOPIC_MAX_CODE_POINTS || FORBIDDEN.test(s)) return null;
  return s;
}

/** Where a user is named with a link: a post, or a comment on one. */
export interface MentionPlace {
  postId: string;
  commentId?: string;
}

/** Distinct handles / topic names in first-occurrence order (helpers for callers). */
export function mentionedHandles(spans: MentionSpan[]): string[] {
  return [...new Set(spans.map((s) => s.handle))];
}

export function topicNames(spans: TopicSpan[]): string[] {
  return [...new Set(spans.map((s) => s.name))];
}
