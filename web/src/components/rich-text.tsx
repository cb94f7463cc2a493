// web/src/components/rich-text.tsx — a post's or comment's text with its @mentions and #topics#
// as links (to the profile, to the topic page). The API finds the spans once, at write, and
// gives their offsets in Unicode code points, so the text is cut with Array.from: a UTF-16 index
// would land inside an emoji. Web addresses (http and https only) in the rest become links that
// open apart and pass no referrer or ranking. Everything else stays text nodes — never markup
// from the body. A search's matched spans (`marks`, code points too) are wrapped in <mark>.
import type { ComponentChild } from 'preact';
import type { Mention, TopicSpan } from '../api/client';
import { href } from '../router';

interface Span {
  start: number;
  end: number;
  to: string;
  kind: 'mention' | 'topic';
}

// An address runs to the next space or bracket; punctuation that ends a sentence stays outside.
const URL_PATTERN = /https?:\/\/[^\s<>"'（）【】「」，。！？；、]+/giu;
const TRAILING = /[.,!?;:)\]}'"]+$/u;

/** Matched spans, [start, end) in code points of the whole text. */
export type Marks = ReadonlyArray<ReadonlyArray<number>>;

/** `chars` (the text's code points from `from`) with the parts inside a mark wrapped in <mark>. */
function marked(chars: string[], from: number, marks: Marks): ComponentChild[] {
  const out: ComponentChild[] = [];
  let at = 0;
  for (const [start = 0, end = 0] of marks) {
    const s = Math.max(start - from, at);
    const e = Math.min(end - from, chars.length);
    if (e <= s) continue;
    if (s > at) out.push(chars.slice(at, s).join(''));
    out.push(<mark key={`m${from + s}`}>{chars.slice(s, e).join('')}</mark>);
    at = e;
  }
  if (at < chars.length) out.push(chars.slice(at).join(''));
  return out;
}

/** Plain text (starting at code point `from` of the whole) with its web addresses as links. */
function withLinks(text: string, from: number, marks: Marks): ComponentChild[] {
  const out: ComponentChild[] = [];
  const plain = (s: string, cp: number) => out.push(...marked(Array.from(s), cp, marks));
  let at = 0;
  let cp = from;
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = m[0].replace(TRAILING, '');
    if (!URL.canParse(url)) continue;
    if (m.index > at) plain(text.slice(at, m.index), cp);
    cp += Array.from(text.slice(at, m.index)).length;
    out.push(
      <a key={`${from}:${m.index}`} class="url" href={url} target="_blank" rel="noopener noreferrer nofollow ugc">
        {url}
      </a>,
    );
    at = m.index + url.length;
    cp += Array.from(url).length;
  }
  if (at < text.length) plain(text.slice(at), cp);
  return out;
}

export function RichText({
  text,
  mentions = [],
  topics = [],
  marks = [],
}: {
  text: string;
  mentions?: Mention[];
  topics?: TopicSpan[];
  marks?: Marks;
}) {
  const chars = Array.from(text);
  const spans: Span[] = [
    ...mentions.map((m) => ({ start: m.start, end: m.end, to: href.profile(m.handle), kind: 'mention' as const })),
    ...topics.map((t) => ({ start: t.start, end: t.end, to: href.topic(t.name), kind: 'topic' as const })),
  ].sort((a, b) => a.start - b.start);
  const parts: ComponentChild[] = [];
  let at = 0;
  for (const s of spans) {
    // A span that overlaps the previous one or falls outside the text (a client older or newer
    // than the parser) stays plain text rather than cutting the words apart.
    if (s.start < at || s.end <= s.start || s.end > chars.length) continue;
    if (s.start > at) parts.push(...withLinks(chars.slice(at, s.start).join(''), at, marks));
    parts.push(
      <a key={s.start} class={s.kind} href={s.to}>
        {marked(chars.slice(s.start, s.end), s.start, marks)}
      </a>,
    );
    at = s.end;
  }
  if (at < chars.length) parts.push(...withLinks(chars.slice(at).join(''), at, marks));
  return <>{parts}</>;
}
