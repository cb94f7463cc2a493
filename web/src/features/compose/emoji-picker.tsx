// web/src/features/compose/emoji-picker.tsx — the composer's emoji button: a popup of the
// curated set (emoji.ts), grouped, that puts the chosen emoji into the text box at the caret.
// Keyboard: the button opens it with the focus on the first emoji; the arrows move between
// emoji (up and down by what is drawn above and below), Home / End to the first and last,
// Enter or Space inserts and closes, Escape or Tab closes; the focus then goes back to the text
// box, with the caret after what was inserted. Mouse: a click inserts; a click outside closes.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useI18n } from '../../i18n/i18n';
import { EMOJI_GROUPS } from './emoji';
import { insertAt } from './insert';

/** The emoji drawn nearest the one focused, in the direction of an arrow key (geometry, not indices). */
function neighbour(all: HTMLButtonElement[], from: HTMLButtonElement, key: string): HTMLButtonElement | undefined {
  const i = all.indexOf(from);
  if (key === 'ArrowLeft') return all[i - 1];
  if (key === 'ArrowRight') return all[i + 1];
  if (key === 'Home') return all[0];
  if (key === 'End') return all.at(-1);
  const here = from.getBoundingClientRect();
  const x = here.left + here.width / 2;
  const down = key === 'ArrowDown';
  // The nearest row in that direction, then the emoji in it nearest across.
  const rows = all
    .map((b) => ({ b, r: b.getBoundingClientRect() }))
    .filter(({ r }) => (down ? r.top > here.top + here.height / 2 : r.bottom < here.bottom - here.height / 2));
  if (rows.length === 0) return undefined;
  const rowTop = down ? Math.min(...rows.map(({ r }) => r.top)) : Math.max(...rows.map(({ r }) => r.top));
  const row = rows.filter(({ r }) => Math.abs(r.top - rowTop) < 2);
  return row.reduce((best, c) =>
    Math.abs(c.r.left + c.r.width / 2 - x) < Math.abs(best.r.left + best.r.width / 2 - x) ? c : best,
  ).b;
}

export function EmojiPicker({
  id,
  box,
  onInsert,
}: {
  /** The popup's id (one picker per text box). */
  id: string;
  box: { current: HTMLTextAreaElement | null };
  /** The box's new value, with the emoji in it. */
  onInsert: (value: string) => void;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Where the caret was when the picker opened: the focus leaves the box meanwhile.
  const caret = useRef<[number, number]>([0, 0]);

  const close = () => {
    setOpen(false);
    const b = box.current;
    if (b) {
      b.focus();
      b.setSelectionRange(caret.current[0], caret.current[1]);
    }
  };

  // The focus is on the first emoji as the panel appears (a layout effect runs in the same task
  // as the render): a key pressed right after the one that opened it lands in the panel, not on
  // the button, however late the browser would have run a plain effect.
  useLayoutEffect(() => {
    if (open) panel.current?.querySelector<HTMLButtonElement>('button.emoji')?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const choose = (emoji: string) => {
    const b = box.current;
    if (!b) return;
    setOpen(false);
    onInsert(insertAt(b, emoji, caret.current[0], caret.current[1]));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation(); // the picker closes, not the form around it
      close();
      return;
    }
    if (e.key === 'Tab') {
      e.preventDefault();
      close();
      return;
    }
    const all = [...(panel.current?.querySelectorAll<HTMLButtonElement>('button.emoji') ?? [])];
    const from = document.activeElement as HTMLButtonElement;
    if (!all.includes(from)) return;
    if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    neighbour(all, from, e.key)?.focus();
  };

  return (
    <div class="emoji-picker">
      <button
        ref={button}
        type="button"
        class="tool-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => {
          if (open) {
            close();
            return;
          }
          const b = box.current;
          caret.current = b ? [b.selectionStart, b.selectionEnd] : [0, 0];
          setOpen(true);
        }}
      >
        <span aria-hidden="true">😊</span> {t('emoji.open')}
      </button>
      {open && (
        <div ref={panel} id={id} class="emoji-panel" role="dialog" aria-label={t('emoji.title')} onKeyDown={onKeyDown}>
          {EMOJI_GROUPS.map((g, gi) => (
            // biome-ignore lint/a11y/useSemanticElements: a <fieldset> would bring its own border, padding and layout to this grid of buttons
            <div key={g.id} role="group" aria-labelledby={`${id}-${g.id}`}>
              <h3 id={`${id}-${g.id}`} class="emoji-group">
                {t(g.label)}
              </h3>
              <div class="emoji-grid">
                {g.emoji.map((emoji, i) => (
                  <button
                    key={emoji}
                    type="button"
                    class="emoji"
                    tabIndex={gi === 0 && i === 0 ? 0 : -1}
                    onClick={() => choose(emoji)}
                  >
                    {emoji}
                  </button>
                ))}
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
