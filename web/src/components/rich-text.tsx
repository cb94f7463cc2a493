// web/src/components/rich-text.tsx — a post's or comment's text with its @mentions and #topics#
// as links (to the profile, to the topic page). The API finds the spans once, at write, and
// gives their offsets in Unicode code points, so the text is cut with Array.from: a UTF-16 index
// would land inside an emoji. Everything else stays text nodes — never markup from the body.
import type { ComponentChild } from 'preact';
import type { Mention, TopicSpan } from '../api/client';
import { href } from '../router';

interface Span {
  start: number;
  end: number;
  to: string;
  kind: 'mention' | 'topic';
}

export function RichText({ text, mentions = [], topics = [] }: { text: string; mentions?: Mention[]; topics?: TopicSpan[] }) {
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
    if (s.start > at) parts.push(chars.slice(at, s.start).join(''));
    parts.push(
      <a key={s.start} class={s.kind} href={s.to}>
        {chars.slice(s.start, s.end).join('')}
      </a>,
    );
    at = s.end;
  }
  if (at < chars.length) parts.push(chars.slice(at).join(''));
  return <>{parts}</>;
}
