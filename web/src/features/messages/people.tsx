// web/src/features/messages/people.tsx — how the 私信 pages name people and messages: the other
// person's face and name (已注销 / "Account gone" once the account left, with no link), and a
// message in one line for a list (recalled, erased, pictures said in words).
import type { Person as Face } from '../../components/avatar';
import type { Translate } from '../../i18n/i18n';
import type { Message, Person } from './api';

/** The person as the avatar draws them: no picture and no name once they left. */
export const faceOf = (p: Person): Face => ({
  handle: p.handle,
  ...(p.left ? {} : { displayName: p.name }),
  ...(!p.left && p.avatar ? { url: p.avatar.small } : {}),
});

/** Their name as shown: the display name (the handle if none), or 已注销. */
export const nameOf = (p: Person, t: Translate): string => (p.left ? t('messages.left') : p.name || p.handle);

/** A recalled or erased message's sentence, or null for one with content. */
export function placeholderOf(m: Message, me: string, t: Translate): string | null {
  if (m.recalled) return t(m.from === me ? 'messages.recalledMine' : 'messages.recalledTheirs');
  if (m.erased) return t('messages.erased');
  return null;
}

/** The last message in one line: its text, or what stands for it (a picture, a recall). */
export function previewOf(m: Message | null, me: string, t: Translate): string {
  if (!m) return '';
  const placeholder = placeholderOf(m, me, t);
  if (placeholder) return placeholder;
  const pictures =
    m.pictures.length === 0
      ? ''
      : m.pictures.length === 1
        ? t('messages.picture')
        : t('messages.pictures', { n: m.pictures.length });
  const content = [m.text.replace(/\s+/g, ' ').trim(), pictures].filter(Boolean).join(' ');
  return m.from === me ? `${t('messages.mePrefix')}${content}` : content;
}

/** A millisecond time as the ISO string RelativeTime takes. */
export const isoOf = (ms: number) => new Date(ms).toISOString();
