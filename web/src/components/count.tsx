// web/src/components/count.tsx — a counted message with its number in bold ("1 关注", "2 Followers"):
// the number picks the plural form (i18n.ts), and the words stay in one element with it, so a
// flex container around it cannot drop the space between them.
import type { MessageKey } from '../i18n/messages';
import { pluralForm, useI18n } from '../i18n/i18n';

export function Count({ message, n }: { message: MessageKey; n: number }) {
  const { locale } = useI18n();
  const [before = '', after = ''] = pluralForm(locale, message, n).split('{n}');
  return (
    <span class="count">
      {before}
      <strong>{n}</strong>
      {after}
    </span>
  );
}
