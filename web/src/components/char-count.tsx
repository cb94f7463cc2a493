// web/src/components/char-count.tsx — the live "characters left" counter every text box shares
// (post, repost comment, comment). It counts Unicode code points, as the API does: an emoji or
// a CJK character is one, not two UTF-16 units.
import { useI18n } from '../i18n/i18n';

export const codePoints = (s: string) => [...s].length;
/** The API refuses text with nothing visible in it (only spaces or format characters). */
export const hasVisible = (s: string) => s.replace(/[\p{Cf}\s]/gu, '').length > 0;

export function CharCount({ id, text, max }: { id: string; text: string; max: number }) {
  const { t } = useI18n();
  const remaining = max - codePoints(text);
  return (
    <span id={id} class={remaining < 0 ? 'count over' : 'count'} aria-live="polite">
      {remaining < 0 ? t('compose.over', { n: -remaining }) : t('compose.remaining', { n: remaining })}
    </span>
  );
}
