// web/src/features/compose/typed.ts — which @mention or #topic is being typed before the caret,
// for the suggestions (autocomplete.tsx). It follows the server's parser
// (shared/domain/text-entities.ts): `@` or `＠` not after a word character, '@' or '.', then
// handle characters; `#` or `＃` not after a word character, then anything but `#`, spaces and
// the characters a topic name never holds. Pure: the unit tests run it outside a browser.

const MENTION = /(?:^|[^\p{L}\p{M}\p{N}_@＠.])[@＠]([A-Za-z0-9_]{1,30})$/u;
const TOPIC = /(?:^|[^\p{L}\p{M}\p{N}_])[#＃]([^#＃\s/?%]{1,32})$/u;

/** The word being typed before the caret: its sign's kind, where the sign is, what follows it. */
export interface Typed {
  kind: '@' | '#';
  start: number;
  query: string;
}

export function typedAt(text: string, caret: number): Typed | null {
  const before = text.slice(0, caret);
  const m = MENTION.exec(before) ?? TOPIC.exec(before);
  if (!m) return null;
  const query = m[1]!;
  const start = caret - query.length - 1;
  return { kind: before[start] === '@' || before[start] === '＠' ? '@' : '#', start, query };
}
