// web/src/components/rich-text.tsx — a post's or comment's text with its @mentions and #topics#
// as links (to the profile, to the topic page). The API finds the spans once, at write, and
// gives their offsets in Unicode code points, so the text is cut with Array.from: a UTF-16 index
// would land inside an emoji. Web addresses (http and https only) in the rest become links that
// open apart and pass no referrer or ranking. Everything else stays text nodes — never markup
// from the body.
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

/** Plain text with its web addresses as links. */
function withLinks(text: string, key: number): ComponentChild[] {
  const out: ComponentChild[] = [];
  let at = 0;
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = m[0].replace(TRAILING, '');
    if (!URL.canParse(url)) continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(
      <a key={`${key}:${m.index}`} class="url" href={url} target="_blank" rel="noopener noreferrer nofollow ugc">
        {url}
      </a>,
    );
    at = m.index + url.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function RichText({
  text,
  mentions = [],
  topics = [],
}: {
  text: string;
  mentions?: Mention[];
  topics?: TopicSpan[];
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
    if (s.start > at) parts.push(...withLinks(chars.slice(at, s.start).join(''), at));
    parts.push(
      <a key={s.start} class={s.kind} href={s.to}>
        {chars.slice(s.start, s.end).join('')}
      </a>,
    );
    at = s.end;
  }
  if (at < chars.length) parts.push(...withLinks(chars.slice(at).join(''), at));
  return <>{parts}</>;
}
