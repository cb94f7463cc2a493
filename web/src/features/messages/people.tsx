// web/src/features/messages/people.tsx — how the 私信 pages name people and messages: the other
// person's face and name (已注销 / "Account gone" once the account left, with no link), and a
// message in one line for a list (recalled, erased, pictures said in words).
import type { Person as Face } from '../../components/avatar';
import type { Translate } from '../../i18n/i18n';
import type { LastMessage, Message, Person } from './api';

/** The person as the avatar draws them: no picture and no name once they left. */
export const faceOf = (p: Person): Face => ({
  handle: p.handle,
  ...(p.left || !p.displayName ? {} : { displayName: p.displayName }),
  ...(!p.left && p.avatar ? { url: p.avatar } : {}),
});

/** Their name as shown: the display name (the handle if none), or 已注销. */
export const nameOf = (p: Person, t: Translate): string => (p.left ? t('messages.left') : p.displayName || p.handle);

/** A recalled or erased message's sentence, or null for one with content. */
export function placeholderOf(m: Message | LastMessage, me: string, t: Translate): string | null {
  if (m.recalled) return t(m.from === me ? 'messages.recalledMine' : 'messages.recalledTheirs');
  if (m.erased) return t('messages.erased');
  return null;
}

/** The last message in one line: its text, or what stands for it (a picture, a recall). */
export function previewOf(m: LastMessage | null, me: string, t: Translate): string {
  if (!m) return '';
  const placeholder = placeholderOf(m, me, t);
  if (placeholder) return placeholder;
  const pictures =
    m.pictures === 0 ? '' : m.pictures === 1 ? t('messages.picture') : t('messages.pictures', { n: m.pictures });
  const content = [m.text.replace(/\s+/g, ' ').trim(), pictures].filter(Boolean).join(' ');
  return m.from === me ? `${t('messages.mePrefix')}${content}` : content;
}
