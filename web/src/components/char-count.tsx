// web/src/components/char-count.tsx — what every text box shares (post, repost comment,
// comment): the live "characters left" counter, counted in Unicode code points as the API
// counts (an emoji or a CJK character is one, not two UTF-16 units); the characters the API
// refuses, said before sending; Ctrl/⌘+Enter sends.
import { BIDI_CONTROL_PATTERN, CONTROL_PATTERN } from '../api/limits';
import type { MessageKey } from '../i18n/messages';
import { useI18n } from '../i18n/i18n';

export const codePoints = (s: string) => [...s].length;
/** The API refuses text with nothing visible in it (only spaces or format characters). */
export const hasVisible = (s: string) => s.replace(/[\p{Cf}\s]/gu, '').length > 0;

// The API's text rules, generated from the API's own (api/limits.ts): no bidirectional overrides
// or isolates (they can disguise text), no control characters but newlines.
const BIDI_CONTROL = new RegExp(BIDI_CONTROL_PATTERN, 'u');
const CONTROL = new RegExp(CONTROL_PATTERN, 'u');

/** Why the API would refuse this text as it is (null: it would not). */
export function textProblem(s: string): MessageKey | null {
  if (BIDI_CONTROL.test(s)) return 'compose.bidi';
  if (CONTROL.test(s.replace(/\r?\n/g, ''))) return 'compose.control';
  return null;
}

/** A text box's keys: Ctrl+Enter (⌘+Enter on a Mac) sends its form. */
export function sendOnCtrlEnter(e: KeyboardEvent): void {
  if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
  e.preventDefault();
  (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
}

export function CharCount({ id, text, max }: { id: string; text: string; max: number }) {
  const { t } = useI18n();
  const remaining = max - codePoints(text);
  const problem = textProblem(text);
  return (
    <span id={id} class={remaining < 0 || problem ? 'count over' : 'count'} aria-live="polite">
      {problem
        ? t(problem)
        : remaining < 0
          ? t('compose.over', { n: -remaining })
          : t('compose.remaining', { n: remaining })}
    </span>
  );
}
